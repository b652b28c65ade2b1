/**
 * Idempotency-Key replay, per tenant: the first response to a key is kept and replayed with
 * `Idempotent-Replayed: true` for a repeat with the same method, path and body; a repeat with anything else is 422
 * IDEMPOTENCY_KEY_REUSED. Bounded: a record is kept 24 hours (on the virtual clock, and at most 24 hours of wall
 * clock, which bounds memory while a frozen virtual clock stands still), and at most {@link MAX_IDEMPOTENCY_RECORDS}
 * per tenant, the oldest forgotten first. Records are pruned from the head of a queue in arrival order, so a
 * request never walks them all.
 * @module
 */
import { wallNow } from '../clock';
import { indexOf } from '../domain/lookups';
import { ProblemError } from '../domain/errors';
import type { TenantState } from '../store';
import type { Reply } from './reply';
import { hash53 } from '../hash';

/** How long a key is kept (virtual clock, and wall clock). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Most records kept per tenant. */
export const MAX_IDEMPOTENCY_RECORDS = 10_000;

/** What identifies "the same request": method, path with query, and a hash of the raw body. */
export function fingerprint(method: string, pathAndQuery: string, body: string): string {
  return `${method.toUpperCase()} ${pathAndQuery} ${hash53(body)}`;
}

/** Forgets records from the oldest while they are expired or more than `max` are kept. */
function prune(state: TenantState, now: number, max: number): void {
  const index = indexOf(state);
  const wall = wallNow();
  for (let oldest = index.idempotencyOrder.peek(); oldest; oldest = index.idempotencyOrder.peek()) {
    const record = Object.hasOwn(state.idempotency, oldest.key) ? state.idempotency[oldest.key] : undefined;
    if (record !== undefined && record === oldest.record) {
      const fresh =
        now - record.storedAt <= IDEMPOTENCY_TTL_MS && wall - (record.storedAtWall ?? wall) <= IDEMPOTENCY_TTL_MS;
      if (fresh && index.idempotencyCount <= max) break;
      delete state.idempotency[oldest.key];
      index.idempotencyCount--;
    }
    index.idempotencyOrder.shift();
  }
}

/** The replayed response for a repeated key, or undefined for a new key; throws for a key reused on another request. */
export function replay(state: TenantState, key: string, print: string, now: number): Reply | undefined {
  prune(state, now, MAX_IDEMPOTENCY_RECORDS);
  const record = Object.hasOwn(state.idempotency, key) ? state.idempotency[key] : undefined;
  if (!record || now - record.storedAt > IDEMPOTENCY_TTL_MS) return undefined;
  if (record.fingerprint !== print) {
    throw new ProblemError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request; use a fresh key for a new request.',
    );
  }
  return { status: record.status, headers: { ...record.headers, 'idempotent-replayed': 'true' }, body: record.body };
}

/** Keeps the first response of a key (synchronously, in the same turn as the domain call it records). */
export function remember(state: TenantState, key: string, print: string, response: Reply, now: number): void {
  const index = indexOf(state);
  if (!Object.hasOwn(state.idempotency, key)) index.idempotencyCount++;
  const record = {
    fingerprint: print,
    status: response.status,
    headers: { ...response.headers },
    body: response.body,
    storedAt: now,
    storedAtWall: wallNow(),
  };
  state.idempotency[key] = record;
  index.idempotencyOrder.push({ key, record });
  prune(state, now, MAX_IDEMPOTENCY_RECORDS);
}
