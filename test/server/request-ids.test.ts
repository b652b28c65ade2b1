/**
 * Request ids (`X-Request-Id`, the journal's and the events' `requestId`) are unique across the starts of a server on
 * one state file: a restart, or a `kill -9` as test/kill does, never gives an id of an earlier start again, and the
 * format stays `req_` and 16 hex digits.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock-server/src/node.js';
import { newUser, signedFetch, startCli } from './helpers.js';

const stateFile = () => join(mkdtempSync(join(tmpdir(), 'cim-ids-')), 'state.db');

/** The ids of a few requests of each kind: an API change, an API read, a refusal, control calls. */
async function idsOf(url: string): Promise<string[]> {
  const answers = [
    await signedFetch(url, 'POST', '/s2s/users', { body: newUser('ids') }),
    await signedFetch(url, 'GET', '/s2s/users/3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'),
    await fetch(`${url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seconds":60}',
    }),
    await fetch(`${url}/__mock/fixtures`),
  ];
  const ids = answers.map((answer) => answer.headers.get('x-request-id') ?? '');
  for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{16}$/);
  return ids;
}

describe('request ids across the starts of one state file', () => {
  it('a restart gives none of the ids of the starts before it', async () => {
    const file = stateFile();
    const seen: string[] = [];
    for (let start = 0; start < 3; start++) {
      const server = await startMockServer({ port: 0, stateFile: file });
      try {
        seen.push(...(await idsOf(server.url)));
      } finally {
        await server.close();
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('the count of starts survives an import of the whole state, and a file that kept none counts as started once', async () => {
    const file = stateFile();
    const first = await startMockServer({ port: 0, stateFile: file });
    const seen = await idsOf(first.url);
    // Replacing every tenant rewrites the file's rows from scratch, its count of starts included.
    first.mock.importState(first.mock.exportState());
    await first.close();
    const second = await startMockServer({ port: 0, stateFile: file });
    seen.push(...(await idsOf(second.url)));
    await second.close();
    expect(new Set(seen).size).toBe(seen.length);

    // A file of an earlier version: started (openedAt), with the first start's ids, and no count kept.
    const old = stateFile();
    const before = await startMockServer({ port: 0, stateFile: old });
    const earlier = await idsOf(before.url);
    await before.close();
    const db = new DatabaseSync(old);
    db.exec("DELETE FROM mock WHERE key = 'starts'");
    db.close();
    const after = await startMockServer({ port: 0, stateFile: old });
    const later = await idsOf(after.url);
    await after.close();
    expect(later.filter((id) => earlier.includes(id))).toEqual([]);
  });

  it('after kill -9, the next start gives none of the ids of the killed one', async () => {
    const file = stateFile();
    const first = await startCli(['--port', '0', '--state-file', file]);
    const seen = await idsOf(first.url).finally(() => first.cli.child.kill('SIGKILL'));
    await first.cli.exited;
    const again = await startCli(['--port', '0', '--state-file', file]);
    try {
      seen.push(...(await idsOf(again.url)));
    } finally {
      again.cli.child.kill('SIGTERM');
      await again.cli.exited;
    }
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a mock without a state file keeps its ids: the same for the same seed, start after start', async () => {
    const ids = async () => {
      const server = await startMockServer({ port: 0, seed: 7 });
      try {
        return await idsOf(server.url);
      } finally {
        await server.close();
      }
    };
    expect(await ids()).toEqual(await ids());
  });
});
