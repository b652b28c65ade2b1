/**
 * A state file is checked whole at start: one that holds a bad record (an approval row set to `null`, as a hand edit or
 * an old bug could leave it) is refused with a message naming the path, exit code 1 and no stack trace, and the
 * file is left as it was. Before, it was loaded, every request of the tenant failed with a 500, and the next start
 * crashed with a stack trace.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock-server/src/node.js';
import { runCli } from './helpers.js';

describe('a state file with a bad record', () => {
  it('is refused at start with a message naming the path, exit 1, no stack, and the file untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-state-')), 'state.db');
    // A real state file, then one approval row set to null.
    const server = await startMockServer({ port: 0, seed: 'bad-file', stateFile: file });
    const apiKey = server.mock.apiKey;
    await server.close();
    const approvalId = '7e2c9a4b-3d8f-4b1e-8c6a-5f0d2e9b7a14';
    const db = new DatabaseSync(file);
    db.prepare("INSERT INTO entries (api_key, part, key, value) VALUES (?, 'approvals', ?, 'null')").run(
      apiKey,
      approvalId,
    );
    db.close();
    const before = readFileSync(file);

    const cli = runCli(['--port', '0', '--state-file', file]);
    const { code } = await cli.exited;
    expect(code).toBe(1);
    expect(cli.stderr).toContain(`approvals.${approvalId}`);
    expect(cli.stderr).toMatch(/cannot load/);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
    expect(cli.stdout).not.toContain('listening');
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
