/**
 * What every domain function works on: one tenant's state, the instant of its virtual clock, and the tenant's
 * deterministic generator (its state lives in the tenant state, so snapshots carry it).
 * @module
 */
import { clockNow, iso } from '../clock';
import { emitNothing, type Emit } from '../observe/events';
import { Prng, type TenantState } from '../store';
import { indexOf } from './lookups';

/** One tenant's state at one instant. */
export interface DomainContext {
  state: TenantState;
  /** Epoch milliseconds of the tenant's virtual clock. */
  now: number;
  rng: Prng;
  /** Tells the observer what changed (user registered, approval status from/to, ...); a no-op when unobserved. */
  emit: Emit;
}

/** A context for `state` at its clock's current instant, emitting its domain events through `emit`. */
export function contextOf(state: TenantState, emit: Emit = emitNothing): DomainContext {
  // Build the indexes before any domain code touches the state, so that every record stored from here is filed.
  indexOf(state);
  return { state, now: clockNow(state.clock), rng: new Prng(state.rng), emit };
}

/** The context's instant as RFC 3339 text. */
export function nowIso(ctx: DomainContext): string {
  return iso(ctx.now);
}
