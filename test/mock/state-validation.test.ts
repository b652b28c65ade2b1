/**
 * A tenant state is checked whole before it replaces anything (`restore`, `PUT /__mock/state`, `importState`): a
 * state the mock made always passes, a bad one is 400 VALIDATION_FAILED naming each bad path, and the state in force
 * is left as it was. Before, only the top level was checked: one approval set to `null` was accepted and made every
 * request of the tenant a 500.
 */
import { describe, expect, it } from 'vitest';
import { getApproval } from '../../sdk/generated/sdk.gen';
import { ProblemError } from '../../mock-server/src/index';
import { snapshotErrors } from '../../mock-server/src/store';
import { fund, makeApproval, makeBusinessUser, makeUser } from './flows';
import { BASE_URL, DAY, mockHarness, ok, send } from './helpers';

const harness = mockHarness();

async function busyState() {
  const { client, mock } = harness;
  const { user, balanceId } = await makeUser(client, mock, { depositConsents: true });
  await fund(client, mock, user.id, balanceId, '100');
  const businessUser = await makeBusinessUser(client, mock, true);
  const approval = await makeApproval(client, mock, businessUser.userUuid, { fromDays: 1 });
  mock.clock.advance(2 * DAY);
  return { approval, snapshot: mock.snapshot() };
}

describe('tenant state validation', () => {
  it('passes every state the mock makes: seeded, and after users, deposits, cards and approvals', async () => {
    expect(snapshotErrors(harness.mock.snapshot())).toEqual([]);
    const { snapshot } = await busyState();
    expect(Object.keys(snapshot.approvals).length).toBeGreaterThan(0);
    expect(snapshotErrors(snapshot)).toEqual([]);
  });

  it('refuses an approval set to null, naming its path, and keeps the state in force', async () => {
    const { approval, snapshot } = await busyState();
    const before = JSON.stringify(harness.mock.snapshot());
    const broken = { ...snapshot, approvals: { ...snapshot.approvals, [approval.approvalUuid]: null } };
    let refused: unknown;
    try {
      harness.mock.restore(broken as unknown as typeof snapshot);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((refused as ProblemError).extras.errors).toContainEqual(
      expect.objectContaining({ path: `body.approvals.${approval.approvalUuid}` }),
    );
    expect(JSON.stringify(harness.mock.snapshot())).toBe(before);
    // The tenant still answers.
    ok(
      await getApproval({
        client: harness.client,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
      }),
    );
  });

  it('PUT /__mock/state with bad records deep inside is 400 naming every path, a key that is not its id and a dangling reference too', async () => {
    const { approval, snapshot } = await busyState();
    const record = snapshot.approvals[approval.approvalUuid]!;
    const userId = Object.keys(snapshot.users)[0]!;
    const broken = {
      ...snapshot,
      approvals: {
        ...snapshot.approvals,
        [approval.approvalUuid]: { ...record, status: 'LOST', budget: { amount: -1, currency: 'EUR' } },
      },
    };
    const response = await send('PUT', `${BASE_URL}/__mock/state`, { body: broken, sign: false });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        `body.approvals.${approval.approvalUuid}.status`,
        `body.approvals.${approval.approvalUuid}.budget.amount`,
      ]),
    );
    // Once every record is well-formed, the records' keys and references are checked too.
    const inconsistent = {
      ...snapshot,
      approvals: {
        ...snapshot.approvals,
        [approval.approvalUuid]: { ...record, cardId: '00000000-0000-4000-8000-000000000000' },
      },
      users: {
        ...snapshot.users,
        [userId]: { ...snapshot.users[userId]!, id: '11111111-1111-4111-8111-111111111111' },
      },
    };
    const second = await send('PUT', `${BASE_URL}/__mock/state`, { body: inconsistent, sign: false });
    expect(second.status).toBe(400);
    expect(((await second.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(
      expect.arrayContaining([`body.approvals.${approval.approvalUuid}.cardId`, `body.users.${userId}.id`]),
    );
  });
});
