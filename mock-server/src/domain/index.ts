/**
 * The behaviour: functions over one tenant's state that throw {@link ProblemError}.
 * @module
 */
export * from './errors';
export * from './context';
export * from './money';
export * as users from './users';
export * as cards from './cards';
export * as deposits from './deposits';
export * as business from './business';
export * as authorizations from './authorizations';
export * as lifecycle from './lifecycle';
export * from './pagination';
export * from './events';
export { settle } from './settle';
export type { IncomingDeposit, IncomingDepositResult } from './deposits';
