/**
 * The servers `npm run bench:mock` compares beside the mock's CLI, one per child process so that /proc/<pid>/stat
 * gives each one's own CPU time: `bare` (node:http, fixed JSON, no signature check: the load generator's check),
 * `bare-signed` (node:http verifying the same HMAC signature with node:crypto, then fixed JSON: the limit of a signed
 * API), `bridge` (one msw handler through getResponse: the naive bridge), and `ours` (startMockServer, no request
 * log: for the growth and heap runs, which seed it). Started by run.ts with IPC: it answers `{ port }` once
 * listening, `{ heap }` (after a full GC) on `gc`, and seeds `n` users, cards and approvals into the default tenant
 * on `{ seed: n }`.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getResponse, http, HttpResponse } from 'msw';
import { startMockServer } from '../../mock-server/src/node';
import { mockInternals } from '../../mock-server/src/mock/internals';
import { contextOf } from '../../mock-server/src/domain/context';
import { business, settle, users } from '../../mock-server/src/domain';
import { issueCard } from '../../mock-server/src/domain/cards';

/** The body the bare server and the bridge answer: a user as the mock would give it. */
export const FIXED_USER = {
  id: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
  registrationStatus: 'PENDING_CONSENTS',
  requiredConsents: [],
  emailVerified: false,
  kycStatus: 'NOT_STARTED',
  createdAt: '2026-11-21T09:00:00.000Z',
};

const send = (message: unknown) => process.send?.(message);
const kind = process.argv[2];
// SIGTERM ends the process as an exit, so that `--cpu-prof` (BENCH_NODE_ARGS) writes its profile.
process.on('SIGTERM', () => process.exit(0));

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => send({ port: (server.address() as AddressInfo).port }));
}

if (kind === 'bare') {
  const body = JSON.stringify(FIXED_USER);
  listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
} else if (kind === 'bare-signed') {
  listen(bareSigned('test_key', 'test_secret', JSON.stringify(FIXED_USER)));
} else if (kind === 'bridge') {
  const handlers = [http.get('*/s2s/users/:userId', () => HttpResponse.json(FIXED_USER))];
  listen((req, res) => {
    req.resume();
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    void getResponse(
      handlers,
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers }),
    ).then(async (response) => {
      const text = response ? await response.text() : '';
      res.writeHead(response?.status ?? 404, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
} else if (kind === 'ours' || kind === 'ours-state') {
  const stateFile = kind === 'ours-state' ? join(mkdtempSync(join(tmpdir(), 'cim-bench-')), 'state.json') : undefined;
  const server = await startMockServer({ port: 0, ...(stateFile ? { stateFile } : {}) });
  const tenant = mockInternals(server.mock).runtime.tenants.default;
  process.on('message', (message: { seed?: number }) => {
    if (message.seed !== undefined) send({ seeded: seed(tenant.state, message.seed) });
  });
  send({ port: server.port });
} else {
  throw new Error(`Unknown server kind ${kind}`);
}

process.on('message', (message: unknown) => {
  if (message === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    send({ heap: process.memoryUsage().heapUsed });
  }
});

/**
 * The least a server must do per signed request, written as a careful hand-written server would: the HMAC key
 * object made once, the string to sign built from the header's parts, the HMAC, a timing-safe compare of the
 * decoded signature, the timestamp window, and a nonce set (two generations of at most 10,000, so that memory stays
 * bounded and a lookup is O(1)). The scheme is the published one (apiKey + METHOD + lower-case URL + timestamp +
 * nonce), written here again with node:crypto alone, so this peer shares no code with the SDK or the mock.
 */
function bareSigned(apiKey: string, secret: string, body: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const ok = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  const refused = '{"code":"AUTH_SIGNATURE_MISMATCH"}';
  const no = { 'content-type': 'application/problem+json', 'content-length': String(refused.length) };
  let nonces = new Set<string>();
  let older = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const header = req.headers.authorization ?? '';
    const parts = header.startsWith('HMAC-SHA256 ') ? header.slice(12).split(':') : [];
    const [key_, signature, nonce, timestamp] = parts as [string, string, string, string];
    const fresh = parts.length === 4 && Math.abs(Number(timestamp) - Date.now() / 1000) <= 300;
    const given = fresh ? Buffer.from(signature, 'base64') : undefined;
    const expected =
      given?.length === 32 && key_ === apiKey
        ? createHmac('sha256', key)
            .update(`${apiKey}${req.method}${`http://${req.headers.host}${req.url}`.toLowerCase()}${timestamp}${nonce}`)
            .digest()
        : undefined;
    const id = nonce?.toLowerCase();
    if (!expected || !timingSafeEqual(given!, expected) || nonces.has(id) || older.has(id)) {
      res.writeHead(401, no);
      res.end(refused);
      return;
    }
    nonces.add(id);
    if (nonces.size >= 10_000) [older, nonces] = [nonces, new Set()];
    res.writeHead(200, ok);
    res.end(body);
  };
}

/**
 * `n` Server2Server users with one virtual card each, and `n` registered business users with one DELIVERED
 * approval each (its card, and a due-time queue entry at validTo), straight through the domain functions.
 */
function seed(state: Parameters<typeof contextOf>[0], n: number): { userId: string } {
  const ctx = contextOf(state);
  let first = '';
  const corporate = Object.values(state.corporates)[0]!;
  const validFrom = new Date(ctx.now - 86_400_000).toISOString();
  const validTo = new Date(ctx.now + 365 * 86_400_000).toISOString();
  for (let i = 0; i < n; i++) {
    const user = users.createUser(ctx, {
      email: `seed.${i}@example.org`,
      firstName: 'Seed',
      lastName: `User${i}`,
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    });
    first ||= user.id;
    issueCard(ctx, {
      userId: user.id,
      type: 'VIRTUAL',
      status: 'ACTIVE',
      cardholderName: 'Seed User',
      configId: null,
      visualId: null,
      corporateUuid: null,
      approvalUuid: null,
    });
    const holder = business.createBusinessUser(ctx, {
      name: 'Seed',
      lastName: `Holder${i}`,
      email: `holder.${i}@example.org`,
      phone: '+12025550143',
    });
    business.completeRegistration(ctx, holder.userUuid);
    business.createApproval(ctx, corporate.corporateUuid, {
      userUuid: holder.userUuid,
      budget: { amount: 100, currency: 'EUR' },
      validFrom,
      validTo,
    });
  }
  // The approvals move to DELIVERED now, not in the first measured request.
  settle(ctx);
  return { userId: first };
}
