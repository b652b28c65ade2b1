/**
 * The builders: an approval in each of the nine statuses in one call, read back through the SDK with that status
 * and a history the approval table allows (every status change one of its rows, at instants that never go back and
 * never pass the tenant's now, which the builder does not move).
 */
import { describe, expect, it } from 'vitest';
import { createCardIssuingClient, type ApprovalStatus } from 'card-issuing-sdk';
import { createMock, createMockFetch, ProblemError, type CardIssuingMock } from '../../mock-server/src/index';
import { approvalMachine } from '../../mock-server/src/machines';
import { T0 } from './helpers';
import { zApprovalStatus } from '../../sdk/generated/zod.gen';

/** The nine statuses, from the spec. */
const STATUSES = zApprovalStatus.options;

function setup(): { mock: CardIssuingMock; client: ReturnType<typeof createCardIssuingClient> } {
  const mock = createMock({ clock: { now: T0 } });
  const client = createCardIssuingClient({
    baseUrl: 'https://api.example.test',
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    fetch: createMockFetch(mock.handlers),
  });
  return { mock, client };
}

/** Each status change of an approval, from the events: a row of the table, in time order, never after now. */
function expectTableHistory(mock: CardIssuingMock, approvalUuid: string, status: ApprovalStatus): void {
  const changes = mock
    .events({ type: 'approval.statusChanged' })
    .map(
      (e) =>
        e as unknown as {
          at: string;
          approvalUuid: string;
          from: ApprovalStatus | null;
          to: ApprovalStatus;
          trigger: string;
        },
    )
    .filter((e) => e.approvalUuid === approvalUuid);
  expect(changes.length).toBeGreaterThan(0);
  expect(changes.at(-1)!.to).toBe(status);
  let at = Number.NEGATIVE_INFINITY;
  for (const change of changes) {
    const row = approvalMachine.rows.find(
      (r) =>
        r.trigger === change.trigger &&
        (change.from === null ? r.from === null : r.from?.includes(change.from)) &&
        (r.to === 'unchanged' || r.to === change.to),
    );
    expect(row, `${change.from} -> ${change.to} by ${change.trigger}`).toBeDefined();
    expect(Date.parse(change.at)).toBeGreaterThanOrEqual(at);
    expect(Date.parse(change.at)).toBeLessThanOrEqual(Date.parse(T0));
    at = Date.parse(change.at);
  }
}

describe('given.approval: each of the nine statuses in one call', () => {
  for (const status of STATUSES) {
    it(status, async () => {
      const { mock, client } = setup();
      const made = mock.given.approval({ status });
      expect(mock.clock.now().toISOString(), 'the clock did not move').toBe(T0);
      const read = await client.corporates.approvals.get(made.corporateUuid, made.approval.approvalUuid);
      expect(read.status).toBe(status);
      expect(read).toEqual(made.approval);
      expectTableHistory(mock, made.approval.approvalUuid, status);
      const list = await client.corporates.approvals.listForUser(made.corporateUuid, made.user.userUuid);
      expect(list.items.map((a) => a.approvalUuid)).toContain(made.approval.approvalUuid);
      if (status === 'REAPPROVED') {
        expect(made.successor!.previousApprovalUuid).toBe(made.approval.approvalUuid);
        expect(made.successor!.card.id).toBe(made.approval.card.id);
        expect(read.replacedByApprovalUuid).toBe(made.successor!.approvalUuid);
      }
      if (status === 'CREATED' || status === 'REJECTED' || status === 'EXPIRED') {
        expect(read.previousApprovalUuid).toBe(made.changed!.approvalUuid);
        expect(made.changed!.status).toBe('DELIVERED');
      }
    });
  }

  it('carries purchases already made: spent and held, within the budget', async () => {
    const { mock, client } = setup();
    for (const status of ['DELIVERED', 'FINISHED', 'REAPPROVED', 'CREATED', 'EXPIRED'] as const) {
      const made = mock.given.approval({ status, budget: 50_000, spent: 12_000, held: 3_000 });
      const live = made.successor ?? made.changed ?? made.approval;
      const read = await client.corporates.approvals.get(made.corporateUuid, live.approvalUuid);
      expect({ spent: read.spent.amount, held: read.held.amount }, status).toEqual({ spent: 12_000, held: 3_000 });
      expect(made.authorizations.map((a) => [a.state, a.amount.amount])).toEqual([
        ['CLEARED', 12_000],
        ['PENDING', 3_000],
      ]);
    }
    const fixtures = mock.fixtures().corporates[0]!;
    expect(fixtures.balance.amount + fixtures.reserved.amount + fixtures.spent.amount).toBe(fixtures.funded.amount);
  });

  it('a FINISHED approval has its whole history in the past; validFrom and validTo as given', () => {
    const { mock } = setup();
    const made = mock.given.approval({
      status: 'FINISHED',
      validFrom: '2026-09-01T00:00:00Z',
      validTo: '2026-10-01T00:00:00Z',
      spent: 100,
    });
    expect(made.approval.validTo).toBe('2026-10-01T00:00:00.000Z');
    expect(made.card.status).toBe('CLOSED');
    expect(Date.parse(made.approval.updatedAt)).toBeLessThan(Date.parse(T0));
    expect(Date.parse(made.user.createdAt)).toBeLessThan(Date.parse('2026-09-01T00:00:00Z'));
  });

  it('names the option a state cannot have, and changes nothing', () => {
    const { mock } = setup();
    const before = mock.snapshot();
    const refused = (options: Parameters<typeof mock.given.approval>[0]) => {
      try {
        mock.given.approval(options);
      } catch (error) {
        expect(error).toBeInstanceOf(ProblemError);
        return (error as ProblemError).extras.errors ?? [];
      }
      throw new Error('not refused');
    };
    expect(refused({ status: 'ACCEPTED', spent: 10 })).toEqual([
      { path: 'body.spent', message: expect.stringContaining('never DELIVERED') },
    ]);
    expect(refused({ status: 'FINISHED', validTo: '2027-01-01T00:00:00Z' })[0]!.path).toBe('body.validTo');
    expect(refused({ status: 'BOGUS' as 'ACCEPTED', budget: -1 }).map((e) => e.path)).toEqual([
      'body.status',
      'body.budget',
    ]);
    expect(refused({ status: 'DELIVERED', budget: 100, spent: 101 })[0]!.path).toBe('body.spent');
    const user = mock.given.businessUser({ registered: true }).user;
    expect(refused({ status: 'ACCEPTED', user: user.userUuid })[0]!.path).toBe('body.user');
    mock.restore(before);
  });

  it('a funds shortage is the domain refusal, and nothing of the builder stays', () => {
    const { mock } = setup();
    const before = JSON.stringify(mock.snapshot());
    expect(() =>
      mock.given.approval({ status: 'DELIVERED', budget: 100_000_000, corporate: 'Globex Studio SARL' }),
    ).toThrow(/INSUFFICIENT_FUNDS/);
    expect(JSON.stringify(mock.snapshot())).toBe(before);
  });
});

