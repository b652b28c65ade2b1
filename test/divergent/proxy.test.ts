/**
 * `card-issuing-contract proxy` in front of the divergent server: the SDK's calls through it succeed or fail exactly
 * as they do directly; the drift report names each planted difference once; a refused signature is reported with
 * what was signed and the likely cause; SIGTERM writes the report (JSON, Markdown) and the overlay; and the spec with
 * the overlay applied validates the divergent server's answers (no drift left).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CardIssuingError, createCardIssuingClient, signRequest, type CardIssuingClient } from 'card-issuing-sdk';
import type { Drift } from '../../contract/src/proxy/drift';
import { startProxy, type DriftReport, type RunningProxy } from '../../contract/src/proxy/proxy';
import { repoPath } from '../helpers/spec';
import { applyOverlay } from '../../contract/src/proxy/apply-overlay';
import { PLANTED, startDivergentServer, type DivergentServer } from './server';

let divergent: DivergentServer;
let dir: string;
const proxies: RunningProxy[] = [];
beforeAll(async () => {
  divergent = await startDivergentServer();
  dir = mkdtempSync(join(tmpdir(), 'contract-proxy-'));
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await divergent?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function proxyFor(options: {
  encoding: 'utf8' | 'base64';
  specPath?: string;
  reportPath?: string;
}): Promise<RunningProxy> {
  const proxy = await startProxy({
    target: divergent.url,
    credentials: { apiKey: divergent.apiKey, apiSecret: divergent.apiSecret },
    signing: { secretEncoding: options.encoding, bodyHash: false },
    port: 0,
    host: '127.0.0.1',
    specPath: options.specPath ?? repoPath('spec/openapi.yaml'),
    ...(options.reportPath ? { reportPath: options.reportPath } : {}),
    log: () => {},
  });
  proxies.push(proxy);
  return proxy;
}

const clientFor = (baseUrl: string, encoding: 'utf8' | 'base64'): CardIssuingClient =>
  createCardIssuingClient({
    baseUrl,
    apiKey: divergent.apiKey,
    apiSecret: divergent.apiSecret,
    secretEncoding: encoding,
    retry: false,
  });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const tag = () => crypto.randomUUID().slice(0, 8);

/** The calls an integrator's first day makes, each touching one planted difference or none. */
const calls: [string, (c: CardIssuingClient) => Promise<{ status: number }>][] = [
  [
    'createUser',
    (c) =>
      c.s2s.users
        .create({
          email: `ada.${tag()}@example.org`,
          firstName: 'Ada',
          lastName: 'Lovelace',
          phone: '+447700900123',
          dateOfBirth: '1990-12-10',
          country: 'GB',
        })
        .withResponse(),
  ],
  ['getUser (unknown)', (c) => c.s2s.users.get(UNKNOWN).withResponse()],
  [
    'createBusinessUser',
    (c) =>
      c.corporates.users
        .create({ name: 'Grace', lastName: 'Hopper', email: `grace.${tag()}@corp.example`, phone: '+12025550143' })
        .withResponse(),
  ],
  ['listTopUps', (c) => c.corporates.topUps.list(divergent.corporate.corporateUuid).withResponse()],
];

/** What a call came to, without the parts that differ between any two calls (ids, request ids). */
async function outcome(call: () => Promise<{ status: number }>): Promise<Record<string, unknown>> {
  try {
    return { ok: true, status: (await call()).status };
  } catch (error) {
    if (!(error instanceof CardIssuingError)) throw error;
    return { ok: false, name: error.name, status: error.status, code: error.code };
  }
}

async function drifts(proxy: RunningProxy): Promise<Drift[]> {
  return ((await (await fetch(`${proxy.url}/__drift`)).json()) as DriftReport).drifts;
}

const summary = (list: Drift[]) =>
  list
    .map((d) => ({ kind: d.kind, operationId: d.operationId, subject: d.subject }))
    .sort((a, b) => `${a.kind}${a.subject}`.localeCompare(`${b.kind}${b.subject}`));

