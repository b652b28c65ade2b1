/** The state file's format checks, atomic write and saver, without a server (the server tests cover the rest). */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  StateFileError,
  StateFileSaver,
  STATE_FILE_FORMAT,
  readStateFile,
  removeStaleTempFiles,
  writeStateFile,
} from '../../mock-server/src/node/state-file.js';

const folder = () => mkdtempSync(join(tmpdir(), 'cim-state-'));

describe('readStateFile', () => {
  it('reads back what writeStateFile wrote, and says undefined for a missing file', async () => {
    const file = join(folder(), 'state.json');
    expect(await readStateFile(file)).toBeUndefined();
    await writeStateFile(file, { tenants: { a: 1 } });
    expect(await readStateFile(file)).toEqual({ state: { tenants: { a: 1 } } });
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe(STATE_FILE_FORMAT);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  const broken: [string, string | Buffer, RegExp][] = [
    ['truncated JSON', '{"format":"card-issuing-mock/state","version":1,"state":{"ten', /is not valid JSON/],
    ['an empty file', '', /is empty/],
    ['another JSON file', '{"name":"my-app","version":"1.0.0"}', /is not a card-issuing-mock state file/],
    ['a newer version', `{"format":"${STATE_FILE_FORMAT}","version":99,"state":{}}`, /has version 99; this mock reads version 1/],
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

describe('StateFileSaver', () => {
  it('gathers a burst of changes into few writes of the latest state, and flush writes at once', async () => {
    const file = join(folder(), 'state.json');
    let counter = 0;
    let reads = 0;
    const saver = new StateFileSaver(file, { getState: () => (reads++, { counter }), debounceMs: 20 });
    for (let i = 0; i < 100; i++) {
      counter++;
      saver.schedule();
    }
    await new Promise((r) => setTimeout(r, 60));
    expect(reads).toBe(1);
    expect((await readStateFile(file))?.state).toEqual({ counter: 100 });
    counter++;
    saver.schedule();
    await saver.flush();
    expect((await readStateFile(file))?.state).toEqual({ counter: 101 });
    await saver.flush();
    expect(reads).toBe(2);
  });

  it('reports a failed background write and retries it on the next flush', async () => {
    const dir = folder();
    const file = join(dir, 'missing-folder', 'state.json');
    const errors: unknown[] = [];
    const saver = new StateFileSaver(file, { getState: () => ({ ok: true }), debounceMs: 1, onError: (e) => errors.push(e) });
    saver.schedule();
    await new Promise((r) => setTimeout(r, 30));
    expect(errors).toHaveLength(1);
    mkdirSync(join(dir, 'missing-folder'));
    await saver.flush();
    expect((await readStateFile(file))?.state).toEqual({ ok: true });
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
