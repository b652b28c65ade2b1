/**
 * What every domain function works on: one tenant's state, the instant of its virtual clock, and the tenant's
 * deterministic generator (its state lives in the tenant state, so snapshots carry it).
 * @module
 */
import { clockNow, iso } from '../clock';
import { Prng, type TenantState } from '../store';
import { indexOf } from './lookups';

/** One tenant's state at one instant. */
export interface DomainContext {
  state: TenantState;
  /** Epoch milliseconds of the tenant's virtual clock. */
  now: number;
  rng: Prng;
}

/** A context for `state` at its clock's current instant. */
export function contextOf(state: TenantState): DomainContext {
  // Build the indexes before any domain code touches the state, so that every record stored from here is filed.
  indexOf(state);
  return { state, now: clockNow(state.clock), rng: new Prng(state.rng) };
}

/** The context's instant as RFC 3339 text. */
export function nowIso(ctx: DomainContext): string {
  return iso(ctx.now);
}
