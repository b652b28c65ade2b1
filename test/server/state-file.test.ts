/**
 * The state file: a change committed to the SQLite file before its reply, the whole state (clock, PRNG, faults) across
 * a restart, the JSON state files of earlier versions (their format checks, a conversion that keeps them beside, and
 * strict refusals that leave every file as it was), the lock. Every test awaits the thing itself: no sleeps.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { dirname } from 'node:path';
import { createMock } from '../../mock-server/src/index';
import { startMockServer } from '../../mock-server/src/node.js';
import {
  APPLICATION_ID,
  SCHEMA_VERSION,
  STATE_FILE_FORMAT,
  StateFileError,
  WAL_FORMAT,
  acquireLock,
  readStateFile,
  removeStaleTempFiles,
  writeStateFile,
} from '../../mock-server/src/node/state-file/index.js';
import { control, newUser, signedFetch } from './helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'cim-state-'));

describe('readStateFile', () => {
  it('reads back what writeStateFile wrote, and says undefined for a missing file', async () => {
    const file = join(folder(), 'state.json');
    expect(await readStateFile(file)).toBeUndefined();
    await writeStateFile(file, { tenants: { a: 1 } }, 3);
    expect(await readStateFile(file)).toEqual({ state: { tenants: { a: 1 } }, wal: 3 });
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe(STATE_FILE_FORMAT);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  const broken: [string, string | Buffer, RegExp][] = [
    ['truncated JSON', '{"format":"card-issuing-mock/state","version":1,"state":{"ten', /is not valid JSON/],
    ['an empty file', '', /is empty/],
    ['another JSON file', '{"name":"my-app","version":"1.0.0"}', /is not a card-issuing-mock state file/],
    [
      'a newer version',
      `{"format":"${STATE_FILE_FORMAT}","version":99,"state":{}}`,
      /has version 99; this mock reads version 1/,
    ],
    ['no state object', `{"format":"${STATE_FILE_FORMAT}","version":1,"state":[]}`, /has no "state" object/],
    ['binary bytes', Buffer.from([0xff, 0xfe, 0x00, 0x01]), /is not valid JSON/],
  ];
  for (const [what, content, message] of broken) {
    it(`refuses ${what}, naming the file, and leaves it untouched`, async () => {
      const file = join(folder(), 'state.json');
      writeFileSync(file, content);
      const before = readFileSync(file);
      const error = await readStateFile(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(file);
      expect(readFileSync(file)).toEqual(before);
    });
  }

  it('refuses a path it cannot read as a file', async () => {
    const dir = join(folder(), 'state.json');
    mkdirSync(dir);
    await expect(readStateFile(dir)).rejects.toThrow(/Cannot read the state file .*state\.json: EISDIR/);
  });
});

const rows = (file: string, sql: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
};

describe('the SQLite state file', () => {
  it('commits a change before its reply: every acknowledged user is a row of the file at once, in the order made', async () => {
    const file = join(folder(), 'state.db');
    const server = await startMockServer({ port: 0, stateFile: file });
    try {
      const made = await Promise.all(
        Array.from({ length: 20 }, () => signedFetch(server.url, 'POST', '/s2s/users', { body: newUser('row') })),
      );
      expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
      const ids = rows(file, "SELECT key FROM entries WHERE part = 'users' ORDER BY rowid").map((r) => r.key);
      expect(ids).toEqual(made.map((r) => r.body.id));
      expect(rows(file, 'PRAGMA journal_mode')[0]).toEqual({ journal_mode: 'wal' });
      expect(rows(file, 'PRAGMA user_version')[0]).toEqual({ user_version: SCHEMA_VERSION });
      expect(rows(file, 'PRAGMA application_id')[0]).toEqual({ application_id: APPLICATION_ID });
    } finally {
      await server.close();
    }
  });

  it('keeps the clock, the PRNG (the next id is the same) and injected faults across a restart', async () => {
    const file = join(folder(), 'state.db');
    const first = await startMockServer({ port: 0, stateFile: file });
    await control(first.url, 'POST', '/clock/advance', { seconds: 3600 });
    await control(first.url, 'POST', '/faults', { method: 'POST', path: '/s2s/users', status: 503, times: 2 });
    expect((await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('f') })).status).toBe(503);
    // The virtual clock runs with the wall clock, an hour ahead of it now.
    const ahead = async (url: string) => Date.parse((await control(url, 'GET', '/clock')).body.now) - Date.now();
    expect(await ahead(first.url)).toBeGreaterThan(3_590_000);
    await first.close();
    const copy = join(folder(), 'copy.db');
    copyFileSync(file, copy);
    const [a, b] = [
      await startMockServer({ port: 0, stateFile: file }),
      await startMockServer({ port: 0, stateFile: copy }),
    ];
    try {
      expect(await ahead(a.url)).toBeGreaterThan(3_590_000);
      expect(await ahead(a.url)).toBeLessThan(3_610_000);
      // One use of the fault was left.
      expect((await signedFetch(a.url, 'POST', '/s2s/users', { body: newUser('f') })).status).toBe(503);
      expect((await signedFetch(b.url, 'POST', '/s2s/users', { body: newUser('f') })).status).toBe(503);
      const [ua, ub] = [
        await signedFetch(a.url, 'POST', '/s2s/users', { body: newUser('g') }),
        await signedFetch(b.url, 'POST', '/s2s/users', { body: newUser('g') }),
      ];
      expect(ua.status).toBe(201);
      expect(ua.body.id).toBe(ub.body.id);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps overrides across a restart, and lists them (GET /__mock/overrides, the inspector) from the file', async () => {
    const file = join(folder(), 'state.db');
    const first = await startMockServer({ port: 0, stateFile: file });
    const set = await control(first.url, 'POST', '/overrides', { operationId: 'listCards', status: 503, times: 2 });
    expect(set.status).toBe(201);
    const listed = await control(first.url, 'GET', '/overrides');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([set.body]);
    await first.close();
    const again = await startMockServer({ port: 0, stateFile: file });
    try {
      expect((await control(again.url, 'GET', '/overrides')).body.items).toEqual([set.body]);
      const inspect = await control(again.url, 'GET', '/inspect');
      expect(inspect.status).toBe(200);
      expect(inspect.body.overrides).toEqual([set.body]);
    } finally {
      await again.close();
    }
  });
  // A tenant's row keeps its fields beside its state (faults, overrides, the last rule id); a row that lacks one of
  // them or holds something else there (an older or hand-edited file) still gives a tenant with every part.
  it('gives every tenant its faults and overrides when the stored row lacks them or holds no list', async () => {
    const file = join(folder(), 'state.db');
    const first = await startMockServer({ port: 0, stateFile: file });
    const set = await control(first.url, 'POST', '/overrides', { operationId: 'listCards', status: 503, times: 2 });
    expect(set.status).toBe(201);
    await first.close();
    const db = new DatabaseSync(file);
    const row = db.prepare('SELECT value FROM tenants').get() as { value: string };
    const { apiSecret, ruleSeq } = JSON.parse(row.value) as { apiSecret: string; ruleSeq: number };
    db.prepare('UPDATE tenants SET value = ?').run(JSON.stringify({ apiSecret, faults: null, ruleSeq }));
    db.close();
    const again = await startMockServer({ port: 0, stateFile: file });
    try {
      expect((await control(again.url, 'GET', '/overrides')).body.items).toEqual([]);
      expect((await control(again.url, 'GET', '/faults')).body.items).toEqual([]);
      const inspect = await control(again.url, 'GET', '/inspect');
      expect(inspect.status).toBe(200);
      expect([inspect.body.faults, inspect.body.overrides]).toEqual([[], []]);
      // The rule ids go on from the stored one: never given twice.
      const next = await control(again.url, 'POST', '/overrides', { operationId: 'listCards', status: 503 });
      expect(next.body.id).toBe(`override_${ruleSeq + 1}`);
    } finally {
      await again.close();
    }
  });
});

/** A JSON state file as an earlier version wrote it: a snapshot and a journal of `lines`; the snapshot's clock. */
async function legacyFiles(lines: string[]): Promise<{ file: string; clock: number }> {
  const mock = createMock({ seed: 'legacy', clock: { now: '2026-01-01T00:00:00Z' } });
  const file = join(folder(), 'state.json');
  await writeStateFile(file, mock.exportState(), 1);
  const header = JSON.stringify({ format: WAL_FORMAT, version: 1, generation: 1 });
  writeFileSync(`${file}.journal-1`, [header, ...lines, ''].join('\n'));
  return { file, clock: mock.clock.now().getTime() };
}

