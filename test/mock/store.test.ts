/**
 * The store's bounded, indexed structures: the due-time queue, the indexes kept up to date by the collections
 * themselves (also across snapshot and restore), and the caps of idempotency records, outboxes and nonces.
 */
import { describe, expect, it } from 'vitest';
import { createUser, requestEmailOtp } from '../../sdk/generated/sdk.gen';
import { createMock } from '../../mock-server/src/index';
import { DueQueue } from '../../mock-server/src/store';
import { indexOf } from '../../mock-server/src/domain/lookups';
import { contextOf } from '../../mock-server/src/domain/context';
import { users } from '../../mock-server/src/domain';
import {
  IDEMPOTENCY_TTL_MS,
  MAX_IDEMPOTENCY_RECORDS,
  remember,
  replay,
} from '../../mock-server/src/pipeline/idempotency';
import { createNonceCache } from '../../mock-server/src/pipeline/nonces';
import { MAX_OUTBOX_PER_USER } from '../../mock-server/src/store';
import { registration } from './flows';
import { T0, expectError, mockHarness, ok } from './helpers';

describe('DueQueue', () => {
  it('pops what is due, earliest first (then in scheduling order), and nothing before its time', () => {
    const q = new DueQueue<string>();
    q.schedule('c', 30);
    q.schedule('a', 10);
    q.schedule('b', 10);
    q.schedule('now', Number.NEGATIVE_INFINITY);
    expect(q.popDue(5)).toEqual(['now']);
    expect(q.popDue(9)).toEqual([]);
    expect(q.nextDueAt()).toBe(10);
    expect(q.popDue(30)).toEqual(['a', 'b', 'c']);
    expect(q.size).toBe(0);
  });

  it('a new schedule of a key replaces the old one; cancel removes it', () => {
    const q = new DueQueue<string>();
    for (let i = 0; i < 1000; i++) q.schedule(`k${i % 10}`, i);
    expect(q.size).toBe(10);
    q.cancel('k9');
    expect(q.popDue(Infinity)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8']);
  });
});

describe('indexes', () => {
  it('e-mail uniqueness holds through the index, in any case, and again after a restore', () => {
    const mock = createMock({ clock: { now: T0 } });
    const state = mock.snapshot();
    const ctx = contextOf(mock.tenant('test_key').snapshot());
    users.createUser(ctx, registration({ email: 'Ada@Example.org' }));
    expect(() => users.createUser(ctx, registration({ email: 'ada@example.ORG' }))).toThrow(/already registered/);
    mock.restore(ctx.state);
    const again = contextOf(mock.snapshot());
    expect(() => users.createUser(again, registration({ email: 'ADA@example.org' }))).toThrow(/already registered/);
    expect(indexOf(again.state).userByEmail.size).toBe(1);
    expect(indexOf(contextOf(state).state).userByEmail.size).toBe(0);
  });

  it('a settle with nothing due looks at nothing: the queue holds only records with a due instant', () => {
    const ctx = contextOf(createMock({ clock: { now: T0 } }).snapshot());
    for (let i = 0; i < 200; i++) users.createUser(ctx, registration({ email: `u${i}@example.org` }));
    expect(indexOf(ctx.state).due.size).toBe(0);
    expect(indexOf(ctx.state).due.popDue(ctx.now)).toEqual([]);
  });
});

describe('caps', () => {
  it('keeps at most MAX_IDEMPOTENCY_RECORDS records per tenant, forgetting the oldest', () => {
    const state = createMock({ clock: { now: T0 } }).snapshot();
    const reply = { status: 201, headers: {}, body: '{}' };
    for (let i = 0; i <= MAX_IDEMPOTENCY_RECORDS; i++) remember(state, `key-${i}`, 'p', reply, 0);
    expect(Object.keys(state.idempotency)).toHaveLength(MAX_IDEMPOTENCY_RECORDS);
    expect(replay(state, 'key-0', 'p', 0)).toBeUndefined();
    expect(replay(state, `key-${MAX_IDEMPOTENCY_RECORDS}`, 'p', 0)?.headers['idempotent-replayed']).toBe('true');
  });

  it('counts a key stored again after it expired once, and still forgets the oldest at the cap', () => {
    const state = createMock({ clock: { now: T0 } }).snapshot();
    const reply = { status: 201, headers: {}, body: '{}' };
    remember(state, 'again', 'p', reply, 0);
    remember(state, 'again', 'p', reply, IDEMPOTENCY_TTL_MS + 1); // expired, then the same key for a new request
    expect(replay(state, 'again', 'p', IDEMPOTENCY_TTL_MS + 1)?.headers['idempotent-replayed']).toBe('true');
    for (let i = 0; i < MAX_IDEMPOTENCY_RECORDS; i++) remember(state, `key-${i}`, 'p', reply, IDEMPOTENCY_TTL_MS + 2);
    expect(Object.keys(state.idempotency)).toHaveLength(MAX_IDEMPOTENCY_RECORDS);
    expect(state.idempotency.again).toBeUndefined(); // the oldest, forgotten by the cap
  });

  it('keeps the nonces of the window up to a count, the oldest forgotten first', () => {
    const cache = createNonceCache(3);
    for (const n of ['a', 'b', 'c', 'd']) expect(cache.checkAndRecord('k', n, 100, 500)).toBe(false);
    expect(cache.size).toBe(3);
    expect(cache.checkAndRecord('k', 'd', 100, 500)).toBe(true);
    expect(cache.checkAndRecord('k', 'a', 100, 500)).toBe(false); // forgotten by the cap
    expect(cache.checkAndRecord('k', 'x', 600, 900)).toBe(false); // everything before 600 expired
    expect(cache.size).toBe(1);
  });

  const h = mockHarness();
  it(`keeps the newest ${MAX_OUTBOX_PER_USER} messages of a user`, async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    for (let i = 0; i < MAX_OUTBOX_PER_USER + 5; i++)
      ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    const box = h.mock.outbox(user.id);
    expect(box).toHaveLength(MAX_OUTBOX_PER_USER);
    expect(h.mock.outbox()).toHaveLength(MAX_OUTBOX_PER_USER);
    expect(box.at(-1)!.code).toBeDefined();
    expectError(
      await requestEmailOtp({ client: h.client, path: { userId: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01' } }),
      404,
      'NOT_FOUND',
    );
  });
});
