/**
 * The `--state-file F`: the mock's whole state (every tenant and its credentials), durable as a database's.
 *
 * - `F` is a snapshot (snapshot.ts): the state as JSON in a small envelope that names the format and the generation
 *   of the write-ahead log that continues it, written atomically.
 * - `F.journal-<generation>` is the write-ahead log (writer.ts writes it, wal-files.ts reads it back): one JSON line
 *   per change, a request's operation and validated input or a control action, a few hundred bytes each whatever
 *   the size of the state. A change is acknowledged only once its line is fsynced.
 * - Compaction: once the log outgrows the snapshot, the state is written as a new snapshot of the next generation
 *   and the old log is deleted. Load (open.ts) = snapshot + the logs of its generation and after, in order.
 * - `F.lock` (lock.ts) holds the pid of the one server that uses `F`.
 * @module
 */
export { StateFileError, errnoText } from './errors';
export { STATE_FILE_FORMAT, readStateFile, removeStaleTempFiles, writeStateFile } from './snapshot';
export { acquireLock } from './lock';
export { WAL_FORMAT } from './wal-files';
export { openStateFile } from './open';
export { StateFile, type StateFileHooks } from './writer';
