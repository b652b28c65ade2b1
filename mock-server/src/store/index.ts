/**
 * The store: plain records per tenant, seeded deterministically, snapshot = JSON.
 * @module
 */
import type { TenantState } from './records';
import { snapshotErrors } from './snapshot-schema';

export { snapshotErrors } from './snapshot-schema';

export * from './records';
export * from './fixtures';
export { Prng, seedState } from './prng';
export * from './indexes';
export { DueQueue } from './due-queue';
export { migrateSnapshot } from './migrate';

/** A deep copy of a tenant state through JSON (what a snapshot is, so it never shares objects with the store). */
export function cloneState(state: TenantState): TenantState {
  return JSON.parse(JSON.stringify(state)) as TenantState;
}

/**
 * Why `value` is not a tenant snapshot, or undefined when it is one: checked whole against `zTenantState` (snapshot-schema.ts)
 * (every record, its key and its references); the first bad path and what is wrong with it.
 */
export function snapshotProblem(value: unknown): string | undefined {
  const [first, ...more] = snapshotErrors(value, 2);
  if (!first) return undefined;
  return `${first.path}: ${first.message}${more.length ? ' (and more)' : ''}`;
}

export * from './tenants';
