/**
 * The state file's commit thread on its own: entries have no index on their keys (schema 2), so the thread keeps
 * each key's rowid. A known key is rewritten in place, a new one appended, a deleted or cleared one gone, and a batch
 * that rolls back leaves the file, and what the thread knows of it, as before the batch.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { CommitThread, type RowOp } from '../../mock-server/src/node/state-file/commit-thread.js';
import { prepareDatabase } from '../../mock-server/src/node/state-file/database.js';

const entries = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare('SELECT rowid, api_key, part, key, value FROM entries ORDER BY rowid').all();
  } finally {
    db.close();
  }
};

describe('the commit thread', () => {
  it('updates a known key in place, appends a new one, and forgets what a rolled-back batch did', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cim-commit-')), 'state.db');
    prepareDatabase(file, undefined);
    const thread = new CommitThread(file);
    try {
      await thread.commit([
        ['put', 'a', 'users', 'u1', '1'],
        ['put', 'a', 'users', 'u2', '2'],
        ['put', 'b', 'users', 'u1', 'b1'],
        ['put', 'a', 'cards', 'c1', 'c'],
      ]);
      const [u1] = entries(file);
      // u3 is inserted, then the batch fails: nothing of it is in the file, and u3 is new again afterwards.
      const failing = [['put', 'a', 'users', 'u3', 'lost'], ['bogus']] as unknown as RowOp[];
      await expect(thread.commit(failing)).rejects.toThrow(/unknown row operation bogus/);
      expect(entries(file)).toHaveLength(4);
      await thread.commit([
        ['put', 'a', 'users', 'u1', '1 again'],
        ['put', 'a', 'users', 'u3', '3'],
        ['delete', 'a', 'users', 'u2'],
        ['delete', 'a', 'users', 'never'],
        ['clearPart', 'a', 'cards'],
        ['clearPart', 'a', 'rng'],
      ]);
      expect(entries(file)).toEqual([
        { ...u1, value: '1 again' },
        expect.objectContaining({ api_key: 'b', key: 'u1', value: 'b1' }),
        expect.objectContaining({ api_key: 'a', key: 'u3', value: '3' }),
      ]);
      // A cleared part and a dropped tenant take their keys along: writing them again makes new rows, once each.
      await thread.commit([
        ['dropTenant', 'b'],
        ['put', 'a', 'cards', 'c1', 'c2'],
        ['put', 'b', 'users', 'u1', 'b2'],
      ]);
      await thread.commit([
        ['put', 'a', 'cards', 'c1', 'c3'],
        ['put', 'b', 'users', 'u1', 'b3'],
      ]);
      expect(entries(file).map((r) => [r.api_key, r.key, r.value])).toEqual([
        ['a', 'u1', '1 again'],
        ['a', 'u3', '3'],
        ['a', 'c1', 'c3'],
        ['b', 'u1', 'b3'],
      ]);
    } finally {
      await thread.close();
    }
  });
});
