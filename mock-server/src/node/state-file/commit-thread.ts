/**
 * The thread that commits to the state file: node:sqlite is synchronous, and a commit with `synchronous=FULL` waits
 * for the disk, so commits run in a worker thread and the event loop (every tenant's reads) never waits on disk. The
 * main thread sends batches of row operations; the worker applies each batch in one transaction and answers once it
 * is committed (or why it is not: the transaction rolled back, nothing of it is in the file).
 * @module
 */
import { Worker } from 'node:worker_threads';
import { WRITE_PRAGMAS } from './database';

/** One change of rows (see database.ts for the tables). */
export type RowOp =
  | ['put', apiKey: string, part: string, key: string, json: string]
  | ['delete', apiKey: string, part: string, key: string]
  | ['part', apiKey: string, part: string, json: string | null]
  | ['clearPart', apiKey: string, part: string]
  | ['dropPart', apiKey: string, part: string]
  | ['tenant', apiKey: string, json: string]
  | ['dropTenant', apiKey: string]
  | ['clearTenant', apiKey: string]
  | ['meta', key: string, value: string]
  | ['clear'];

/**
 * The worker's code, CommonJS, self-contained (it runs from this string, so the bundled package needs no extra file).
 * Statements are prepared once; each batch is BEGIN IMMEDIATE … COMMIT, rolled back whole on any error.
 *
 * `entries` has no index on its keys (schema 2, database.ts): the worker keeps each entry's rowid by tenant, part and
 * key, read from the file when it opens it, and is the file's only writer while the server runs (lock.ts). A new key
 * is an INSERT (at the end, so rowid order stays insertion order), a known one an UPDATE or DELETE by rowid. After a
 * rollback the map is read again from the file, which the rollback left as it was.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
process.removeAllListeners('warning');
const { DatabaseSync } = require('node:sqlite');
let db;
const sql = {
  insert: 'INSERT INTO entries (api_key, part, key, value) VALUES (?, ?, ?, ?)',
  update: 'UPDATE entries SET value = ? WHERE rowid = ?',
  deleteRow: 'DELETE FROM entries WHERE rowid = ?',
  part: 'INSERT INTO parts (api_key, part, value) VALUES (?, ?, ?) ON CONFLICT (api_key, part) DO UPDATE SET value = excluded.value',
  dropPartEntries: 'DELETE FROM entries WHERE api_key = ? AND part = ?',
  dropPart: 'DELETE FROM parts WHERE api_key = ? AND part = ?',
  tenant: 'INSERT INTO tenants (api_key, value) VALUES (?, ?) ON CONFLICT (api_key) DO UPDATE SET value = excluded.value',
  clearEntries: 'DELETE FROM entries WHERE api_key = ?',
  clearParts: 'DELETE FROM parts WHERE api_key = ?',
  dropTenant: 'DELETE FROM tenants WHERE api_key = ?',
  meta: 'INSERT INTO mock (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
};
let st;
// api key -> part -> key -> rowid of every entry row; undefined until read from the file.
let rowids;
function keysOf(apiKey, part) {
  let parts = rowids.get(apiKey);
  if (!parts) rowids.set(apiKey, (parts = new Map()));
  let keys = parts.get(part);
  if (!keys) parts.set(part, (keys = new Map()));
  return keys;
}
function readRowids() {
  rowids = new Map();
  for (const r of db.prepare('SELECT rowid, api_key, part, key FROM entries').iterate()) keysOf(r.api_key, r.part).set(r.key, r.rowid);
}
function put(apiKey, part, key, json) {
  const keys = keysOf(apiKey, part);
  const rowid = keys.get(key);
  if (rowid === undefined) keys.set(key, st.insert.run(apiKey, part, key, json).lastInsertRowid);
  else st.update.run(json, rowid);
}
function remove(apiKey, part, key) {
  const keys = rowids.get(apiKey)?.get(part);
  const rowid = keys?.get(key);
  if (rowid === undefined) return;
  st.deleteRow.run(rowid);
  keys.delete(key);
}
function dropEntries(apiKey, part) {
  const parts = rowids.get(apiKey);
  // A part that holds no entries (a plain value such as the PRNG's, rewritten by most commits) costs no statement.
  if (!parts?.get(part)?.size) return;
  st.dropPartEntries.run(apiKey, part);
  parts.delete(part);
}
function clearTenant(apiKey) {
  st.clearEntries.run(apiKey);
  st.clearParts.run(apiKey);
  rowids.delete(apiKey);
}
function apply(op) {
  switch (op[0]) {
    case 'put': put(op[1], op[2], op[3], op[4]); break;
    case 'delete': remove(op[1], op[2], op[3]); break;
    case 'part': st.part.run(op[1], op[2], op[3]); break;
    case 'clearPart': dropEntries(op[1], op[2]); break;
    case 'dropPart': dropEntries(op[1], op[2]); st.dropPart.run(op[1], op[2]); break;
    case 'tenant': st.tenant.run(op[1], op[2]); break;
    case 'clearTenant': clearTenant(op[1]); break;
    case 'dropTenant': clearTenant(op[1]); st.dropTenant.run(op[1]); break;
    case 'meta': st.meta.run(op[1], op[2]); break;
    case 'clear': db.exec('DELETE FROM entries; DELETE FROM parts; DELETE FROM tenants; DELETE FROM mock'); rowids = new Map(); break;
    default: throw new Error('unknown row operation ' + op[0]);
  }
}
function fail(id, error) {
  parentPort.postMessage({ id, ok: false, message: String(error && error.message || error), code: error && (error.errcode ?? error.code) });
}
parentPort.on('message', (m) => {
  if (m.kind === 'close') {
    try { db && db.close(); } catch (error) { return fail(m.id, error); }
    db = undefined;
    rowids = undefined;
    return parentPort.postMessage({ id: m.id, ok: true });
  }
  try {
    if (!db) {
      db = new DatabaseSync(workerData.file);
      db.exec(workerData.pragmas);
      st = Object.fromEntries(Object.entries(sql).map(([k, s]) => [k, db.prepare(s)]));
    }
    db.exec('BEGIN IMMEDIATE');
    try {
      if (!rowids) readRowids();
      for (const op of m.ops) apply(op);
      db.exec('COMMIT');
    } catch (error) {
      rowids = undefined;
      try { db.exec('ROLLBACK'); } catch {}
      throw error;
    }
    parentPort.postMessage({ id: m.id, ok: true });
  } catch (error) {
    fail(m.id, error);
  }
});
`;

/** Why a batch was not committed (the message of SQLite's error, e.g. `database or disk is full`). */
export class CommitError extends Error {
  override readonly name = 'CommitError';
  constructor(
    message: string,
    readonly code: unknown,
  ) {
    super(message);
  }
}