/** The schema of version 1 (before `entries` lost its UNIQUE index), as that version made it. */
const ENTRIES_V1 = `CREATE TABLE entries (api_key TEXT NOT NULL, part TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    UNIQUE (api_key, part, key))`;

describe('a SQLite state file of schema version 1', () => {
  it('is migrated at start in one transaction, every row kept in its order; a known key is then updated in place', async () => {
    const file = join(folder(), 'state.db');
    const first = await startMockServer({ port: 0, stateFile: file });
    const made = [];
    for (let i = 0; i < 30; i++) made.push(await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('v1') }));
    await first.close();
    // Version 1 as it was: the entries table with its UNIQUE index, the same rows under the same rowids.
    const db = new DatabaseSync(file);
    db.exec(`BEGIN; ALTER TABLE entries RENAME TO entries_v2; ${ENTRIES_V1};
      INSERT INTO entries (rowid, api_key, part, key, value) SELECT rowid, api_key, part, key, value FROM entries_v2;
      DROP TABLE entries_v2; PRAGMA user_version = 1; COMMIT;`);
    db.close();
    const all = 'SELECT rowid, api_key, part, key, value FROM entries ORDER BY rowid';
    const before = rows(file, all);
    expect(rows(file, "SELECT name FROM sqlite_schema WHERE tbl_name = 'entries' AND type = 'index'")).toEqual([
      { name: 'sqlite_autoindex_entries_1' },
    ]);

    const second = await startMockServer({ port: 0, stateFile: file });
    try {
      expect(rows(file, 'PRAGMA user_version')[0]).toEqual({ user_version: SCHEMA_VERSION });
      expect(rows(file, all)).toEqual(before);
      expect(rows(file, "SELECT name FROM sqlite_schema WHERE tbl_name = 'entries' AND type = 'index'")).toEqual([
        { name: 'entries_part' },
      ]);
      for (const user of made) {
        const got = await signedFetch(second.url, 'GET', `/s2s/users/${user.body.id}`);
        expect(got.body).toEqual(user.body);
      }
      // A change to a user made before the migration rewrites its row (same rowid), and a new user is a new row last.
      const target = made[7]!.body.id as string;
      const rowOf = () => rows(file, `SELECT rowid, value FROM entries WHERE part = 'users' AND key = '${target}'`);
      const [was] = rowOf();
      expect((await signedFetch(second.url, 'POST', `/s2s/users/${target}/email/otp`)).status).toBeLessThan(300);
      const now = rowOf();
      expect(now).toHaveLength(1);
      expect(now[0]!.rowid).toBe(was!.rowid);
      expect(now[0]!.value).not.toBe(was!.value);
      const added = await signedFetch(second.url, 'POST', '/s2s/users', { body: newUser('v2') });
      const ids = rows(file, "SELECT key FROM entries WHERE part = 'users' ORDER BY rowid").map((r) => r.key);
      expect(ids).toEqual([...made.map((r) => r.body.id), added.body.id]);
    } finally {
      await second.close();
    }
    // And once more from the migrated file: nothing lost, no key twice.
    const third = await startMockServer({ port: 0, stateFile: file });
    try {
      expect((await signedFetch(third.url, 'GET', `/s2s/users/${made[29]!.body.id}`)).status).toBe(200);
      expect(rows(file, 'SELECT part, key FROM entries GROUP BY api_key, part, key HAVING COUNT(*) > 1')).toEqual([]);
    } finally {
      await third.close();
    }
  });
});

