/**
 * `card-issuing-mock --scenario FILE` (the built command): every tenant's fresh state is the world of the file,
 * again after a reset and for a tenant added later, with `--seed` still the generator's seed; a wrong file stops the
 * command with every error and no stack.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock-server/src/node.js';
import { type CliProcess, control, runCli, signedFetch, startCli } from './helpers.js';
import { repoPath } from '../helpers/spec';

const running: CliProcess[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

const approvalsOf = async (url: string, credentials?: { apiKey: string; apiSecret: string }) =>
  Object.values(
    (
      await signedFetch(url, 'GET', `/__mock/state${credentials ? `?apiKey=${credentials.apiKey}` : ''}`, {
        credentials: credentials ?? null,
      })
    ).body.approvals as Record<string, { approvalUuid: string; status: string; corporateUuid: string }>,
  );

describe('card-issuing-mock --scenario', () => {
  it('loads a YAML or JSON world into every tenant, again on reset; --seed keeps the ids', async () => {
    const file = repoPath('examples/scenarios/corporate-approvals.json');
    const { cli, url } = await startCli(['--port', '0', '--seed', '7', '--scenario', file]);
    running.push(cli);
    const approvals = await approvalsOf(url);
    expect(new Set(approvals.map((a) => a.status)).size).toBe(9);
    const delivered = approvals.find((a) => a.status === 'DELIVERED')!;
    const read = await signedFetch(
      url,
      'GET',
      `/corporates/${delivered.corporateUuid}/approvals/${delivered.approvalUuid}`,
    );
    expect(read.body.status).toBe('DELIVERED');

    await control(url, 'POST', '/reset');
    expect((await approvalsOf(url)).map((a) => a.approvalUuid)).toEqual(approvals.map((a) => a.approvalUuid));
    const B = { apiKey: 'tenant_b', apiSecret: 'secret_b' };
    await control(url, 'POST', '/credentials', B);
    expect(await approvalsOf(url, B)).toHaveLength(approvals.length);

    const again = await startCli([
      '--port',
      '0',
      '--seed',
      '7',
      '--scenario',
      repoPath('examples/scenarios/cardholder-steps.yaml'),
    ]);
    running.push(again.cli);
    const users = (await control(again.url, 'GET', '/state')).body.users as Record<string, { email: string }>;
    expect(Object.values(users).map((u) => u.email)).toContain('kyc-failed@example.org');
  });

  it('refuses a wrong file whole: exit 1, every error with its path, no stack', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cim-scenario-')), 'wrong.yaml');
    writeFileSync(file, 'given:\n  - { kind: approval, status: DONE }\n  - { kind: card, user: nobody }\n');
    const cli = runCli(['--port', '0', '--scenario', file]);
    running.push(cli);
    const { code } = await cli.exited;
    expect(code).toBe(1);
    expect(cli.stderr).toMatch(/given\.0\.status: .*given\.1\.user: No earlier entry is named nobody/);
    expect(cli.stderr).not.toMatch(/^\s+at /m);
    const missing = runCli(['--port', '0', '--scenario', join(tmpdir(), 'no-such-scenario.json')]);
    running.push(missing);
    expect((await missing.exited).code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read the scenario .*no-such-scenario\.json: ENOENT/);
  });
});

describe('builders with a state file', () => {
  it('a builder-made world survives a restart, the same approvals with their histories', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cim-given-')), 'state.json');
    const first = await startMockServer({ port: 0, stateFile: file });
    const made = await control(first.url, 'POST', '/given/approval', { status: 'FINISHED', spent: 1_000 });
    const expired = await control(first.url, 'POST', '/given/approval', { status: 'EXPIRED' });
    const before = (await control(first.url, 'GET', '/state')).body;
    await first.close();
    const second = await startMockServer({ port: 0, stateFile: file });
    try {
      const after = (await control(second.url, 'GET', '/state')).body;
      expect(after.approvals).toEqual(before.approvals);
      const read = await signedFetch(
        second.url,
        'GET',
        `/corporates/${made.body.corporateUuid}/approvals/${made.body.approval.approvalUuid}`,
      );
      expect([read.body.status, read.body.spent.amount]).toEqual(['FINISHED', 1_000]);
      expect(after.approvals[expired.body.approval.approvalUuid].status).toBe('EXPIRED');
    } finally {
      await second.close();
    }
  });
});
