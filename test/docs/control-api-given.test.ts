/**
 * docs/control-api.md's builder example over HTTP, run as written with curl against the standalone server, once per
 * approval status: each is built in one call and read back with a request signed by openssl (no code of ours signs
 * it), with that status; its history, read from `GET /__mock/events`, is rows of the approval table, in the past.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { approvalMachine } from '../../mock-server/src/machines';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';
import { zApprovalStatus } from '../../sdk/generated/zod.gen';

const run = promisify(execFile);
const SIGNED = fileURLToPath(new URL('../server/curl-signed.sh', import.meta.url));
const block = codeBlockOf(repoPath('docs/control-api.md'), 'Builders: any state in one call', 'sh');
let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, log: () => {} });
});
afterAll(() => server.close());

/** The nine statuses, from the spec. */
const STATUSES = zApprovalStatus.options;

describe('docs/control-api.md: POST /__mock/given/approval with curl', () => {
  it('the block names the default address and builds a DELIVERED approval', () => {
    expect(block).toContain('http://127.0.0.1:4010/__mock/given/approval');
    expect(block).toContain('"status": "DELIVERED"');
  });

  for (const status of STATUSES) {
    it(`${status}: built in one call, read back signed with that status and a history the table allows`, async () => {
      // The block as written, on this server's port, for this status (purchases only where it was DELIVERED).
      let script = block.replace('http://127.0.0.1:4010', server.url).replace('"DELIVERED"', `"${status}"`);
      if (['ACCEPTED', 'PREPARED', 'CANCELED'].includes(status)) script = script.replace(', "spent": 12000', '');
      const { stdout } = await run('sh', ['-c', script]);
      const made = JSON.parse(stdout) as { approval: { approvalUuid: string; status: string }; corporateUuid: string };
      expect(made.approval.status).toBe(status);

      const read = await run(
        'sh',
        [SIGNED, 'GET', `${server.url}/corporates/${made.corporateUuid}/approvals/${made.approval.approvalUuid}`],
        {
          env: { ...process.env, API_KEY: 'test_key', API_SECRET: 'test_secret' },
        },
      );
      const [code, ...body] = read.stdout.split('\n');
      expect(code).toBe('200');
      expect(JSON.parse(body.join('\n')).status).toBe(status);

      const events = await (await fetch(`${server.url}/__mock/events?type=approval.statusChanged`)).json();
      const changes = (
        events.items as { at: string; approvalUuid: string; from: string | null; to: string; trigger: string }[]
      ).filter((e) => e.approvalUuid === made.approval.approvalUuid);
      expect(changes.at(-1)!.to).toBe(status);
      for (const change of changes) {
        const row = approvalMachine.rows.find(
          (r) =>
            r.trigger === change.trigger &&
            (change.from === null ? r.from === null : r.from?.includes(change.from as never)) &&
            (r.to === 'unchanged' || r.to === change.to),
        );
        expect(row, `${change.from} -> ${change.to} by ${change.trigger}`).toBeDefined();
        expect(Date.parse(change.at)).toBeLessThanOrEqual(Date.now());
      }
    });
  }
});
