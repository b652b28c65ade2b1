/**
 * The consumer matrix's rows for card-issuing-contract, as a CI pipeline gets it: the tarballs installed into an
 * empty folder, `npx card-issuing-mock` started there, and `npx card-issuing-contract run` against it (every test
 * passes, 32 of 32 operations, a JUnit file that a JUnit parser from the registry reads), against the divergent
 * server (exit 1, each planted difference named) and against a closed port (exit 2, one line). A second folder holds
 * only the contract package and the SDK, for what the command installs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startDivergentServer, type DivergentServer } from '../divergent/server';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { consumerEnv, MockCommand, npmInstall, run } from './support';

const tarballs = inject('tarballs');
let mock: MockCommand | undefined;
let divergent: DivergentServer | undefined;
afterAll(async () => {
  await mock?.interrupt();
  await divergent?.close();
});

/** What the command printed, without npm's own warnings about the machine's npm configuration. */
const ownLines = (text: string) =>
  text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));

/** A JUnit reader from the registry, as a CI system would parse the file. */
const READ_JUNIT = `
const { parse } = require('junit2json');
const xml = require('node:fs').readFileSync(process.argv[2], 'utf8');
parse(xml).then((report) => {
  const suites = report.testsuite ?? [];
  const cases = suites.flatMap((s) => s.testcase ?? []);
  console.log(JSON.stringify({ suites: suites.length, cases: cases.length, failures: cases.filter((c) => c.failure).length, skipped: cases.filter((c) => c.skipped).length }));
});
`;