describe('given: the Server2Server area and a corporate balance', () => {
  it('users at each step, cards at each step of issuing, balances, addresses, verifications', async () => {
    const { mock, client } = setup();
    const fresh = mock.given.user({ registered: false });
    expect(fresh.user.registrationStatus).not.toBe('COMPLETED');
    const failed = mock.given.user({ emailVerified: true, kyc: 'FAILED', balance: 2_500 });
    expect((await client.s2s.users.get(failed.user.id)).kycStatus).toBe('FAILED');
    expect(failed.user.emailVerified).toBe(true);
    expect((await client.s2s.balances.list(failed.user.id)).items[0]!.available).toBe(2_500);

    const cards = {
      virtual: mock.given.card(),
      locked: mock.given.card({ status: 'LOCKED' }),
      ordered: mock.given.card({ type: 'PHYSICAL', status: 'ORDERED' }),
      active: mock.given.card({ type: 'PHYSICAL' }),
      created: mock.given.card({ draft: 'CREATED' }),
      charged: mock.given.card({ type: 'PHYSICAL', draft: 'CHARGED' }),
    };
    expect(Object.fromEntries(Object.entries(cards).map(([k, v]) => [k, v.card?.status ?? v.draft!.status]))).toEqual({
      virtual: 'ACTIVE',
      locked: 'LOCKED',
      ordered: 'ORDERED',
      active: 'ACTIVE',
      created: 'CREATED',
      charged: 'CHARGED',
    });
    const listed = await client.s2s.cards.list(cards.active.user.id);
    expect(listed.items.map((c) => [c.type, c.status])).toEqual([['PHYSICAL', 'ACTIVE']]);
    expect(mock.clock.now().toISOString()).toBe(T0);

    const address = mock.given.depositAddress({ type: 'BTC' });
    expect(address.address.type).toBe('BTC');
    const pending = mock.given.verification({ user: address.user.id });
    expect(pending.verification.status).toBe('PENDING_APPROVAL');
    const all = await client.s2s.deposits.listVerifications({ userId: address.user.id });
    expect(all.items.map((v) => v.status)).toEqual(['PENDING_APPROVAL']);

    const corporate = mock.fixtures().corporates[1]!;
    const raised = mock.given.corporateBalance({
      corporate: corporate.name,
      available: corporate.balance.amount + 1_000_00,
    });
    expect(mock.fixtures().corporates[1]!.balance.amount).toBe(raised.balance.amount);
    expect(raised.topUp!.amount.amount).toBe(1_000_00);
  });
});

