/**
 * The --state-file: it survives a restart (in-process and through the CLI), a corrupt or foreign file is refused
 * and left untouched, SIGTERM saves the last change, an answered change survives SIGKILL, and one file has one
 * server. (100 kill -9 rounds under write load: npm run test:kill.)
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, StateFileError } from '../../mock-server/src/node.js';
import { control, newUser, runCli, signedFetch, startCli, type CliProcess } from './helpers.js';

const running: CliProcess[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'cim-state-')), 'state.json');
const B = { apiKey: 'tenant_b', apiSecret: 'secret_b' };

describe('a state file', () => {
  it('survives a restart: users of every tenant, added credentials, the virtual clock', async () => {
    const file = tempFile();
    const first = await startMockServer({ port: 0, stateFile: file });
    const a = (await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('restart-a') })).body;
    await control(first.url, 'POST', '/credentials', B);
    const b = (await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('restart-b'), credentials: B })).body;
    await control(first.url, 'POST', '/clock/advance', { seconds: 10 * 86_400 });
    const clockBefore = Date.parse((await control(first.url, 'GET', '/clock')).body.now);
    await first.close();

    const second = await startMockServer({ port: 0, stateFile: file });
    try {
      expect((await signedFetch(second.url, 'GET', `/s2s/users/${a.id}`)).body.email).toBe(a.email);
      expect((await signedFetch(second.url, 'GET', `/s2s/users/${b.id}`, { credentials: B })).body.email).toBe(b.email);
      expect((await signedFetch(second.url, 'GET', `/s2s/users/${b.id}`)).status).toBe(404);
      const clockAfter = Date.parse((await control(second.url, 'GET', '/clock')).body.now);
      expect(clockAfter - clockBefore).toBeGreaterThanOrEqual(0);
      expect(clockAfter - clockBefore).toBeLessThan(60_000);
    } finally {
      await second.close();
    }
  });

  it('given --api-key/--api-secret not in the file, keeps the file’s tenants and adds those credentials', async () => {
    const file = tempFile();
    const first = await startMockServer({ port: 0, stateFile: file });
    const user = (await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('keep') })).body;
    await first.close();
    const second = await startMockServer({ port: 0, stateFile: file, apiKey: 'other_key', apiSecret: 'other_secret' });
    try {
      expect((await signedFetch(second.url, 'GET', `/s2s/users/${user.id}`)).status).toBe(200);
      const other = await signedFetch(second.url, 'POST', '/s2s/users', {
        body: newUser('other'),
        credentials: { apiKey: 'other_key', apiSecret: 'other_secret' },
      });
      expect(other.status).toBe(201);
    } finally {
      await second.close();
    }
    await expect(
      startMockServer({ port: 0, stateFile: file, apiKey: 'other_key', apiSecret: 'changed' }),
    ).rejects.toThrow(/already has the api key other_key, with another secret/);
  });
});

describe('a corrupt or foreign state file', () => {
  const cases: [string, string, RegExp][] = [
    [
      'truncated JSON',
      '{"format":"card-issuing-mock/state","version":1,"state":{"version":1,"tenants":[{"apiKey"',
      /is not valid JSON/,
    ],
    ['another JSON file', '{"name":"my-app","private":true}\n', /is not a card-issuing-mock state file/],
    [
      'a state the mock cannot load',
      '{"format":"card-issuing-mock/state","version":1,"state":{"version":1,"defaultApiKey":"k","tenants":[]}}',
      /could not be converted: .*tenants.*Convert it by hand/,
    ],
  ];
  for (const [what, content, message] of cases) {
    it(`${what}: the CLI refuses to start (exit 1, the file named, what is wrong) and leaves the file untouched`, async () => {
      const file = tempFile();
      writeFileSync(file, content);
      const before = statSync(file);
      const cli = runCli(['--port', '0', '--state-file', file]);
      running.push(cli);
      expect((await cli.exited).code).toBe(1);
      expect(cli.stderr).toContain(file);
      expect(cli.stderr).toMatch(message);
      expect(cli.stderr).not.toMatch(/^\s+at /m);
      expect(cli.stdout).not.toContain('listening');
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    });
  }

  it('startMockServer rejects with a StateFileError naming the file', async () => {
    const file = tempFile();
    writeFileSync(file, '{oops');
    const error = await startMockServer({ port: 0, stateFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as StateFileError).file).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('{oops');
  });
});

describe('the CLI with --state-file', () => {
  it('SIGTERM right after a change saves it; the restarted CLI serves it', async () => {
    const file = tempFile();
    const first = await startCli(['--port', '0', '--state-file', file]);
    running.push(first.cli);
    const user = (await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('sigterm') })).body;
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exited).toEqual({ code: 0, signal: null });
    expect(first.cli.stdout).toContain(`state saved to ${file}`);

    const second = await startCli(['--port', '0', '--state-file', file]);
    running.push(second.cli);
    expect((await signedFetch(second.url, 'GET', `/s2s/users/${user.id}`)).status).toBe(200);
    second.cli.child.kill('SIGINT');
    expect((await second.cli.exited).code).toBe(0);
  });

  it('an answered change is on disk: SIGKILL right after the reply, and the restart has it', async () => {
    const file = tempFile();
    const first = await startCli(['--port', '0', '--state-file', file]);
    running.push(first.cli);
    const created = await signedFetch(first.url, 'POST', '/s2s/users', { body: newUser('killed') });
    expect(created.status).toBe(201);
    await control(first.url, 'POST', '/clock/advance', { seconds: 86_400 });
    const clock = (await control(first.url, 'GET', '/clock')).body.now;
    first.cli.child.kill('SIGKILL');
    expect((await first.cli.exited).signal).toBe('SIGKILL');

    const second = await startCli(['--port', '0', '--state-file', file]);
    running.push(second.cli);
    expect((await signedFetch(second.url, 'GET', `/s2s/users/${created.body.id}`)).body.email).toBe(created.body.email);
    expect(Date.parse((await control(second.url, 'GET', '/clock')).body.now)).toBeGreaterThanOrEqual(Date.parse(clock));
    second.cli.child.kill('SIGTERM');
    expect((await second.cli.exited).code).toBe(0);
  });

  it('a second server on the same file exits 1, naming the file and the server that holds it', async () => {
    const file = tempFile();
    const first = await startCli(['--port', '0', '--state-file', file]);
    running.push(first.cli);
    const second = runCli(['--port', '0', '--state-file', file]);
    running.push(second);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr).toContain(file);
    expect(second.stderr).toContain(`pid ${first.cli.child.pid}`);
    expect(second.stderr).not.toMatch(/^\s+at /m);
    first.cli.child.kill('SIGTERM');
    expect((await first.cli.exited).code).toBe(0);
  });
});
