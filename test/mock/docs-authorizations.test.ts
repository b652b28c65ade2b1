/**
 * docs/mock-authorizations.md's example (the ```ts block under "## A purchase held, partly captured, then refunded"),
 * run as written: the block below is that block, and the last test checks that the page still says the same.
 */
import { describe } from 'vitest';
import { codeBlockOf, ownBlock } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

// ---- docs block start
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { createMock } from 'card-issuing-mock';

const mock = createMock({ baseUrl: 'http://mock.test' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen());
afterAll(() => server.close());
const client = createCardIssuingClient({ baseUrl: 'http://mock.test', apiKey: 'test_key', apiSecret: 'test_secret' });

it('holds a hotel stay, captures less, refunds part of it', async () => {
  const user = await client.corporates.users.create({
    name: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.org',
    phone: '+12025550143',
  });
  const { corporateUuid } = mock.fixtures().corporates[0]!;
  const now = mock.clock.now().getTime();
  const { approvalUuid, card } = await client.corporates.approvals.create(corporateUuid, {
    userUuid: user.userUuid,
    budget: { amount: 50_000, currency: 'EUR' },
    validFrom: new Date(now).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  mock.users.completeRegistration(user.userUuid); // DELIVERED: the card can be used
  const budget = async () => {
    const { spent, held, remaining } = await client.corporates.approvals.get(corporateUuid, approvalUuid);
    return { spent: spent.amount, held: held.amount, remaining: remaining.amount };
  };

  // Check-in: the hotel holds 200.00 EUR.
  const stay = mock.cards.authorize(card.id, {
    amount: 20_000,
    currency: 'EUR',
    merchant: 'Grand Hotel',
    capture: false,
  });
  expect(stay.state).toBe('PENDING');
  expect(await budget()).toEqual({ spent: 0, held: 20_000, remaining: 30_000 });

  // Check-out: 150.00 EUR captured; the other 50.00 of the hold is released.
  mock.authorizations.capture(stay.id, 15_000);
  expect(await budget()).toEqual({ spent: 15_000, held: 0, remaining: 35_000 });

  // The minibar charge is refunded.
  mock.authorizations.refund(stay.id, 2_500);
  expect(await budget()).toEqual({ spent: 12_500, held: 0, remaining: 37_500 });
  expect(mock.authorizations({ cardId: card.id })).toMatchObject([
    { state: 'CLEARED', captured: 15_000, refunded: 2_500 },
  ]);
});
// ---- docs block end

describe('docs/mock-authorizations.md', () => {
  it('shows the block above as its example of a held, captured and refunded purchase', () => {
    const block = codeBlockOf(
      repoPath('docs/mock-authorizations.md'),
      'A purchase held, partly captured, then refunded',
    );
    const here = ownBlock(import.meta.url, 'docs');
    expect(here).toBeDefined();
    expect(block).toBe(here);
  });
});
