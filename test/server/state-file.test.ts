/**
 * The state file without a server: the snapshot's format checks and atomic write, the write-ahead log (each change on
 * disk when its durability resolves, one fsync for a tick's changes, a torn last line cut off, replay in order,
 * compaction), the lock, and a write that fails (a real ENOSPC from /dev/full) never acknowledged. Every test
 * awaits the thing itself: no sleeps.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  WAL_FORMAT,
  STATE_FILE_FORMAT,
  StateFileError,
  acquireLock,
  openStateFile,
  readStateFile,
  removeStaleTempFiles,
  writeStateFile,
  type StateFileHooks,
} from '../../mock-server/src/node/state-file/index.js';

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

/** A stand-in for the mock: its state is the list of commands it was given. */
function fakeMock(): StateFileHooks & { commands: unknown[] } {
  const fake = {
    commands: [] as unknown[],
    exportState: () => ({ commands: [...fake.commands] }),
    importState: (state: unknown) => {
      fake.commands = [...(state as { commands: unknown[] }).commands];
    },
    replay: (command: unknown) => void fake.commands.push(command),
  };
  return fake;
}

const walOf = (file: string, generation: number) =>
  readFileSync(`${file}.journal-${generation}`, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l));

describe('the write-ahead log', () => {
  it('has a change on disk when its durability resolves; the changes of one tick share one fsync', async () => {
    const file = join(folder(), 'state.json');
    const mock = fakeMock();
    const state = await openStateFile(file, mock);
    await state.start();
    const tickets = Array.from({ length: 100 }, (_, i) => state.record({ n: i }));
    await state.durable(tickets.at(-1)!);
    expect(walOf(file, 1)).toHaveLength(100);
    expect(state.stats).toMatchObject({ batches: 1, records: 100 });
    await expect(state.durable(tickets[0]!)).resolves.toBeUndefined();
    await state.close();
  });

  it('replays snapshot + write-ahead log in order at open; a torn last line (never acknowledged) is cut off', async () => {
    const file = join(folder(), 'state.json');
    const first = fakeMock();
    const state = await openStateFile(file, first);
    await state.start();
    for (let i = 0; i < 5; i++) await state.durable(state.record({ n: i }));
    // A kill in the middle of a write: half a line at the end, no lock release.
    appendFileSync(`${file}.journal-1`, '{"n":5,"tor');
    const second = fakeMock();
    const reopened = await openStateFile(file, second);
    expect(second.commands).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(reopened.replayed).toBe(5);
    expect(readFileSync(`${file}.journal-1`, 'utf8').endsWith('{"n":4}\n')).toBe(true);
    await reopened.start();
    await reopened.close();
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json']);
    expect((await readStateFile(file))?.state).toEqual({ commands: [0, 1, 2, 3, 4].map((n) => ({ n })) });
  });

  it('compacts into a snapshot of the next generation once the log outgrows it, and loses nothing', async () => {
    const file = join(folder(), 'state.json');
    const mock = fakeMock();
    const state = await openStateFile(file, mock, { compactAfterBytes: 200 });
    await state.start();
    for (let i = 0; i < 50; i++) {
      mock.commands.push({ n: i });
      await state.durable(state.record({ n: i }));
    }
    expect(state.stats.snapshots).toBeGreaterThan(1);
    const generations = readdirSync(join(file, '..')).filter((n) => n.includes('.journal-'));
    expect(generations).toHaveLength(1);
    const again = fakeMock();
    await openStateFile(file, again);
    expect(again.commands).toEqual(mock.commands);
  });

  it('never acknowledges a write that fails (ENOSPC); it is retried with the next change, in order', async () => {
    const file = join(folder(), 'state.json');
    const errors: unknown[] = [];
    const mock = fakeMock();
    const state = await openStateFile(file, mock, { compactAfterBytes: 1, onError: (e) => errors.push(e) });
    await state.start();
    // The next compaction opens log file 2 (F.journal-2): make that /dev/full, where every write fails with ENOSPC.
    symlinkSync('/dev/full', `${file}.journal-2`);
    const big = { n: 0, pad: 'x'.repeat(4096) };
    mock.commands.push(big);
    await state.durable(state.record(big)); // written to log file 1, which now outgrows the snapshot: compaction
    mock.commands.push({ n: 1 });
    await expect(state.durable(state.record({ n: 1 }))).rejects.toThrow(/ENOSPC|not open/);
    expect(errors.map(String).join(' ')).toMatch(/ENOSPC/);
    unlinkSync(`${file}.journal-2`);
    mock.commands.push({ n: 2 });
    await state.durable(state.record({ n: 2 }));
    const again = fakeMock();
    await openStateFile(file, again);
    expect(again.commands).toEqual([big, { n: 1 }, { n: 2 }]);
  });

  it('refuses a write-ahead log file that is not ours', async () => {
    const file = join(folder(), 'state.json');
    writeFileSync(`${file}.journal-0`, '{"format":"something-else"}\n');
    await expect(openStateFile(file, fakeMock())).rejects.toThrow(/is not a card-issuing-mock journal/);
    expect(WAL_FORMAT).toBe('card-issuing-mock/journal');
  });
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
