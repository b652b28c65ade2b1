/**
 * The control API: programmatic (per tenant) and over HTTP under `/__mock/`.
 * @module
 */
export * from './tenant-control';
export * from './routes';
export * from './wal-recorded';
export * from './schemas';
export * from './authorization-routes';
export type { AuthorizationControl } from './authorization-control';
export * from './given';
