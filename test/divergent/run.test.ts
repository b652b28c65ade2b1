/**
 * `card-issuing-contract run` (the built bin, in a child process) reports exactly the differences planted in the
 * divergent server, and nothing against the mock itself: a signing that needs the secret base64-decoded (exit 2,
 * naming the option that works), then with that option a renamed field, an undocumented status and a problem code
 * outside the closed set as mismatches (exit 1). A closed port is exit 2 with one line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { runContractSuite } from '../examples/run-contract';
import { PLANTED, startDivergentServer, type DivergentServer } from './server';

let divergent: DivergentServer;
let mock: MockServer;
beforeAll(async () => {
  [divergent, mock] = await Promise.all([startDivergentServer(), startMockServer({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([divergent?.close(), mock?.close()]);
});

/** The lines a user reads, without blank ones. */
const linesOf = (output: string) => output.split('\n').filter((line) => line.trim() !== '');

describe('run against the divergent server', () => {
  it("signed as the spec's default (UTF-8 secret): exit 2, one line naming --secret-encoding base64", async () => {
    const run = await runContractSuite([], divergent.url, [
      '--api-key',
      divergent.apiKey,
      '--api-secret',
      divergent.apiSecret,
    ]);
    expect(run.code).toBe(2);
    expect(linesOf(run.output)).toHaveLength(1);
    expect(run.output).toMatch(
      /every request is refused by signing: .*401 AUTH_SIGNATURE_MISMATCH; signed with the secret base64-decoded it is accepted: pass --secret-encoding base64/,
    );
  });

  it(`with --secret-encoding ${PLANTED.secretEncoding}: exit 1, and the mismatches are exactly the planted ones`, async () => {
    const run = await runContractSuite(['signing', 'business'], divergent.url, [
      '--api-key',
      divergent.apiKey,
      '--api-secret',
      divergent.apiSecret,
      '--secret-encoding',
      'base64',
    ]);
    expect(run.code, run.output).toBe(1);
    const mismatches = run.report!.mismatches.map((m) => ({
      operationId: m.operationId,
      location: m.location,
      server: m.server,
      spec: m.spec.split(' (')[0],
    }));
    expect(
      mismatches.sort((a, b) =>
        `${a.operationId}${a.location}${a.spec}`.localeCompare(`${b.operationId}${b.location}${b.spec}`),
      ),
    ).toEqual([
      {
        operationId: PLANTED.undocumentedStatus.operation,
        location: 'response.status',
        server: PLANTED.undocumentedStatus.status,
        spec: '200 is not documented',
      },
      {
        operationId: 'createUser',
        location: `response.body/${PLANTED.renamedField.to}`,
        server: '1990-12-10',
        spec: `must NOT have additional properties: '${PLANTED.renamedField.to}'`,
      },
      {
        operationId: 'createUser',
        location: `response.body/${PLANTED.renamedField.from}`,
        server: '(absent)',
        spec: `must have required property '${PLANTED.renamedField.from}'`,
      },
      {
        operationId: PLANTED.problemCode.operation,
        location: 'response.body/code',
        server: PLANTED.problemCode.code,
        spec: 'must be equal to one of the allowed values',
      },
    ]);
    // The summary names each of them on one line, under its operation; then the counts. The runner's diffs are not
    // in it (they go to --details or --verbose).
    const lines = run.output.split('\n');
    const under = (operation: string) => lines.slice(lines.indexOf(`  ${operation}`) + 1);
    expect(under('createBusinessUser  POST /corporates/users')[0]).toMatch(
      /^ {4}✗ response\.status {2}spec: 200 is not documented \(documented: .*\) {2}came 200/,
    );
    expect(under('createUser  POST /s2s/users')).toContainEqual(
      expect.stringMatching(
        /^ {4}✗ response\.body\/birthDate {2}spec: must NOT have additional properties: 'birthDate' {2}came "1990-12-10"/,
      ),
    );
    expect(run.output).toMatch(
      /✗ response\.body\/code {2}spec: must be equal to one of the allowed values .* came "USER_NOT_FOUND"/,
    );
    expect(run.output).not.toContain('+ actual - expected');
    expect(run.output).toContain('Result: FAIL');
    // What passed, passed for the right reasons: the tests that do not touch a planted difference.
    expect(run.tests.find((t) => t.name.includes('AUTH_TIMESTAMP_SKEW'))?.status).toBe('passed');
  });
});

describe('run against the mock and a closed port', () => {
  it('the mock: exit 0, no mismatch, the tests that drive it ran (none skipped); --corporate warns and is ignored; the JUnit root carries the totals', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-junit-'));
    try {
      const junit = join(dir, 'contract.xml');
      const run = await runContractSuite(['signing', 'business'], mock.url, [
        '--corporate',
        '00000000-0000-4000-8000-000000000000',
        '--junit',
        junit,
      ]);
      expect(run.code, run.output).toBe(0);
      expect(run.report).toMatchObject({ target: 'mock', mismatches: [], tests: { failed: 0, skipped: 0 } });
      expect(run.output).toContain('warning: --corporate is ignored against the mock');
      expect(run.output).toContain('Result: PASS');
      const { total } = run.report!.tests;
      expect(readFileSync(junit, 'utf8')).toMatch(
        new RegExp(
          `<testsuites name="card-issuing-contract run" tests="${total}" failures="0" errors="0" skipped="0" time="[0-9.]+">`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad input is exit 2 with one line: an unknown option value, an unknown suite file, a body hash the server does not use, a sandbox without credentials', async () => {
    const encoding = await runContractSuite([], mock.url, ['--secret-encoding', 'hex']);
    expect({ code: encoding.code, lines: linesOf(encoding.output) }).toEqual({
      code: 2,
      lines: ['card-issuing-contract: --secret-encoding must be utf8 or base64, got "hex"'],
    });
    const file = await runContractSuite(['nope'], mock.url);
    expect(file.code).toBe(2);
    expect(linesOf(file.output)).toEqual([
      expect.stringMatching(/^card-issuing-contract: no suite file named nope \(there are: approvals, business, .*\)$/),
    ]);
    const bodyHash = await runContractSuite([], mock.url, ['--sign-body']);
    expect({ code: bodyHash.code, lines: linesOf(bodyHash.output) }).toEqual({
      code: 2,
      lines: [
        expect.stringMatching(
          /: every request with a body is refused by signing: .* with the body hash, while GETs are accepted; without it the request is accepted: drop --sign-body$/,
        ),
      ],
    });
    const sandbox = await runContractSuite([], divergent.url);
    expect({ code: sandbox.code, lines: linesOf(sandbox.output) }).toEqual({
      code: 2,
      lines: [
        `card-issuing-contract: ${divergent.url} has no mock control API: pass the sandbox's --api-key and --api-secret`,
      ],
    });
  });

  it('a closed port: exit 2 with one line, no stack trace', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const run = await runContractSuite([], `http://127.0.0.1:${port}`);
    expect(run.code).toBe(2);
    expect(linesOf(run.output)).toEqual([
      `card-issuing-contract: cannot reach http://127.0.0.1:${port}: connection refused`,
    ]);
  });
});