describe('a JSON state file of an earlier version', () => {
  it('is converted once at start: its journal replayed, the old files kept beside, untouched', async () => {
    const { file, clock } = await legacyFiles([
      JSON.stringify({ kind: 'control', apiKey: 'test_key', wall: Date.now(), action: 'clock.advance', args: [7200] }),
    ]);
    const snapshot = readFileSync(file);
    const journal = readFileSync(`${file}.journal-1`);
    const server = await startMockServer({ port: 0, stateFile: file });
    try {
      expect(Date.parse((await control(server.url, 'GET', '/clock')).body.now)).toBe(clock + 7_200_000);
    } finally {
      await server.close();
    }
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(readFileSync(`${file}.json-backup`).equals(snapshot)).toBe(true);
    expect(readFileSync(`${file}.json-backup.journal-1`).equals(journal)).toBe(true);
    // Converted once: the next start reads the SQLite file.
    const again = await startMockServer({ port: 0, stateFile: file });
    try {
      expect(Date.parse((await control(again.url, 'GET', '/clock')).body.now)).toBe(clock + 7_200_000);
    } finally {
      await again.close();
    }
  });

  const refusals: [string, string[], RegExp][] = [
    [
      'a damaged line in the middle of the journal',
      ['{"kind":"control"', '{"kind":"settle","apiKey":"test_key","wall":1}'],
      /damaged line 2/,
    ],
    [
      'a line of an unknown kind',
      ['{"kind":"teleport","apiKey":"test_key","wall":1}'],
      /line 2 of state\.json\.journal-1 fails now \(Not a logged change/,
    ],
    [
      'a change that fails now',
      ['{"kind":"control","apiKey":"test_key","wall":1,"action":"authorizations.refund","args":["nope",null]}'],
      /fails now/,
    ],
  ];
  for (const [what, lines, message] of refusals) {
    it(`refuses ${what} with one line saying how to convert by hand; every file left as it was`, async () => {
      const { file } = await legacyFiles(lines);
      const names = readdirSync(dirname(file)).sort();
      const before = names.map((n) => readFileSync(join(dirname(file), n)));
      const error = await startMockServer({ port: 0, stateFile: file }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Convert it by hand|left untouched/);
      expect(readdirSync(dirname(file)).sort()).toEqual(names);
      for (const [i, n] of names.entries())
        expect(readFileSync(join(dirname(file), n)).equals(before[i]!), n).toBe(true);
    });
  }
});

describe('the lock', () => {
  it('refuses a second holder while the first lives, naming the file and its pid; takes over a dead one', async () => {
    const file = join(folder(), 'state.json');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(`${file}.lock`, `${child.pid}\n`);
      const error = await acquireLock(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toContain(`pid ${child.pid}`);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const release = await acquireLock(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    await release();
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });
});

describe('removeStaleTempFiles', () => {
  it('removes the temporary files of dead processes only', async () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    writeFileSync(join(dir, '.state.json.999999999-3.tmp'), '{"half');
    writeFileSync(join(dir, `.state.json.${process.pid}-1.tmp`), '{"busy');
    writeFileSync(join(dir, 'other.tmp'), 'x');
    expect(await removeStaleTempFiles(file)).toEqual(['.state.json.999999999-3.tmp']);
    expect(readdirSync(dir).sort()).toEqual([`.state.json.${process.pid}-1.tmp`, 'other.tmp']);
  });
});
