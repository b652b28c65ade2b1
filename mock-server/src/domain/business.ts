/**
 * Business cards: business users, approvals (every status and transition of the document's table, through the
 * lifecycle module), change requests and their acceptance, reapprovals on the same card, corporate deposit
 * addresses and top-ups. Invariant per corporate: funded = available + reserved + spent.
 * This module gathers them as the domain's `business` namespace; each job lives in its own file.
 * @module
 */
export * from './approvals';
export * from './business-users';
export * from './corporate-deposits';
export * from './reapprovals';
