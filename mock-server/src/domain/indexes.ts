/**
 * A tenant state's indexes and due-time queue, built on first use with the domain's scheduling of due rows.
 * @module
 */
import { tenantIndex, type TenantIndex, type TenantState } from '../store';
import { scheduleOnInsert } from './due';

/** The indexes (and due-time queue) of a tenant state, built on first use. */
export function indexOf(state: TenantState): TenantIndex {
  return tenantIndex(state, scheduleOnInsert);
}
