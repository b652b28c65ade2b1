/**
 * What every domain function works on: one tenant's state, the instant of its virtual clock, the tenant's
 * deterministic generator (its state lives in the tenant state, so snapshots carry it), and an optional observer
 * of domain events.
 * @module
 */
import { clockNow, iso } from '../clock';
import { Prng, type TenantState } from '../store';
import type { DomainEvent, DomainObserver } from './events';
import { indexOf } from './indexes';

/** One tenant's state at one instant. */
export interface DomainContext {
  state: TenantState;
  /** Epoch milliseconds of the tenant's virtual clock. */
  now: number;
  rng: Prng;
  /** Told of approval status changes, card generation and authorizations (see `events.ts`). */
  observer?: DomainObserver | undefined;
  /**
   * Refuse the captures card networks would force on an issuer (above the tolerance or the remaining budget, after a
   * reversal or an expiry), as the mock did before: `createMock({ strictCaptures: true })`, `--strict-captures`.
   */
  strictCaptures?: boolean;
}

/** A context for `state` at its clock's current instant, optionally observed. */
export function contextOf(state: TenantState, observer?: DomainObserver): DomainContext {
  // Build the indexes before any domain code touches the state, so that every record stored from here is filed.
  indexOf(state);
  return { state, now: clockNow(state.clock), rng: new Prng(state.rng), observer };
}

/** The context's instant as RFC 3339 text. */
export function nowIso(ctx: DomainContext): string {
  return iso(ctx.now);
}

/** Tells the context's observer of an event; an observer that throws cannot break the operation. */
export function emit(ctx: DomainContext, event: DomainEvent): void {
  if (!ctx.observer) return;
  try {
    ctx.observer(event);
  } catch {
    // Observing is best effort: the state change has happened and must be answered.
  }
}
