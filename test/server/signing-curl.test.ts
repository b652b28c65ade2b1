/**
 * A client that shares no code with the SDK: the signature is computed with `openssl dgst -sha256 -hmac` in a shell
 * script and the request sent with `curl` (test/server/curl-signed.sh), against the standalone server, once with its
 * defaults (the five published parts) and once told to require body hashes (`bodyHash`, CLI `--sign-body`).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';

const SCRIPT = fileURLToPath(new URL('./curl-signed.sh', import.meta.url));
let server: MockServer;
let bodyHashServer: MockServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startMockServer({ port: 0, log: (line) => lines.push(line) });
  bodyHashServer = await startMockServer({ port: 0, bodyHash: true });
});
afterAll(() => Promise.all([server.close(), bodyHashServer.close()]));

async function curl(method: string, url: string, body?: string, env: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)('sh', [SCRIPT, method, url, ...(body === undefined ? [] : [body])], {
    env: { ...process.env, API_KEY: 'test_key', API_SECRET: 'test_secret', ...env },
  });
  const [status, ...rest] = stdout.split('\n');
  return { status: Number(status), body: JSON.parse(rest.join('\n')) };
}

const registration = (email: string) =>
  JSON.stringify({
    email,
    firstName: 'Zoë',
    lastName: 'Ångström',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  });

describe('a request signed with openssl (the five published parts) and sent with curl, to the mock with its defaults', () => {
  it('POST with a JSON body (non-ASCII too) is 201, and a GET of the user with a query-free URL is 200', async () => {
    const created = await curl('POST', `${server.url}/s2s/users`, registration('openssl@example.org'));
    expect(created.status).toBe(201);
    expect(created.body.firstName).toBe('Zoë');
    const fetched = await curl('GET', `${server.url}/s2s/users/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(created.body.id);
  });

  it('GET with a query is 200, and upper-case letters in the query verify too', async () => {
    const user = await curl('POST', `${server.url}/s2s/users`, registration('openssl2@example.org'));
    const balances = await curl('GET', `${server.url}/s2s/balances?userId=${user.body.id.toUpperCase()}`);
    // The signature covers the lower-cased URL, so upper case signs and verifies; what the id means is the API's business.
    // (ids are compared as issued, so the upper-case id names no user: past the signature check, a 404 NOT_FOUND).
    expect(balances.status).toBe(404);
    expect(balances.body.code).toBe('NOT_FOUND');
    const lower = await curl('GET', `${server.url}/s2s/balances?userId=${user.body.id}`);
    expect(lower.status).toBe(200);
    expect(Array.isArray(lower.body.items)).toBe(true);
  });

  it('a GUID nonce with dashes, in upper case, is accepted', async () => {
    const nonce = crypto.randomUUID().toUpperCase();
    const user = await curl('POST', `${server.url}/s2s/users`, registration('openssl-guid@example.org'), {
      NONCE: nonce,
    });
    expect(user.status).toBe(201);
  });

  it('a target with /./ or a quote verifies as sent (no normalisation before verifying)', async () => {
    const user = await curl('POST', `${server.url}/s2s/users`, registration('openssl-raw@example.org'));
    const dotted = await curl('GET', `${server.url}/s2s/./users/${user.body.id}`);
    expect(dotted.status).toBe(200);
    expect(dotted.body.id).toBe(user.body.id);
    // Past the signature (a 401 otherwise), the quoted value is no user id: 400 naming it.
    const quoted = await curl('GET', `${server.url}/s2s/balances?userId='x'`);
    expect(quoted.status).toBe(400);
    expect(quoted.body.errors.map((e: { path: string }) => e.path)).toEqual(['query.userId']);
  });

  it('a signature over the body hash as well is a mismatch: the server signs five parts', async () => {
    const hashed = await curl('POST', `${server.url}/s2s/users`, registration('openssl-hash@example.org'), {
      SIGN_BODY: '1',
    });
    expect(hashed.status).toBe(401);
    expect(hashed.body.code).toBe('AUTH_SIGNATURE_MISMATCH');
  });

  it('a wrong secret is 401 with the stringToSign the mock expected, and no log line holds a secret or a signature', async () => {
    const wrong = await curl(
      'GET',
      `${server.url}/s2s/balances?userId=00000000-0000-4000-8000-000000000000`,
      undefined,
      { API_SECRET: 'not_the_secret' },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.stringToSign).toMatch(
      /^test_keyGEThttp:\/\/127\.0\.0\.1:\d+\/s2s\/balances\?userid=0{8}-0{4}-4000-8000-0{12}\d+[0-9a-f]{32}$/,
    );
    expect(lines.some((l) => / 401 .*AUTH_SIGNATURE_MISMATCH/.test(l))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain('test_secret');
      expect(line).not.toContain('not_the_secret');
      expect(line).not.toContain('HMAC-SHA256');
    }
  });
});

describe('the same client against a mock told to require body hashes (bodyHash / --sign-body)', () => {
  it('refuses the five-part signature of a POST with a body, and accepts one with the body hash', async () => {
    const fivePart = await curl('POST', `${bodyHashServer.url}/s2s/users`, registration('hash1@example.org'));
    expect(fivePart.status).toBe(401);
    expect(fivePart.body.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(fivePart.body.detail).toMatch(/body hash/);
    const hashed = await curl('POST', `${bodyHashServer.url}/s2s/users`, registration('hash1@example.org'), {
      SIGN_BODY: '1',
    });
    expect(hashed.status).toBe(201);
  });

  it('a body changed after signing is 401 AUTH_SIGNATURE_MISMATCH with the stringToSign the mock expected', async () => {
    const tampered = await curl('POST', `${bodyHashServer.url}/s2s/users`, registration('hash2@example.org'), {
      SIGN_BODY: '1',
      TAMPER: '1',
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(tampered.body.stringToSign).toMatch(
      /^test_keyPOSThttp:\/\/127\.0\.0\.1:\d+\/s2s\/users\d+[0-9a-f]{32}\S+=$/,
    );
  });
});
