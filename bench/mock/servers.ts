/**
 * The servers `npm run bench:mock` compares, one per child process so that /proc/<pid>/stat gives each one's own
 * CPU time: `bare` (node:http, fixed JSON: the limit), `bridge` (one msw handler through getResponse: the naive
 * bridge), `ours` (startMockServer, no request log, as the others have none) and `ours-state` (the same with a
 * state file). Started by run.ts with IPC: it answers `{ port }` once listening, `{ heap }` (after a full GC) on
 * `gc`, and seeds `n` users, cards and approvals into the default tenant on `{ seed: n }`.
 */
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
