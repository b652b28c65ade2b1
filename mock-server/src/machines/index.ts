/**
 * The state machines, as tables.
 * @module
 */
export * from './machine';
export * from './approval';
export * from './card';
export * from './draft';
export * from './verification';
export * from './business-user';
export * from './authorization';
