/** The built `card-issuing-mock` command (dist/cli.js, as `npx card-issuing-mock` runs it). */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliProcess, control, freePort, runCli, signedFetch, startCli } from './helpers.js';
import { repoPath } from '../helpers/spec';

const running: CliProcess[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

describe('bad command lines', () => {
  const cases: [string[], RegExp][] = [
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535 \(got "abc"\)/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--latency', '-5'], /--latency/],
    [['--api-key', 'k'], /--api-key and --api-secret go together/],
    [['--api-key', 'a:b', '--api-secret', 's'], /--api-key must be non-empty, without spaces or ":"/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--port'], /--port/],
    [['serve'], /Unknown command "serve"/],
    [['init'], /init needs exactly one argument/],
    [['--inspector'], /--inspector is an option of init/],
    [['--docs', ' '], /--docs needs a folder/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')} → exit 2, a readable message and the usage, no stack`, async () => {
      const cli = runCli(args);
      running.push(cli);
      const { code } = await cli.exited;
      expect(code).toBe(2);
      expect(cli.stderr).toMatch(message);
      expect(cli.stderr).toContain('Usage:');
      expect(cli.stderr).not.toMatch(/^\s+at /m);
      expect(cli.stdout).toBe('');
    });
  }

  it('--help prints the usage and exits 0', async () => {
    const cli = runCli(['--help']);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout).toContain('card-issuing-mock init <publicDir>');
    for (const flag of [
      '--port',
      '--host',
      '--api-key',
      '--api-secret',
      '--state-file',
      '--latency',
      '--no-auth',
      '--seed',
      '--docs',
    ]) {
      expect(cli.stdout).toContain(flag);
    }
  });
});

describe('init', () => {
  it('copies msw mockServiceWorker.js into the public folder, creating it', async () => {
    const publicDir = join(mkdtempSync(join(tmpdir(), 'cim-init-')), 'web', 'public');
    const cli = runCli(['init', publicDir]);
    expect((await cli.exited).code).toBe(0);
    const copied = readFileSync(join(publicDir, 'mockServiceWorker.js'), 'utf8');
    const original = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    expect(copied).toBe(original);
    expect(cli.stdout).toContain(join(publicDir, 'mockServiceWorker.js'));
  });

  it('with --inspector also writes the inspector page into publicDir/__mock/ui/ (for the browser mock)', async () => {
    const publicDir = mkdtempSync(join(tmpdir(), 'cim-init-'));
    const cli = runCli(['init', publicDir, '--inspector']);
    expect((await cli.exited).code).toBe(0);
    expect(readFileSync(join(publicDir, '__mock/ui/index.html'), 'utf8')).toContain('/__mock/ui/app.js');
    expect(readFileSync(join(publicDir, '__mock/ui/app.js'), 'utf8').length).toBeGreaterThan(1000);
    expect(readFileSync(join(publicDir, '__mock/ui/app.css'), 'utf8')).toContain('.badge');
    expect(cli.stdout).toContain('openInspector()');
  });
});

