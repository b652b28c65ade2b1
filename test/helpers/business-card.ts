/** A business card made ACTIVE through the API and the control API: for tests that read its details. */
import type { Approval, CardIssuingClient } from 'card-issuing-sdk';
import type { CardIssuingMock } from 'card-issuing-mock';

/**
 * A business user of the mock's first corporate with an approval of 100.00 EUR for ten days; the registration
 * completed (the card generated and ACTIVE) unless `register` is false.
 */
export async function businessCard(
  client: CardIssuingClient,
  mock: CardIssuingMock,
  user: { name: string; lastName: string; email: string; phone: string },
  register = true,
): Promise<{ corporateUuid: string; approval: Approval; userUuid: string }> {
  const { userUuid } = await client.corporates.users.create(user);
  const corporateUuid = mock.fixtures().corporates[0]!.corporateUuid;
  const now = mock.clock.now().getTime();
  const approval = await client.corporates.approvals.create(corporateUuid, {
    userUuid,
    budget: { amount: 10_000, currency: 'EUR' },
    validFrom: new Date(now).toISOString(),
    validTo: new Date(now + 10 * 24 * 3600 * 1000).toISOString(),
  });
  if (register) mock.users.completeRegistration(userUuid);
  return { corporateUuid, approval, userUuid };
}
