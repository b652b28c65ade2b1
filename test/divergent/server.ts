/**
 * A server that imitates a real service differing from the spec in known ways, to show that `card-issuing-contract
 * run` and `proxy` report exactly those differences. It is the standalone mock behind a node:http front that plants:
 *
 * 1. a renamed field: a user's `dateOfBirth` is sent as `birthDate` (createUser, getUser, confirmEmail, ...);
 * 2. an undocumented status: createBusinessUser answers 200 where the spec documents 201;
 * 3. a problem code outside the closed set: getUser of an unknown user is 404 `USER_NOT_FOUND`, not `NOT_FOUND`;
 * 4. signing with a base64-decoded secret: the HMAC key is the secret's base64-decoded bytes, not its UTF-8 bytes.
 *
 * Like a real service it has no control API (`/__mock/...` is 404) and never names the expected string to sign.
 * Its signature check is its own (node:crypto), not the SDK's, as another team's server would be.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from 'card-issuing-sdk';
import { startMockServer } from 'card-issuing-mock/node';

/** The differences planted, as `run` and `proxy` should name them. */
export const PLANTED = {
  renamedField: { operations: ['createUser', 'getUser'], from: 'dateOfBirth', to: 'birthDate' },
  undocumentedStatus: { operation: 'createBusinessUser', status: 200 },
  problemCode: { operation: 'getUser', code: 'USER_NOT_FOUND' },
  secretEncoding: 'base64',
} as const;

/** A running divergent server. */
export interface DivergentServer {
  url: string;
  apiKey: string;
  /** A base64 string: the server's HMAC key is its decoded bytes. */
  apiSecret: string;
  /** A corporate of its tenant, for the business tests (a real sandbox would give one to the integrator). */
  corporate: { corporateUuid: string; currency: string };
  close(): Promise<void>;
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const SCHEME = /^HMAC-SHA256 ([^:\s]+):([A-Za-z0-9+/]+=*):([0-9a-fA-F]{32}|[0-9a-fA-F-]{36}):(\d{1,12})$/;

function problem(res: ServerResponse, status: number, code: string, detail: string): void {
  const requestId = `req_${randomBytes(8).toString('hex')}`;
  res.writeHead(status, { 'content-type': 'application/problem+json', 'x-request-id': requestId });
  res.end(JSON.stringify({ type: 'about:blank', title: 'Request refused', status, code, detail, requestId }));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the mock on a free port and the divergent front before it. */
export async function startDivergentServer(): Promise<DivergentServer> {
  const backend = await startMockServer({ port: 0, host: '127.0.0.1' });
  const fixtures = (await (await fetch(`${backend.url}/__mock/fixtures`)).json()) as {
    corporates: { corporateUuid: string; balance: { currency: string } }[];
  };
  const apiKey = 'divergent_key';
  const apiSecret = randomBytes(32).toString('base64');
  const key = Buffer.from(apiSecret, 'base64');
  const nonces = new Set<string>();

  /** The service's check, with the base64-decoded secret as the HMAC key (planted difference 4). */
  function verify(
    method: string,
    url: string,
    authorization: string | undefined,
  ): { code: string; detail: string } | undefined {
    if (!authorization) return { code: 'AUTH_MISSING', detail: 'No Authorization header.' };
    const parts = SCHEME.exec(authorization);
    if (!parts)
      return {
        code: 'AUTH_MALFORMED',
        detail: 'Authorization is not HMAC-SHA256 <key>:<signature>:<nonce>:<timestamp>.',
      };
    const [, apiKeyGiven, signature, nonce, timestamp] = parts as unknown as [string, string, string, string, string];
    if (apiKeyGiven !== apiKey) return { code: 'AUTH_UNKNOWN_KEY', detail: 'Unknown api key.' };
    if (Math.abs(Number(timestamp) - Math.floor(Date.now() / 1000)) > 300)
      return { code: 'AUTH_TIMESTAMP_SKEW', detail: 'Timestamp out of range.' };
    const expected = createHmac('sha256', key)
      .update(`${apiKey}${method.toUpperCase()}${url.toLowerCase()}${timestamp}${nonce}`, 'utf8')
      .digest();
    const given = Buffer.from(signature, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { code: 'AUTH_SIGNATURE_MISMATCH', detail: 'Signature mismatch.' };
    const seen = nonce.replaceAll('-', '').toLowerCase();
    if (nonces.has(seen)) return { code: 'AUTH_NONCE_REUSED', detail: 'Nonce reused.' };
    nonces.add(seen);
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const path = target.split('?')[0]!;
    if (path.startsWith('/__mock')) return problem(res, 404, 'ROUTE_NOT_FOUND', 'No such route.');
    const body = await readBody(req);
    const refused = verify(method, `http://${req.headers.host}${target}`, req.headers.authorization);
    if (refused) return problem(res, 401, refused.code, refused.detail);

    // Behind the front, the mock answers for its default tenant.
    const backendUrl = `${backend.url}${target}`;
    const { authorization } = await signRequest({
      method,
      url: backendUrl,
      apiKey: 'test_key',
      apiSecret: 'test_secret',
    });
    const headers: Record<string, string> = { authorization };
    for (const name of ['content-type', 'idempotency-key'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    const response = await fetch(backendUrl, {
      method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    let status = response.status;
    let text = await response.text();
    const type = response.headers.get('content-type') ?? '';

    if (type.startsWith('application/json') && text.includes('"dateOfBirth"')) {
      // Planted difference 1: the field is named birthDate (in a user, wherever one is sent).
      const rename = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(rename);
        if (value === null || typeof value !== 'object') return value;
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k === 'dateOfBirth' ? 'birthDate' : k, rename(v)]),
        );
      };
      text = JSON.stringify(rename(JSON.parse(text)));
    }
    // Planted difference 2: 200 where the spec documents 201.
    if (method === 'POST' && path === '/corporates/users' && status === 201) status = 200;
    // Planted difference 3: a code of its own for an unknown user.
    if (method === 'GET' && new RegExp(`^/s2s/users/${UUID}$`).test(path) && status === 404) {
      const problemBody = JSON.parse(text) as { code?: string };
      if (problemBody.code === 'NOT_FOUND') text = JSON.stringify({ ...problemBody, code: 'USER_NOT_FOUND' });
    }

    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(name))
        out[name] = value;
    });
    res.writeHead(status, out);
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) problem(res, 500, 'INTERNAL', (error as Error).message);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const corporate = fixtures.corporates[0]!;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    apiSecret,
    corporate: { corporateUuid: corporate.corporateUuid, currency: corporate.balance.currency },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}
