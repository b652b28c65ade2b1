/**
 * What the mock saw: the request journal and the domain events, per tenant, bounded.
 * @module
 */
export * from './events';
export * from './journal';
export * from './observer';
export * from './capture';
export * from './sse';
export * from './runtime';
export * from './usage';