describe('card-issuing-contract from its tarball', () => {
  it('in an empty folder: npx card-issuing-contract run against npx card-issuing-mock passes, 32 of 32 operations, and writes JUnit a parser reads', async () => {
    const dir = join(tarballs.root, 'contract-ci');
    mkdirSync(dir, { recursive: true });
    await npmInstall(dir, [tarballs.sdk, tarballs.mock, tarballs.contract, 'junit2json@^4']);
    const started = await MockCommand.start(dir, ['--port', '0']);
    mock = started.command;

    const t0 = performance.now();
    const passed = await run(
      'npx',
      ['card-issuing-contract', 'run', '--base-url', started.url, '--junit', 'contract.xml', '--json', 'contract.json'],
      { cwd: dir, timeoutMs: 300_000 },
    );
    const seconds = (performance.now() - t0) / 1000;
    console.log(`consumers: card-issuing-contract run against the mock took ${seconds.toFixed(1)} s`);
    expect(passed.code, passed.output).toBe(0);
    expect(passed.stdout).toMatch(
      /Operations covered: 32 of 32; \d+ exchanges checked against the spec, 0 mismatch\(es\)/,
    );
    expect(passed.stdout).toMatch(/Tests: \d+ passed, 0 failed, 0 skipped/);
    const report = JSON.parse(readFileSync(join(dir, 'contract.json'), 'utf8')) as {
      operations: { covered: number; total: number };
      tests: { passed: number };
    };
    expect(report.operations).toMatchObject({ covered: 32, total: 32 });

    writeFileSync(join(dir, 'read-junit.cjs'), READ_JUNIT);
    const junit = JSON.parse((await run('node', ['read-junit.cjs', 'contract.xml'], { cwd: dir })).stdout) as Record<
      string,
      number
    >;
    expect(junit).toMatchObject({ failures: 0, skipped: 0 });
    expect(junit.cases).toBe(report.tests.passed);
    expect(junit.suites).toBeGreaterThan(10);

    // The divergent server: exit 1, every planted difference named in the summary.
    divergent = await startDivergentServer();
    const drift = await run(
      'npx',
      [
        'card-issuing-contract',
        'run',
        '--base-url',
        divergent.url,
        '--api-key',
        divergent.apiKey,
        '--api-secret',
        divergent.apiSecret,
        '--secret-encoding',
        'base64',
      ],
      { cwd: dir, timeoutMs: 300_000 },
    );
    expect(drift.code, drift.output).toBe(1);
    // The report's one line per mismatch, grouped by operation (what the spec says, what came).
    expect(drift.stdout).toMatch(
      /createUser {2}POST \/s2s\/users\n(\s+✗ .*\n)*?\s+✗ response\.body\/dateOfBirth {2}spec: must have required property 'dateOfBirth' {2}came \(absent\)/,
    );
    expect(drift.stdout).toContain("✗ response.body/birthDate  spec: must NOT have additional properties: 'birthDate'");
    expect(drift.stdout).toMatch(
      /createBusinessUser {2}POST \/corporates\/users\n\s+✗ response\.status {2}spec: 200 is not documented/,
    );
    expect(drift.stdout).toContain('came "USER_NOT_FOUND"');
    const unsigned = await run(
      'npx',
      [
        'card-issuing-contract',
        'run',
        '--base-url',
        divergent.url,
        '--api-key',
        divergent.apiKey,
        '--api-secret',
        divergent.apiSecret,
      ],
      { cwd: dir },
    );
    expect({ code: unsigned.code, stdout: unsigned.stdout }).toEqual({ code: 2, stdout: '' });
    expect(ownLines(unsigned.stderr)).toEqual([expect.stringContaining('pass --secret-encoding base64')]);

    // A closed port: exit 2, one line.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const free = (probe.address() as { port: number }).port;
        probe.close(() => resolve(free));
      });
    });
    const closed = await run('npx', ['card-issuing-contract', 'run', '--base-url', `http://127.0.0.1:${port}`], {
      cwd: dir,
    });
    expect({ code: closed.code, stderr: ownLines(closed.stderr) }).toEqual({
      code: 2,
      stderr: [`card-issuing-contract: cannot reach http://127.0.0.1:${port}: connection refused`],
    });
  });

  it('the proxy from the tarball in front of the divergent server: answers passed through, one line per drift, the report and overlay on SIGTERM', async () => {
    const dir = join(tarballs.root, 'contract-ci');
    divergent ??= await startDivergentServer();
    const proxy = spawn(
      join(dir, 'node_modules/.bin/card-issuing-contract'),
      [
        'proxy',
        '--target',
        divergent.url,
        '--api-key',
        divergent.apiKey,
        '--api-secret',
        divergent.apiSecret,
        '--secret-encoding',
        'base64',
        '--port',
        '0',
        '--report',
        'drift',
      ],
      { cwd: dir, env: consumerEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    const ended = new Promise<number | null>((resolve) => proxy.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      proxy.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const found = /proxy on (http:\/\/\S+)/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      void ended.then((code) => reject(new Error(`the proxy exited (${code}): ${stdout}`)));
    });
    const direct = createCardIssuingClient({
      baseUrl: divergent.url,
      apiKey: divergent.apiKey,
      apiSecret: divergent.apiSecret,
      secretEncoding: 'base64',
      retry: false,
    });
    const through = createCardIssuingClient({
      baseUrl: url,
      apiKey: divergent.apiKey,
      apiSecret: divergent.apiSecret,
      secretEncoding: 'base64',
      retry: false,
    });
    const outcome = (client: typeof direct) =>
      client.s2s.users.get('00000000-0000-4000-8000-000000000000').then(
        () => 'ok',
        (e: unknown) => `${(e as { status?: number }).status} ${(e as { code?: string }).code}`,
      );
    expect(await outcome(through)).toBe(await outcome(direct));
    const business = { name: 'Grace', lastName: 'Hopper', phone: '+12025550143' };
    expect(
      (await through.corporates.users.create({ ...business, email: `g.${Date.now()}@corp.example` }).withResponse())
        .status,
    ).toBe(200);
    proxy.kill('SIGTERM');
    expect(await ended).toBe(0);
    expect(
      stdout
        .split('\n')
        .filter((line) => line.startsWith('drift '))
        .map((line) => line.split(':')[0]),
    ).toEqual(['drift problem-code-outside-set', 'drift undocumented-status']);
    const report = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')) as { drifts: { kind: string }[] };
    expect(report.drifts.map((d) => d.kind)).toEqual(['problem-code-outside-set', 'undocumented-status']);
    expect(readFileSync(join(dir, 'drift.overlay.yaml'), 'utf8')).toContain('overlay: 1.0.0');
    expect(readFileSync(join(dir, 'drift.md'), 'utf8')).toContain('| undocumented-status | createBusinessUser |');
  });

  it('what it installs: the SDK and its dependencies, ajv, ajv-formats, yaml, api-smart-diff, jsonpath-plus; no test framework', async () => {
    const dir = join(tarballs.root, 'contract-only');
    mkdirSync(dir, { recursive: true });
    await npmInstall(dir, [tarballs.sdk, tarballs.contract]);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const names = Object.keys(lock.packages)
      .filter((p) => p.startsWith('node_modules/'))
      .map((p) => p.replace(/^.*node_modules\//, ''));
    const kib = Number(execFileSync('du', ['-sk', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
    console.log(
      `consumers: card-issuing-contract with the SDK installs ${names.length} packages, ${(kib / 1024).toFixed(1)} MiB: ${names.sort().join(', ')}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'card-issuing-contract',
        'card-issuing-sdk',
        'ajv',
        'ajv-formats',
        'yaml',
        'api-smart-diff',
        'jsonpath-plus',
      ]),
    );
    for (const framework of ['vitest', 'jest', 'mocha', 'msw', 'card-issuing-mock'])
      expect(names).not.toContain(framework);
    const help = await run('npx', ['card-issuing-contract', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('card-issuing-contract run --base-url URL');
  });
});
