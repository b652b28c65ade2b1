/**
 * The request target as the standalone server routes it: a plain target is taken as it is, any other goes through
 * the WHATWG parser (dot segments resolved, characters encoded), and a Host that forms no URL is refused.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/src/node/start.js';

let server: MockServer;
let userId: string;

beforeAll(async () => {
  server = await startMockServer({ port: 0, verifySignatures: false });
  const created = await raw('POST', '/s2s/users', {
    body: JSON.stringify({
      email: 'target@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    }),
  });
  userId = (JSON.parse(created.body) as { id: string }).id;
});
afterAll(() => server.close());

/** A request with exactly this target and Host (fetch would normalise the one and refuse to set the other). */
function raw(
  method: string,
  target: string,
  { host, body }: { host?: string; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path: target,
        headers: {
          host: host ?? `127.0.0.1:${server.port}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const codeOf = (body: string) => (JSON.parse(body) as { code?: string }).code;

describe('the request target', () => {
  it('routes a plain path as it is, and a path with dot segments as the WHATWG parser resolves it', async () => {
    expect((await raw('GET', `/s2s/users/${userId}`)).status).toBe(200);
    expect((await raw('GET', `/s2s/./users/${userId}`)).status).toBe(200);
    expect((await raw('GET', `/s2s/cards/../users/${userId}`)).status).toBe(200);
    expect((await raw('GET', `/s2s/%2e/users/${userId}`)).status).toBe(200);
    const missing = await raw('GET', '/s2s/nothing/here');
    expect([missing.status, codeOf(missing.body)]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it('reads a query the parser would encode as the parser gives it', async () => {
    const quoted = await raw('GET', `/s2s/cards?userId=${userId}&x='`);
    expect([quoted.status, codeOf(quoted.body)]).toEqual([400, 'VALIDATION_FAILED']);
    expect(quoted.body).toContain('query.x');
  });

  it('refuses a Host that forms no URL with 400 MALFORMED_REQUEST, each time', async () => {
    for (let i = 0; i < 2; i++) {
      const bad = await raw('GET', `/s2s/users/${userId}`, { host: '127.0.0.1:99999' });
      expect([bad.status, codeOf(bad.body)]).toEqual([400, 'MALFORMED_REQUEST']);
    }
  });
});