describe('the server', () => {
  it('starts on the given port, prints base URL, credentials and fixture ids, logs each request, stops on SIGINT with exit 0', async () => {
    const port = await freePort();
    const { cli, url } = await startCli(['--port', String(port)]);
    running.push(cli);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    await cli.waitFor(/Stop with Ctrl\+C/);
    expect(cli.stdout).toMatch(/apiKey test_key\s+apiSecret test_secret/);

    const fixtures = (await control(url, 'GET', '/fixtures')).body;
    for (const corporate of fixtures.corporates) {
      expect(cli.stdout).toContain(corporate.corporateUuid);
      expect(cli.stdout).toContain(corporate.balanceId);
    }
    for (const config of fixtures.cardConfigs) {
      expect(cli.stdout).toContain(config.configId);
      for (const visual of config.visualIds) expect(cli.stdout).toContain(visual);
    }
    expect(fixtures.depositTypes.length).toBeGreaterThanOrEqual(3);

    const created = await signedFetch(url, 'POST', '/s2s/users', {
      body: {
        email: 'cli@example.org',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+447700900123',
        dateOfBirth: '1990-12-10',
        country: 'GB',
      },
    });
    expect(created.status).toBe(201);
    const logged = await cli.waitFor(/^\S+ POST \/s2s\/users 201 \S+ms.*$/m);
    expect(logged[0]).not.toContain('test_secret');
    await cli.waitFor(/GET \/__mock\/fixtures 200/);

    cli.child.kill('SIGINT');
    const exit = await cli.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout).toContain('stopped');
    expect(cli.stderr).toBe('');
  });

  it('stops on SIGTERM with exit 0', async () => {
    const { cli } = await startCli(['--port', '0']);
    running.push(cli);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });

  it('--api-key/--api-secret set the credentials, --no-auth accepts unsigned requests, --seed changes the fixtures', async () => {
    const a = await startCli(['--port', '0', '--api-key', 'k_one', '--api-secret', 's_one']);
    running.push(a.cli);
    expect(a.cli.stdout).toMatch(/apiKey k_one\s+apiSecret s_one/);
    const user = {
      email: 'k@example.org',
      firstName: 'A',
      lastName: 'B',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    };
    expect(
      (
        await signedFetch(a.url, 'POST', '/s2s/users', {
          body: user,
          credentials: { apiKey: 'k_one', apiSecret: 's_one' },
        })
      ).status,
    ).toBe(201);
    expect((await signedFetch(a.url, 'POST', '/s2s/users', { body: user })).status).toBe(401);

    const b = await startCli(['--port', '0', '--no-auth', '--seed', 'other-seed']);
    running.push(b.cli);
    expect(b.cli.stdout).toContain('not checked');
    expect((await signedFetch(b.url, 'POST', '/s2s/users', { body: user, credentials: null })).status).toBe(201);
    const seededA = (await control(a.url, 'GET', '/fixtures')).body.corporates[0].corporateUuid;
    const seededB = (await control(b.url, 'GET', '/fixtures')).body.corporates[0].corporateUuid;
    expect(seededA).not.toBe(seededB);
  });

  it('a port in use is a readable error, exit 1', async () => {
    const { cli, url } = await startCli(['--port', '0']);
    running.push(cli);
    const port = new URL(url).port;
    const second = runCli(['--port', port]);
    running.push(second);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(second.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('the request log', () => {
  it('is written in batches, and a SIGTERM writes every kept line before the server says it stopped', async () => {
    const { cli, url } = await startCli(['--port', '0']);
    running.push(cli);
    await cli.waitFor(/Stop with Ctrl\+C/);
    const requests = 20;
    const statuses = await Promise.all(
      Array.from({ length: requests }, () => control(url, 'GET', '/fixtures').then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(requests).fill(200));
    // No wait for the log: the signal comes while its lines may still be kept.
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const before = cli.stdout.slice(0, cli.stdout.indexOf('card-issuing-mock: SIGTERM, stopping'));
    expect(before.match(/GET \/__mock\/fixtures 200/g)).toHaveLength(requests);
    expect(cli.stdout).toMatch(/stopping\n[\s\S]*card-issuing-mock: stopped\n$/);
  });
});

describe('in a clone: npm run mock', () => {
  it('starts the mock from the sources with the given flags and the API reference at /__mock/docs; Ctrl+C stops it', async () => {
    // npx card-issuing-mock finds no bin in a clone (npm links a workspace's bin before its file is built), so the
    // README's command is `npm run mock`. Its own process group, so that Ctrl+C reaches npm, tsx and the mock.
    const child = spawn('npm', ['run', '-s', 'mock', '--', '--port', '0', '--seed', 'npm-run-mock'], {
      cwd: repoPath('.'),
      env: { ...process.env, NO_COLOR: '1' },
      stdio: 'pipe',
      detached: true,
    });
    const cli = new CliProcess(child);
    try {
      const url = (await cli.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1]!;
      expect(cli.stdout).toContain(`API docs      ${url}/__mock/docs (from ${repoPath('docs/api')})`);
      expect((await control(url, 'GET', '/fixtures')).status).toBe(200);
      const docs = await fetch(`${url}/__mock/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('card-issuing API reference');
      process.kill(-child.pid!, 'SIGINT');
      await cli.exited;
      expect(cli.stdout).toContain('card-issuing-mock: SIGINT, stopping');
      expect(cli.stdout).toContain('card-issuing-mock: stopped');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL'); // whatever of the group is left (none once it stopped)
      } catch {
        // ESRCH: the group is gone.
      }
    }
  });
});
