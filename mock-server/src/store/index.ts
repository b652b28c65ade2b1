/**
 * The store: plain records per tenant, seeded deterministically, snapshot = JSON.
 * @module
 */
import type { TenantState } from './records';

export * from './records';
export * from './fixtures';
export { Prng, seedState, type PrngState } from './prng';
export * from './indexes';
export { DueQueue } from './due-queue';

/** A deep copy of a tenant state through JSON (what a snapshot is, so it never shares objects with the store). */
export function cloneState(state: TenantState): TenantState {
  return JSON.parse(JSON.stringify(state)) as TenantState;
}

const COLLECTIONS = [
  'users', 'balances', 'cards', 'drafts', 'depositAddresses', 'verifications', 'businessUsers', 'corporates',
  'approvals', 'corporateDepositAddresses', 'topUps', 'authorizations', 'idempotency',
] as const;

/**
 * Why `value` is not a tenant snapshot, or undefined when it looks like one. A structural check of the top
 * level (version, rng, clock, catalogue and every collection), enough to refuse a wrong file with a clear message.
 */
export function snapshotProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a snapshot is a JSON object';
  const s = value as Record<string, unknown>;
  if (s.version !== 1) return 'a snapshot has "version": 1';
  if (typeof s.apiKey !== 'string' || typeof s.seed !== 'string') return 'a snapshot has "apiKey" and "seed" strings';
  if (!Array.isArray(s.rng) || s.rng.length !== 4 || !s.rng.every((n) => Number.isInteger(n))) return 'a snapshot has "rng": four integers';
  const clock = s.clock as Record<string, unknown> | undefined;
  if (typeof clock !== 'object' || clock === null || typeof clock.offsetMs !== 'number' || !(clock.frozenAt === null || typeof clock.frozenAt === 'number')) {
    return 'a snapshot has "clock": { frozenAt, offsetMs }';
  }
  const catalogue = s.catalogue as Record<string, unknown> | undefined;
  if (typeof catalogue !== 'object' || catalogue === null || !['consents', 'cardConfigs', 'depositTypes'].every((k) => Array.isArray(catalogue[k]))) {
    return 'a snapshot has "catalogue" with consents, cardConfigs and depositTypes';
  }
  for (const key of COLLECTIONS) {
    if (typeof s[key] !== 'object' || s[key] === null || Array.isArray(s[key])) return `a snapshot has "${key}" as an object keyed by id`;
  }
  if (!Array.isArray(s.outbox)) return 'a snapshot has "outbox" as a list';
  return undefined;
}
export * from './tenants';