describe('POST /__mock/given/{kind} and POST /__mock/scenario', () => {
  const post = (mock: CardIssuingMock, path: string, body?: unknown) =>
    createMockFetch(mock.handlers)(`https://api.example.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('builds with the same options and answers what it made', async () => {
    const { mock, client } = setup();
    const response = await post(mock, '/__mock/given/approval', { status: 'EXPIRED', budget: 20_000 });
    expect(response.status).toBe(201);
    const made = (await response.json()) as {
      approval: { approvalUuid: string; status: string };
      corporateUuid: string;
    };
    expect(made.approval.status).toBe('EXPIRED');
    expect((await client.corporates.approvals.get(made.corporateUuid, made.approval.approvalUuid)).status).toBe(
      'EXPIRED',
    );
    expect((await post(mock, '/__mock/given/businessUser')).status).toBe(201);
  });

  it('refuses bad options with problem+json naming each, an unknown kind too', async () => {
    const { mock } = setup();
    const response = await post(mock, '/__mock/given/approval', { status: 'DONE', held: -1, colour: 'red' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors.map((e) => e.path).sort()).toEqual(['body.colour', 'body.held', 'body.status']);
    const unknown = await post(mock, '/__mock/given/dragon', {});
    expect(((await unknown.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe('path.kind');
  });

  it('applies a scenario whole, later entries naming earlier ones; a wrong one is refused whole with every error', async () => {
    const { mock } = setup();
    const before = JSON.stringify(mock.snapshot());
    const wrong = await post(mock, '/__mock/scenario', {
      given: [
        { kind: 'businessUser', as: 'ada', registered: true },
        { kind: 'approval', status: 'DELIVERED', user: 'bob' },
        { kind: 'approval', status: 'NOPE', user: 'ada' },
      ],
    });
    expect(wrong.status).toBe(400);
    const problem = (await wrong.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors.map((e) => e.path)).toEqual(['body.given.1.user', 'body.given.2.status']);
    const names = await post(mock, '/__mock/scenario', {
      given: [
        { kind: 'businessUser', as: 'ada', registered: true },
        { kind: 'approval', status: 'DELIVERED', user: 'bob' },
        { kind: 'approval', status: 'FINISHED', user: 'ada', as: 'ada' },
      ],
    });
    expect(((await names.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      'body.given.1.user',
      'body.given.2.as',
    ]);
    // Valid in shape, refused by the domain at its fourth entry: nothing of the first three stays.
    const funds = await post(mock, '/__mock/scenario', {
      given: [
        { kind: 'businessUser', as: 'ada', registered: true },
        { kind: 'approval', status: 'DELIVERED', user: 'ada' },
        { kind: 'approval', status: 'FINISHED', user: 'ada' },
        { kind: 'approval', status: 'DELIVERED', user: 'ada', budget: 100_000_000 },
      ],
    });
    expect(funds.status).toBe(400);
    expect(((await funds.json()) as { errors: { path: string; message: string }[] }).errors[0]!.message).toMatch(
      /^INSUFFICIENT_FUNDS/,
    );
    expect(JSON.stringify(mock.snapshot())).toBe(before);

    const ok = await post(mock, '/__mock/scenario', {
      given: [
        { kind: 'businessUser', as: 'ada', registered: true },
        { kind: 'approval', status: 'DELIVERED', user: 'ada', as: 'card' },
        { kind: 'approval', status: 'FINISHED', user: 'ada' },
      ],
    });
    expect(ok.status).toBe(201);
    const result = (await ok.json()) as {
      named: { card: { approval: { userUuid: string } }; ada: { user: { userUuid: string } } };
    };
    expect(result.named.card.approval.userUuid).toBe(result.named.ada.user.userUuid);
  });
});

describe('typed results', () => {
  it('an approval result carries its status in its type; a status that is not one does not compile', () => {
    const { mock } = setup();
    const finished = mock.given.approval({ status: 'FINISHED' });
    const status: 'FINISHED' = finished.approval.status;
    const reapproved = mock.given.approval({ status: 'REAPPROVED' });
    const successor: string = reapproved.successor.approvalUuid; // present, typed, for REAPPROVED
    const changed: string = mock.given.approval({ status: 'EXPIRED' }).changed.approvalUuid; // and the changed one
    expect([status, typeof successor, typeof changed]).toEqual(['FINISHED', 'string', 'string']);
    // @ts-expect-error: not an approval status
    expect(() => mock.given.approval({ status: 'DONE' })).toThrow(ProblemError);
    // @ts-expect-error: budget is minor units or a Money
    expect(() => mock.given.approval({ status: 'DELIVERED', budget: '100' })).toThrow(/body\.budget/);
  });
});