/** The committing thread of one state file: `commit(ops)` resolves once the batch is on disk. */
export class CommitThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
  #next = 0;

  constructor(file: string) {
    this.#worker = new Worker(WORKER, { eval: true, workerData: { file, pragmas: WRITE_PRAGMAS } });
    // Not a reason to keep the process alive: the server (or close()) decides when it ends.
    this.#worker.unref();
    this.#worker.on('message', (m: { id: number; ok: boolean; message?: string; code?: unknown }) => {
      const waiter = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if (m.ok) waiter?.resolve();
      else waiter?.reject(new CommitError(m.message ?? 'the commit failed', m.code));
    });
    this.#worker.on('error', (error) => this.#failAll(error));
    this.#worker.on('exit', () => this.#failAll(new Error('the state file thread stopped')));
  }

  /** Applies `ops` in one transaction; resolves once committed (fsynced), rejects when rolled back. */
  commit(ops: RowOp[]): Promise<void> {
    return this.#send({ kind: 'commit', ops });
  }

  /** Closes the database (checkpointing its write-ahead log into the file) and ends the thread. */
  async close(): Promise<void> {
    try {
      await this.#send({ kind: 'close' });
    } finally {
      await this.#worker.terminate();
    }
  }

  #send(message: object): Promise<void> {
    const id = ++this.#next;
    return new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { resolve: () => resolve(), reject });
      this.#worker.ref();
      this.#worker.postMessage({ id, ...message });
    }).finally(() => {
      if (this.#waiting.size === 0) this.#worker.unref();
    });
  }

  #failAll(error: unknown): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}
