/**
 * The `--state-file F`: the mock's whole state (every tenant, its records, clock, PRNG, faults and credentials) in a
 * SQLite database (node:sqlite, WAL, synchronous=FULL), durable as a database is:
 *
 * - database.ts: the schema and its version, the checks before a file is trusted, reading a state out of it.
 * - track.ts: which rows a change touched (the tenants' states are watched through proxies).
 * - store.ts: group commit of the touched rows before a change is acknowledged; commit-thread.ts runs the commits
 *   off the event loop.
 * - open.ts: lock, checks, load or conversion; convert.ts: the JSON state files of earlier versions, converted once
 *   (snapshot.ts and wal-files.ts read them).
 * - `F.lock` (lock.ts) holds the pid of the one server that uses `F`.
 * @module
 */
export { StateFileError, errnoText } from './errors';
export { STATE_FILE_FORMAT, readStateFile, removeStaleTempFiles, writeStateFile } from './snapshot';
export { acquireLock } from './lock';
export { WAL_FORMAT } from './wal-files';
export { openStateFile } from './open';
export { StateFile } from './store';
export { SCHEMA_VERSION, APPLICATION_ID } from './database';
