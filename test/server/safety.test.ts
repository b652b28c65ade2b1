/**
 * The standalone mock is safe to leave running (contract section 7), tried as a hostile page or network would:
 * raw requests with chosen `Origin` and `Host` headers, oversized targets, bodies and headers, bytes that are not
 * UTF-8, forged signatures against another tenant's faults. Each check also proves that nothing changed.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../sdk/src/index';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { control, newUser, runCli, signedFetch } from './helpers.js';

let server: MockServer;
let port: number;

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    allowedHosts: ['mock.internal'],
    corsOrigins: ['https://app.example.test'],
  });
  port = server.port;
});
afterAll(() => server.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => unknown;
}

/** A raw HTTP request, so that the test controls the exact target, Host and Origin. */
function raw(options: {
  method?: string;
  path: string;
  host?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: options.host ?? `127.0.0.1:${port}`, ...options.headers },
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

const stateText = async () => JSON.stringify((await control(server.url, 'GET', '/state')).body);

describe('a cross-site request (a page on another origin) changes nothing', () => {
  const evil = { Origin: 'https://evil.example', 'Content-Type': 'text/plain' };

  it.each([
    ['POST', '/__mock/faults', JSON.stringify({ path: '*', status: 500, times: 100 })],
    ['POST', '/__mock/reset', ''],
    [
      'POST',
      '/__mock/deposits/incoming',
      JSON.stringify({ balanceId: '2e8f4b6a-7c1d-4a3e-9f5b-6d0c8a2e4b17', type: 'USDC', amount: '1' }),
    ],
    ['POST', '/__mock/credentials', JSON.stringify({ apiKey: 'evil', apiSecret: 'evil' })],
    ['PUT', '/__mock/state', '{}'],
    ['GET', '/__mock/fixtures', undefined],
    ['POST', '/s2s/users', JSON.stringify(newUser('evil'))],
  ])('%s %s is 403 ORIGIN_NOT_ALLOWED problem+json', async (method, path, body) => {
    const before = await stateText();
    const res = await raw({ method, path, headers: evil, ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json()).toMatchObject({ status: 403, code: 'ORIGIN_NOT_ALLOWED' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(await stateText()).toBe(before);
  });

  it('after them all, the next API call works (no fault was injected) and no tenant was added', async () => {
    expect((await signedFetch(server.url, 'POST', '/s2s/users', { body: newUser('after-evil') })).status).toBe(201);
    expect(server.mock.exportState().tenants.map((t) => t.apiKey)).toEqual(['test_key']);
  });

  it('a preflight from that origin is 403; from a local origin or a --cors-origin it is allowed, with CORS headers', async () => {
    const preflight = (origin: string) =>
      raw({
        method: 'OPTIONS',
        path: '/__mock/faults',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
    expect((await preflight('https://evil.example')).status).toBe(403);
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'https://app.example.test',
      `http://mock.internal:${port}`,
    ]) {
      const res = await preflight(origin);
      expect([origin, res.status]).toEqual([origin, 204]);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    const fromApp = await raw({ path: '/__mock/clock', headers: { Origin: 'https://app.example.test' } });
    expect(fromApp.status).toBe(200);
    expect(fromApp.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect((await raw({ path: '/__mock/clock', headers: { Origin: 'null' } })).status).toBe(403);
  });
});

describe('a foreign Host (DNS rebinding) changes nothing', () => {
  it('GET /__mock/fixtures and PUT /__mock/state with Host rebind.evil.example are 403 HOST_NOT_ALLOWED', async () => {
    const before = await stateText();
    const read = await raw({ path: '/__mock/fixtures', host: `rebind.evil.example:${port}` });
    expect(read.status).toBe(403);
    expect(read.json()).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    expect(read.text).not.toContain('test_secret');
    const write = await raw({
      method: 'PUT',
      path: '/__mock/state',
      host: `rebind.evil.example:${port}`,
      body: before,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(write.status).toBe(403);
    expect(await stateText()).toBe(before);
  });

  it('the listen address, localhost and an --allowed-host are served', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `mock.internal:${port}`,
      'mock.internal',
    ]) {
      expect([host, (await raw({ path: '/__mock/clock', host })).status]).toEqual([host, 200]);
    }
  });
});

describe('no unsigned route returns a secret; another tenant takes its own signature', () => {
  it('fixtures, reset, state and credentials answer without any secret', async () => {
    const added = await control(server.url, 'POST', '/credentials', { apiKey: 'tenant_s', apiSecret: 'secret_s_123' });
    expect(added.status).toBe(201);
    for (const path of ['/fixtures', '/state', '/clock']) {
      expect(JSON.stringify((await control(server.url, 'GET', path)).body)).not.toMatch(/test_secret|secret_s_123/);
    }
    expect(JSON.stringify(added.body)).not.toContain('secret_s_123');
    const unsigned = await control(server.url, 'GET', '/state?apiKey=tenant_s');
    expect(unsigned.status).toBe(401);
    const signed = await control(server.url, 'GET', '/state', undefined, {
      apiKey: 'tenant_s',
      apiSecret: 'secret_s_123',
    });
    expect(signed.status).toBe(200);
    expect(signed.body.apiKey).toBe('tenant_s');
  });
});

describe('bad input is a clear 4xx that changes nothing', () => {
  it('a target over 8 KiB is 414 URI_TOO_LONG problem+json (it was a 500)', async () => {
    const res = await raw({ path: `/s2s/users/${'a'.repeat(9000)}` });
    expect(res.status).toBe(414);
    expect(res.json()).toMatchObject({ code: 'URI_TOO_LONG' });
  });

  it("an API body over the spec's 64 KiB is 413 PAYLOAD_TOO_LARGE, before the signature, and nothing is created", async () => {
    const body = JSON.stringify({ ...newUser('big'), firstName: 'x'.repeat(70 * 1024) });
    const before = await stateText();
    const res = await signedFetch(server.url, 'POST', '/s2s/users', { body: JSON.parse(body) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await stateText()).toBe(before);
  });

  it("headers over Node's limit are 431 HEADERS_TOO_LARGE problem+json", async () => {
    const res = await raw({ path: '/__mock/clock', headers: { 'X-Big': 'x'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'HEADERS_TOO_LARGE' });
  });

  it('a body that is not UTF-8 (inside a JSON string) is 400 MALFORMED_JSON, and no user is created', async () => {
    const text = JSON.stringify({ ...newUser('utf8'), firstName: 'ZZZZ' });
    const bytes = Buffer.from(text, 'utf8');
    const at = bytes.indexOf('ZZZZ');
    bytes[at] = 0xc3; // a lead byte followed by ASCII: not UTF-8
    bytes[at + 1] = 0x28;
    const url = `${server.url}/s2s/users`;
    const { authorization } = await signRequest({
      method: 'POST',
      url,
      body: bytes,
      apiKey: 'test_key',
      apiSecret: 'test_secret',
    });
    const before = await stateText();
    const res = await fetch(url, {
      method: 'POST',
      body: bytes,
      headers: { authorization, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('MALFORMED_JSON');
    expect(await stateText()).toBe(before);
  });

  it('a fault pattern of many stars is matched at once against a long path (it froze the server for 21 s)', async () => {
    const injected = await control(server.url, 'POST', '/faults', { path: `${'*a'.repeat(200)}*b`, status: 500 });
    expect(injected.status).toBe(201);
    const res = await signedFetch(server.url, 'GET', `/s2s/users/${'a'.repeat(4000)}`);
    expect(res.status).toBe(400); // no fault matched (no "b"), the path parameter is invalid
    const tooLong = await control(server.url, 'POST', '/faults', {
      path: '*'.repeat(10) + 'x'.repeat(600),
      status: 500,
    });
    expect(tooLong.status).toBe(400);
    await control(server.url, 'POST', '/reset');
  });
});

describe('faults are applied only after the signature is verified', () => {
  it("a forged request with another tenant's key does not use up that tenant's fault", async () => {
    const owner = { apiKey: 'fault_owner', apiSecret: 'owner_secret_1' };
    await control(server.url, 'POST', '/credentials', owner);
    expect(
      (await control(server.url, 'POST', '/faults', { path: '/s2s/users/*', status: 503, times: 1 }, owner)).status,
    ).toBe(201);
    const path = `/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01`;
    const forged = await signedFetch(server.url, 'GET', path, {
      credentials: { apiKey: owner.apiKey, apiSecret: 'guessed' },
    });
    expect(forged.status).toBe(401);
    expect((await signedFetch(server.url, 'GET', path, { credentials: owner })).status).toBe(503);
    expect((await signedFetch(server.url, 'GET', path, { credentials: owner })).status).toBe(404);
  });
});

describe('--host 0.0.0.0', () => {
  it('prints a warning and every address the mock is reachable at', async () => {
    const cli = runCli(['--host', '0.0.0.0', '--port', '0']);
    try {
      await cli.waitFor(/One line per request/);
      expect(cli.stdout).toMatch(/WARNING: --host 0\.0\.0\.0 makes the mock reachable from other machines/);
      expect(cli.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});

describe('the command line', () => {
  it('--sign-body and --public-url show in the banner; a secret read from a state file is never printed', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { writeStateFile } = await import('../../mock-server/src/node/state-file/index.js');
    const file = join(mkdtempSync(join(tmpdir(), 'mock-cli-')), 'state.json');
    const seeded = await startMockServer({ port: 0 });
    seeded.mock.addCredentials({ apiKey: 'saved_tenant', apiSecret: 'saved_secret_value' });
    await writeStateFile(file, seeded.mock.exportState());
    await seeded.close();
    const cli = runCli([
      '--port',
      '0',
      '--sign-body',
      '--public-url',
      'https://mock.example.test',
      '--state-file',
      file,
    ]);
    try {
      await cli.waitFor(/One line per request/);
      expect(cli.stdout).toMatch(/body hash required: --sign-body/);
      expect(cli.stdout).toMatch(/Public URL\s+https:\/\/mock\.example\.test/);
      expect(cli.stdout).toMatch(/apiKey saved_tenant/);
      expect(cli.stdout).not.toContain('saved_secret_value');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('refuses a --public-url, --allowed-host or --cors-origin that is not one, with exit 2 and the usage', async () => {
    for (const args of [
      ['--public-url', 'mock.example.test'],
      ['--allowed-host', 'a b'],
      ['--cors-origin', 'https://app.example.test/path'],
    ]) {
      const cli = runCli(args);
      const { code } = await cli.exited;
      expect([args[0], code]).toEqual([args[0], 2]);
      expect(cli.stderr).toContain(args[0]);
      expect(cli.stderr).toContain('Usage:');
    }
  });
});
