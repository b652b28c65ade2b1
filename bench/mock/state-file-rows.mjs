/**
 * The state file's commit thread alone (issue 29): node:sqlite, WAL, synchronous=FULL and the pragmas of
 * mock-server/src/node/state-file/database.ts, the rows a POST /s2s/users writes (the PRNG's part, a user and a
 * balance under random UUID keys), committed in batches of 1, 3 and 10 POSTs into a file that already holds 30,000
 * of each. Schemas and statements side by side, interleaved rounds, medians: CPU (of it system) and wall µs per POST.
 * `npm run bench:state-rows`; ONLY=v1,schema2 picks variants, PREFILL, COMMITS, ROUNDS and BATCHES size the run.
 */
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SCHEMA, WRITE_PRAGMAS } from '../../mock-server/src/node/state-file/database.ts';

// The pragmas and schema the mock ships (the other variants are the alternatives measured against it).
const PRAGMAS = WRITE_PRAGMAS;
const PREFILL = Number(process.env.PREFILL ?? 30000);
const COMMITS = Number(process.env.COMMITS ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BATCHES = (process.env.BATCHES ?? '1,3,10').split(',').map(Number);
const USER = JSON.stringify({
  id: 'x',
  email: 'sf.1234.5678@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
  status: 'ACTIVE',
  createdAt: '2026-11-27T15:00:00.000Z',
  updatedAt: '2026-11-27T15:00:00.000Z',
  kyc: { status: 'PENDING' },
  address: null,
  pad: 'x'.repeat(60),
}).slice(0, 294);
const BAL = JSON.stringify({
  id: 'x',
  userId: 'y',
  currency: 'EUR',
  available: '0.00',
  reserved: '0.00',
  createdAt: '2026-11-27T15:00:00.000Z',
  pad: 'x'.repeat(40),
}).slice(0, 163);

const V1 = `
  CREATE TABLE mock (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tenants (api_key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE parts (api_key TEXT NOT NULL, part TEXT NOT NULL, value TEXT, UNIQUE (api_key, part));
  CREATE TABLE entries (api_key TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (api_key, part, key));`;
const V2 = `
  CREATE TABLE mock (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tenants (api_key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE parts (api_key TEXT NOT NULL, part TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT, PRIMARY KEY (api_key, part)) WITHOUT ROWID;
  CREATE TABLE entries (api_key TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (api_key, part, key)) WITHOUT ROWID;`;

const UPSERT_V1 = {
  put: 'INSERT INTO entries (api_key, part, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (api_key, part, key) DO UPDATE SET value = excluded.value',
  part: 'INSERT INTO parts (api_key, part, value) VALUES (?, ?, ?) ON CONFLICT (api_key, part) DO UPDATE SET value = excluded.value',
  clearPart: 'DELETE FROM entries WHERE api_key = ? AND part = ?',
};
const variants = {
  // today: rowid table + UNIQUE index, upserts
  v1: { schema: V1, sql: UPSERT_V1 },
  // today's schema, the batch's entries as one multi-row INSERT … ON CONFLICT statement
  v1multi: { schema: V1, sql: UPSERT_V1, multi: true },
  // WITHOUT ROWID tables whose PRIMARY KEY is today's UNIQUE key, with a column for the insertion order
  v2: {
    schema: V2,
    seq: true,
    sql: {
      put: 'INSERT INTO entries (api_key, part, key, seq, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (api_key, part, key) DO UPDATE SET value = excluded.value',
      part: 'INSERT INTO parts (api_key, part, seq, value) VALUES (?, ?, ?, ?) ON CONFLICT (api_key, part) DO UPDATE SET value = excluded.value',
      clearPart: 'DELETE FROM entries WHERE api_key = ? AND part = ?',
    },
  },
  // lower bound: today's schema, plain INSERT (no upsert clause)
  v1insert: {
    schema: V1,
    sql: { ...UPSERT_V1, put: 'INSERT INTO entries (api_key, part, key, value) VALUES (?, ?, ?, ?)' },
  },
  // only parts WITHOUT ROWID (entries as today)
  v2parts: {
    schema: V1.replace(
      'value TEXT, UNIQUE (api_key, part));',
      'value TEXT, PRIMARY KEY (api_key, part)) WITHOUT ROWID;',
    ),
    sql: UPSERT_V1,
  },
  // PRAGMA locking_mode = EXCLUSIVE (no shared-memory index, no file locks per transaction)
  v1excl: { schema: V1, sql: UPSERT_V1, pragmas: 'PRAGMA locking_mode = EXCLUSIVE;' },
  // schema 2 (this tree, database.ts's SCHEMA): entries without the UNIQUE (api_key, part, key) index, an index on (api_key, part) (a new
  // row goes to its group's end), each key's rowid kept in a Map by the writer: an insert appends, an update goes by rowid
  schema2: {
    schema: SCHEMA,
    map: true,
    sql: {
      part: UPSERT_V1.part,
      clearPart: UPSERT_V1.clearPart,
      insert: 'INSERT INTO entries (api_key, part, key, value) VALUES (?, ?, ?, ?)',
      update: 'UPDATE entries SET value = ? WHERE rowid = ?',
    },
  },
  // memory-mapped reads, a 64 MiB page cache, 8 KiB pages
  v1mmap: { schema: V1, sql: UPSERT_V1, pragmas: 'PRAGMA mmap_size = 268435456;' },
  v1cache: { schema: V1, sql: UPSERT_V1, pragmas: 'PRAGMA cache_size = -65536;' },
  v1p8k: { schema: V1, sql: UPSERT_V1, before: 'PRAGMA page_size = 8192;' },
  // the per-commit floor: BEGIN, the PRNG's part, COMMIT, no entries, into a write-ahead log already at its working
  // size (b=n shows a commit's cost divided by n)
  floor: { schema: V1, sql: UPSERT_V1, noEntries: true, growWal: true },
};
const only = process.env.ONLY?.split(',');
const names = Object.keys(variants).filter((n) => !only || only.includes(n));

const dir = mkdtempSync(join(process.env.DIR ?? tmpdir(), 'sq29-micro-'));
function open(name) {
  const v = variants[name];
  const db = new DatabaseSync(join(dir, name));
  if (v.before) db.exec(v.before);
  db.exec(PRAGMAS + (v.pragmas ?? ''));
  db.exec(v.schema);
  const st = Object.fromEntries(Object.entries(v.sql).map(([k, s]) => [k, db.prepare(s)]));
  let seq = 0;
  const state = { keys: new Map(), name, v, db, st, seq: () => ++seq, multi: new Map() };
  // prefill in large transactions
  db.exec('BEGIN');
  for (let i = 0; i < PREFILL; i++) {
    put(state, 'users', randomUUID(), USER);
    put(state, 'balances', randomUUID(), BAL);
  }
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  if (v.growWal) {
    // the write-ahead log at its working size (32 MB), all of it checkpointed: the next commits overwrite it
    db.exec('CREATE TABLE IF NOT EXISTS pad (b BLOB)');
    db.exec('BEGIN');
    db.prepare('INSERT INTO pad VALUES (?)').run(Buffer.alloc(31 << 20));
    db.exec('DELETE FROM pad');
    db.exec('COMMIT');
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }
  return state;
}
function put(s, part, key, json) {
  if (s.v.map) {
    const group = `test_key\0${part}`;
    if (!s.keys.has(group)) s.keys.set(group, new Map());
    const keys = s.keys.get(group);
    const rowid = keys.get(key);
    if (rowid !== undefined) s.st.update.run(json, rowid);
    else keys.set(key, s.st.insert.run('test_key', part, key, json).lastInsertRowid);
    return;
  }
  if (s.v.seq) s.st.put.run('test_key', part, key, s.seq(), json);
  else s.st.put.run('test_key', part, key, json);
}
function multiPut(s, rows) {
  let stmt = s.multi.get(rows.length);
  if (!stmt) {
    stmt = s.db.prepare(
      `INSERT INTO entries (api_key, part, key, value) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT (api_key, part, key) DO UPDATE SET value = excluded.value`,
    );
    s.multi.set(rows.length, stmt);
  }
  stmt.run(...rows.flat());
}
let rngCounter = 0;
function commit(s, posts) {
  s.db.exec('BEGIN IMMEDIATE');
  if (!s.v.map || s.keys.get('test_key\0rng')?.size) s.st.clearPart.run('test_key', 'rng');
  rngCounter++;
  const rng = `[559716863,1709508558,3776967466,${rngCounter}]`;
  if (s.v.seq) s.st.part.run('test_key', 'rng', s.seq(), rng);
  else s.st.part.run('test_key', 'rng', rng);
  if (s.v.noEntries) {
  } else if (s.v.multi) {
    const rows = [];
    for (let i = 0; i < posts; i++) {
      rows.push(['test_key', 'users', randomUUID(), USER], ['test_key', 'balances', randomUUID(), BAL]);
    }
    multiPut(s, rows);
  } else {
    for (let i = 0; i < posts; i++) {
      put(s, 'users', randomUUID(), USER);
      put(s, 'balances', randomUUID(), BAL);
    }
  }
  s.db.exec('COMMIT');
}
const dbs = names.map(open);
const results = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const batch of BATCHES) {
    for (const s of round % 2 ? [...dbs].reverse() : dbs) {
      const n = Math.max(50, Math.round(COMMITS / batch));
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) commit(s, batch);
      const c = process.cpuUsage(c0);
      const t = Number(process.hrtime.bigint() - t0) / 1e3;
      results[s.name] ??= {};
      results[s.name][batch] ??= [];
      results[s.name][batch].push({
        cpuPerPost: (c.user + c.system) / (n * batch),
        sysPerPost: c.system / (n * batch),
        wallPerPost: t / (n * batch),
      });
    }
  }
}
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
console.log(
  `prefill ${PREFILL} users+balances, ~${COMMITS} POSTs per variant per batch size per round, ${ROUNDS} rounds; µs per POST (median of rounds): cpu (of it sys) / wall`,
);
for (const name of names) {
  console.log(
    name.padEnd(9),
    BATCHES.map((b) => {
      const r = results[name][b];
      return `b=${b}: ${med(r.map((x) => x.cpuPerPost)).toFixed(1)} (${med(r.map((x) => x.sysPerPost)).toFixed(1)}) / ${med(r.map((x) => x.wallPerPost)).toFixed(1)}`;
    }).join('   '),
  );
}
for (const s of dbs) s.db.close();
rmSync(dir, { recursive: true, force: true });
