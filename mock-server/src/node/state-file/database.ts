/**
 * The state file's SQLite database (node:sqlite): its schema and version, the checks before anything is trusted,
 * and reading a whole mock state out of it. Rows, per tenant: `tenants` (credentials and the tenant's other fields,
 * e.g. faults, as JSON), `parts` (each top-level field of the tenant's state: its JSON, or NULL for a collection)
 * and `entries` (one row per key of a collection). Row order (rowid) is insertion order, which the mock's lists rely
 * on. `mock` holds what belongs to no tenant (the default api key). An entry's key is unique per tenant and part;
 * since schema 2 the commit thread keeps that (it knows each key's rowid), not a UNIQUE index (see {@link SCHEMA}).
 * @module
 */
import { createRequire } from 'node:module';
import { existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import type { StoredState } from '../../store';
import { refused, StateFileError, LEAVE_IT } from './errors';

/** "CIM1": marks a SQLite file as this mock's state file (PRAGMA application_id). */
export const APPLICATION_ID = 0x43494d31;

/** The schema this code writes. Older files are migrated at start ({@link MIGRATIONS}); newer ones refused. */
export const SCHEMA_VERSION = 2;

/**
 * The schema of version {@link SCHEMA_VERSION}, made in one transaction with the file. `entries` has no index on its
 * keys (version 1 had UNIQUE (api_key, part, key)): keys are random UUIDs, so that index put every new row on another
 * of its pages, and each page a commit touches is written whole to the write-ahead log. Its index on (api_key, part)
 * takes a new row at the end of its part's run (rowids grow), on a page the commit writes anyway. The commit thread
 * finds a key's row by the rowid it keeps (commit-thread.ts): the commit thread's CPU per POST /s2s/users about a
 * third lower in a node:sqlite microbenchmark (docs/benchmarks.md).
 */
export const SCHEMA = `
  CREATE TABLE mock (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tenants (api_key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE parts (api_key TEXT NOT NULL, part TEXT NOT NULL, value TEXT, UNIQUE (api_key, part));
  CREATE TABLE entries (api_key TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
  CREATE INDEX entries_part ON entries (api_key, part);
`;

/**
 * Schema migrations: `MIGRATIONS[n]` brings a file of version n to n + 1 (SQL run in one transaction with the new
 * user_version). A tenant state of an older version inside the rows is migrated when it is loaded
 * (store/migrate.ts), as a snapshot is.
 */
export const MIGRATIONS: Record<number, string> = {
  // 1 → 2: `entries` without its UNIQUE index (a constraint SQLite drops only with its table), rowids (the order) kept.
  1: `
    CREATE TABLE entries_v2 (api_key TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
    INSERT INTO entries_v2 (rowid, api_key, part, key, value) SELECT rowid, api_key, part, key, value FROM entries;
    DROP TABLE entries;
    ALTER TABLE entries_v2 RENAME TO entries;
    CREATE INDEX entries_part ON entries (api_key, part);
  `,
};

/**
 * The pragmas of every connection that writes: WAL, and a commit is on disk when it returns. The write-ahead log is
 * folded into the file every 8,000 pages (about 32 MB; SQLite's default is 1,000): a page written by many commits
 * (the tail of a table, an index page) is copied into the file once per checkpoint, and a checkpoint's fsyncs come an
 * eighth as often (the commit thread's CPU per POST /s2s/users 43 against 48 µs, side by side). The log is read at
 * start after a kill, and removed when the server closes.
 */
export const WRITE_PRAGMAS =
  'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF; PRAGMA wal_autocheckpoint = 8000;';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

type Sqlite = typeof import('node:sqlite');
let sqlite: Sqlite | undefined;

/**
 * node:sqlite, loaded on first use (it exists from Node 22.5; unflagged from 22.13). Loaded with require so that a
 * mock without a state file never touches it; Node 22's one-line ExperimentalWarning is silenced by the CLI.
 */
export function sqliteModule(file: string): Sqlite {
  if (sqlite) return sqlite;
  try {
    sqlite = createRequire(import.meta.url)('node:sqlite') as Sqlite;
    return sqlite;
  } catch {
    throw new StateFileError(
      file,
      `The state file ${file} needs node:sqlite, which this Node.js (${process.version}) does not have: run the mock on Node 22.13 or newer.`,
    );
  }
}

/** What kind of file `file` is, from its first bytes (nothing is opened with SQLite yet). */
export type FileKind = 'missing' | 'empty' | 'sqlite' | 'json' | 'other';

/** Reads the start of `file` and says what it is. */
export function fileKind(file: string): { kind: FileKind; header: Buffer } {
  if (!existsSync(file)) return { kind: 'missing', header: Buffer.alloc(0) };
  if (statSync(file).isDirectory()) throw refused(file, 'is a folder, not a file');
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let length: number;
  try {
    length = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const head = header.subarray(0, length);
  if (length === 0) return { kind: 'empty', header: head };
  if (length >= 16 && head.subarray(0, 16).equals(SQLITE_MAGIC)) return { kind: 'sqlite', header: head };
  const text = head.toString('utf8').trimStart();
  if (text.startsWith('{')) return { kind: 'json', header: head };
  return { kind: 'other', header: head };
}

/**
 * Checks a SQLite file before it is used: this mock's (application_id), a schema this code reads (user_version), and
 * `PRAGMA integrity_check` clean. Opened read-only, and immutable when no write-ahead log lies beside it, so that a
 * file refused here is left exactly as it was. Returns the file's schema version.
 */
export function checkDatabase(file: string, header: Buffer): number {
  if (header.length < 100) throw refused(file, 'is a truncated SQLite file (shorter than its 100-byte header)');
  const applicationId = header.readUInt32BE(68);
  const version = header.readUInt32BE(60);
  if (applicationId !== APPLICATION_ID) {
    throw refused(
      file,
      `is a SQLite database of another application (application_id 0x${applicationId.toString(16).padStart(8, '0')}), not a card-issuing-mock state file`,
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new StateFileError(
      file,
      `The state file ${file} was written by a newer card-issuing-mock (state file schema ${version}; this one reads up to ${SCHEMA_VERSION}). Run that newer version (npm install card-issuing-mock@latest), or pass another --state-file. The file was left untouched.`,
    );
  }
  const db = openReadOnly(file);
  try {
    const problems = db
      .prepare('PRAGMA integrity_check(5)')
      .all()
      .map((row) => String(Object.values(row)[0]));
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw refused(file, `fails PRAGMA integrity_check (${problems.join('; ')})`);
    }
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw refused(file, `is a damaged SQLite database (${sqliteMessage(error)})`);
  } finally {
    db.close();
  }
  return version;
}

/** Opens `file` read-only; immutable (no -wal or -shm made) unless a killed server's write-ahead log is there to read. */
export function openReadOnly(file: string): DatabaseSync {
  const { DatabaseSync } = sqliteModule(file);
  const url = pathToFileURL(file);
  if (!existsSync(`${file}-wal`)) url.searchParams.set('immutable', '1');
  try {
    return new DatabaseSync(url, { readOnly: true });
  } catch (error) {
    throw refused(file, `cannot be opened as a SQLite database (${sqliteMessage(error)})`);
  }
}

/** Reads the whole state out of a checked file (undefined when it holds no tenant yet). */
export function readDatabase(file: string): StoredState | undefined {
  const db = openReadOnly(file);
  try {
    const meta = new Map(
      db
        .prepare('SELECT key, value FROM mock')
        .all()
        .map((r) => [String(r.key), String(r.value)]),
    );
    const tenants = readTenants(db);
    if (tenants.size === 0) return undefined;
    readParts(db, tenants);
    const list = [...tenants.values()];
    return { defaultApiKey: meta.get('defaultApiKey') ?? list[0]!.apiKey, tenants: list };
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw refused(file, `holds rows this mock cannot read (${sqliteMessage(error)})`);
  } finally {
    db.close();
  }
}

/**
 * How many times a server has started on a checked file: the `starts` it keeps (a file of an earlier version keeps
 * none, but its `openedAt` says it was started, with the first start's request ids).
 */
export function readStarts(file: string): number {
  const db = openReadOnly(file);
  try {
    const meta = new Map(
      db
        .prepare("SELECT key, value FROM mock WHERE key IN ('starts', 'openedAt')")
        .all()
        .map((r) => [String(r.key), String(r.value)]),
    );
    const starts = Number(meta.get('starts'));
    return Number.isSafeInteger(starts) && starts > 0 ? starts : meta.has('openedAt') ? 1 : 0;
  } catch (error) {
    throw refused(file, `holds rows this mock cannot read (${sqliteMessage(error)})`);
  } finally {
    db.close();
  }
}

type StoredTenant = StoredState['tenants'][number];

/** The tenants' rows, by api key, each with its fields and an empty state. */
function readTenants(db: DatabaseSync): Map<string, StoredTenant> {
  const tenants = new Map<string, StoredTenant>();
  for (const row of db.prepare('SELECT api_key, value FROM tenants ORDER BY rowid').all()) {
    const { apiSecret, ...fields } = JSON.parse(String(row.value)) as { apiSecret: string } & Record<string, unknown>;
    tenants.set(String(row.api_key), { apiKey: String(row.api_key), apiSecret, fields, state: {} });
  }
  return tenants;
}

/** Each tenant's state: its parts (a collection's row is NULL), then the collections' entries. */
function readParts(db: DatabaseSync, tenants: Map<string, StoredTenant>): void {
  for (const row of db.prepare('SELECT api_key, part, value FROM parts ORDER BY rowid').all()) {
    const tenant = tenants.get(String(row.api_key));
    if (tenant) tenant.state[String(row.part)] = row.value === null ? {} : JSON.parse(String(row.value));
  }
  for (const row of db.prepare('SELECT api_key, part, key, value FROM entries ORDER BY rowid').all()) {
    const collection = tenants.get(String(row.api_key))?.state[String(row.part)];
    if (typeof collection === 'object' && collection !== null) {
      (collection as Record<string, unknown>)[String(row.key)] = JSON.parse(String(row.value));
    }
  }
}

/**
 * Makes `file` a new, empty state file (schema and version in one transaction), or migrates an older schema. Only
 * ever called on a missing file or one {@link checkDatabase} accepted.
 */
export function prepareDatabase(file: string, version: number | undefined): void {
  const { DatabaseSync } = sqliteModule(file);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
  } catch (error) {
    throw new StateFileError(file, `Cannot create the state file ${file}: ${sqliteMessage(error)}.`);
  }
  try {
    db.exec(WRITE_PRAGMAS);
    db.exec('BEGIN IMMEDIATE');
    try {
      if (version === undefined) {
        db.exec(SCHEMA);
        db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`);
      } else {
        for (let from = version; from < SCHEMA_VERSION; from++) {
          db.exec(MIGRATIONS[from]!);
          db.exec(`PRAGMA user_version = ${from + 1}`);
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  } catch (error) {
    throw new StateFileError(
      file,
      `Cannot write the state file ${file}: ${sqliteMessage(error)}. ${version === undefined ? 'Nothing was saved.' : LEAVE_IT}`,
    );
  } finally {
    db.close();
  }
}

/** A SQLite error's message with its code (`SQLITE_FULL`, ...). */
export function sqliteMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { message, errstr } = error as { message?: string; errstr?: string };
    return [message, errstr && errstr !== message ? errstr : undefined].filter(Boolean).join(': ');
  }
  return String(error);
}

/**
 * Writes a whole state into a new file `file` (made with the schema first), in one transaction, on this thread: a
 * conversion at start, before the server listens. The file is closed (its write-ahead log checkpointed) on return.
 */
export function writeNewDatabase(file: string, stored: StoredState): void {
  prepareDatabase(file, undefined);
  const { DatabaseSync } = sqliteModule(file);
  const db = new DatabaseSync(file);
  try {
    db.exec(WRITE_PRAGMAS);
    db.exec('BEGIN IMMEDIATE');
    const tenant = db.prepare('INSERT INTO tenants (api_key, value) VALUES (?, ?)');
    const part = db.prepare('INSERT INTO parts (api_key, part, value) VALUES (?, ?, ?)');
    const entry = db.prepare('INSERT INTO entries (api_key, part, key, value) VALUES (?, ?, ?, ?)');
    db.prepare('INSERT INTO mock (key, value) VALUES (?, ?)').run('defaultApiKey', stored.defaultApiKey);
    for (const t of stored.tenants) {
      tenant.run(t.apiKey, JSON.stringify({ apiSecret: t.apiSecret, ...t.fields }));
      for (const [name, value] of Object.entries(t.state)) {
        const collection = typeof value === 'object' && value !== null && !Array.isArray(value);
        part.run(t.apiKey, name, collection ? null : JSON.stringify(value));
        if (!collection) continue;
        for (const [key, x] of Object.entries(value as Record<string, unknown>)) {
          entry.run(t.apiKey, name, key, JSON.stringify(x));
        }
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    throw new StateFileError(file, `Cannot write the state file ${file}: ${sqliteMessage(error)}.`);
  } finally {
    db.close();
  }
}