describe('the proxy in front of the divergent server', () => {
  it("the SDK's calls succeed or fail through it exactly as directly; each planted difference is one drift", async () => {
    const reportPath = join(dir, 'drift');
    const proxy = await proxyFor({ encoding: 'base64', reportPath });
    const direct = clientFor(divergent.url, 'base64');
    const through = clientFor(proxy.url, 'base64');
    for (let round = 0; round < 2; round++) {
      for (const [name, call] of calls) {
        expect(await outcome(() => call(through)), name).toEqual(await outcome(() => call(direct)));
      }
    }
    expect(summary(await drifts(proxy))).toEqual([
      { kind: 'missing-required-field', operationId: 'createUser', subject: PLANTED.renamedField.from },
      {
        kind: 'problem-code-outside-set',
        operationId: PLANTED.problemCode.operation,
        subject: PLANTED.problemCode.code,
      },
      {
        kind: 'undocumented-status',
        operationId: PLANTED.undocumentedStatus.operation,
        subject: String(PLANTED.undocumentedStatus.status),
      },
      { kind: 'unexpected-field', operationId: 'createUser', subject: PLANTED.renamedField.to },
    ]);
    for (const d of await drifts(proxy)) expect(d.count, `${d.kind} seen on both rounds, reported once`).toBe(2);

    // Passed through unchanged: the target's status, headers and body (ids aside, which differ on every call).
    const raw = async (base: string) => {
      const url = `${base}/s2s/users/${UNKNOWN}`;
      const { authorization } = await signRequest({
        method: 'GET',
        url,
        apiKey: divergent.apiKey,
        apiSecret: divergent.apiSecret,
        secretEncoding: 'base64',
      });
      const response = await fetch(url, { headers: { authorization } });
      const body = (await response.json()) as Record<string, unknown>;
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        requestId: response.headers.get('x-request-id') === body.requestId,
        body: { ...body, requestId: '(same)' },
      };
    };
    expect(await raw(proxy.url)).toEqual(await raw(divergent.url));

    // A caller that does not sign for the proxy is refused by the proxy itself, and nothing reaches the target.
    const unsigned = await fetch(`${proxy.url}/s2s/users/${UNKNOWN}`);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { code: string }).code).toBe('AUTH_MISSING');
    expect(proxy.report().exchanges).toBe(2 * calls.length + 1);

    // The overlay written on close, applied to the spec, makes the spec agree with the target: no drift left.
    await proxy.close();
    proxies.splice(proxies.indexOf(proxy), 1);
    const overlay = parse(readFileSync(`${reportPath}.overlay.yaml`, 'utf8')) as Parameters<typeof applyOverlay>[1];
    expect(overlay.overlay).toBe('1.0.0');
    expect(readFileSync(`${reportPath}.md`, 'utf8')).toContain('| undocumented-status | createBusinessUser |');
    const patchedPath = join(dir, 'openapi.patched.yaml');
    writeFileSync(
      patchedPath,
      stringify(applyOverlay(parse(readFileSync(repoPath('spec/openapi.yaml'), 'utf8')), overlay)),
    );
    const checked = await proxyFor({ encoding: 'base64', specPath: patchedPath });
    const again = clientFor(checked.url, 'base64');
    for (const [, call] of calls) await outcome(() => call(again));
    expect(await drifts(checked)).toEqual([]);
    expect(checked.report().exchanges).toBe(calls.length);
  });

  it("signing as the spec's default against a base64-keyed target: the refusal passes through, reported once with what was signed and the likely cause", async () => {
    const proxy = await proxyFor({ encoding: 'utf8' });
    const direct = clientFor(divergent.url, 'utf8');
    const through = clientFor(proxy.url, 'utf8');
    for (const [name, call] of calls)
      expect(await outcome(() => call(through)), name).toEqual(await outcome(() => call(direct)));
    const refused = (await drifts(proxy)).filter((d) => d.kind === 'signature-refused');
    expect(refused.length, 'one per operation').toBe(calls.length);
    const first = refused[0]!;
    expect(first).toMatchObject({ subject: 'AUTH_SIGNATURE_MISMATCH', observed: '401 AUTH_SIGNATURE_MISMATCH' });
    expect(first.signing?.stringToSign).toMatch(
      new RegExp(`^${divergent.apiKey}POST${divergent.url.toLowerCase()}/s2s/users\\d+[0-9a-f]{32}$`),
    );
    expect(first.signing?.likelyCauses[0]).toBe(
      'secret encoding: signed with the secret as UTF-8 bytes; try --secret-encoding base64',
    );
  });

  it('as a command: prints one line per drift while running, and on SIGTERM writes the report and the overlay', async () => {
    const reportPath = join(dir, 'cli-drift');
    const child = spawn(
      process.execPath,
      [
        repoPath('contract/dist/cli.js'),
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
        reportPath,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /proxy on (http:\/\/\S+)/.exec(output);
        if (found) resolve(found[1]!);
      });
      child.on('exit', (code) => reject(new Error(`the proxy exited (${code}): ${output}`)));
    });
    const through = clientFor(url, 'base64');
    for (let round = 0; round < 2; round++) await outcome(() => calls[1]![1](through));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.split('\n').filter((line) => line.startsWith('drift '))).toEqual([
      expect.stringMatching(
        /^drift problem-code-outside-set: getUser GET \/s2s\/users\/0{8}-0{4}-4000-8000-0{12} at response.body\/code: .*; the target sent "USER_NOT_FOUND"$/,
      ),
    ]);
    const report = JSON.parse(readFileSync(`${reportPath}.json`, 'utf8')) as DriftReport;
    expect(summary(report.drifts)).toEqual([
      { kind: 'problem-code-outside-set', operationId: 'getUser', subject: 'USER_NOT_FOUND' },
    ]);
    expect(readFileSync(`${reportPath}.md`, 'utf8')).toContain('`USER_NOT_FOUND`');
    expect(parse(readFileSync(`${reportPath}.overlay.yaml`, 'utf8'))).toMatchObject({
      overlay: '1.0.0',
      actions: [{ target: '$.components.schemas.ProblemCode.enum', update: 'USER_NOT_FOUND' }],
    });
  });
});
