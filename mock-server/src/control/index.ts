/**
 * The control API: programmatic (per tenant) and over HTTP under `/__mock/`.
 * @module
 */
export * from './tenant-control';
export * from './routes';
export * from './journaled';
export * from './schemas';
export * from './authorization-routes';
