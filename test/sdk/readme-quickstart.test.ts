import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Consent, User } from '../../sdk/generated/types.gen';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';
import { API_KEY, API_SECRET, problem, signedServer, specExample } from './support';

// The README's quickstart (the first ```ts block under "### Quickstart") runs against a base URL it
// reads from CARD_ISSUING_BASE_URL. Here that URL is served in-process by msw handlers (a tiny stateful fake that
// verifies every signature); `import ... from 'card-issuing-sdk'` is pointed at the source entry, which is what
// the package's self-reference resolves to once built. With the real mock: start `card-issuing-mock` and run the
// block with `CARD_ISSUING_BASE_URL=http://127.0.0.1:4010 npx tsx quickstart.ts` (its defaults are the mock's
// test_key/test_secret), or swap the handlers below for `createMock().handlers`.
const BASE = 'http://quickstart.test';

/** The first ```ts block of the README's "### Quickstart" (under "## Using the SDK"). */
const quickstartSource = (): string => codeBlockOf(repoPath('README.md'), 'Quickstart');

const api = signedServer(BASE);
const users = new Map<string, User>();
const consentTemplate = specExample('POST', '/s2s/users').example as User;

api.respond(async (request) => {
  const path = request.url.pathname;
  if (request.method === 'POST' && path === '/s2s/users') {
    const body = JSON.parse(request.body) as Pick<
      User,
      'email' | 'firstName' | 'lastName' | 'phone' | 'dateOfBirth' | 'country'
    >;
    const user: User = {
      ...consentTemplate,
      ...body,
      id: randomUUID(),
      registrationStatus: 'PENDING_CONSENTS',
      requiredConsents: consentTemplate.requiredConsents.map((c) => ({ ...c, id: randomUUID() })),
    };
    users.set(user.id, user);
    return HttpResponse.json(user, { status: 201, headers: { 'x-request-id': 'req_create' } });
  }
  const sign = /^\/s2s\/users\/([^/]+)\/consents\/([^/]+)\/sign$/.exec(path);
  if (request.method === 'POST' && sign) {
    const user = users.get(sign[1]!);
    const consent = user?.requiredConsents.find((c) => c.id === sign[2]);
    if (!user || !consent) return problem(404, 'NOT_FOUND', 'No such consent.');
    const signed: Consent = { ...consent, signed: true, signedAt: '2026-11-21T09:31:00Z' };
    const requiredConsents = user.requiredConsents.map((c) => (c.id === signed.id ? signed : c));
    users.set(user.id, {
      ...user,
      requiredConsents,
      registrationStatus: requiredConsents.every((c) => c.signed) ? 'COMPLETED' : 'PENDING_CONSENTS',
    });
    return HttpResponse.json(signed);
  }
  const get = /^\/s2s\/users\/([^/]+)$/.exec(path);
  if (request.method === 'GET' && get) {
    const user = users.get(get[1]!);
    return user
      ? HttpResponse.json(user, { headers: { 'x-request-id': 'req_get' } })
      : problem(404, 'NOT_FOUND', `No user ${get[1]}.`);
  }
  return undefined; // the spec's example (card configs)
});

const file = repoPath(`test/sdk/.quickstart-${process.pid}.tmp.ts`);
const env = { ...process.env };
beforeAll(() => {
  api.server.listen({ onUnhandledFrame: 'error' });
  Object.assign(process.env, {
    CARD_ISSUING_BASE_URL: BASE,
    CARD_ISSUING_API_KEY: API_KEY,
    CARD_ISSUING_API_SECRET: API_SECRET,
  });
});
afterAll(() => {
  api.server.close();
  process.env = env;
  rmSync(file, { force: true });
});

describe('README quickstart', () => {
  it('runs as written: every request signed, and it prints what it says it prints', async () => {
    const source = quickstartSource();
    expect(source).toMatch(/from 'card-issuing-sdk'/);
    // The block ends with `main().catch(...)` (no top-level await: it runs in CommonJS projects too); exported here
    // so that the test can wait for it. The consumer matrix runs it untouched from the packed tarball.
    expect(source).toMatch(/^main\(\)\.catch\(/m);
    const runnable = source
      .replace(/from 'card-issuing-sdk'/g, `from ${JSON.stringify(repoPath('sdk/src/index.ts'))}`)
      .replace(/^main\(\)\.catch\(/m, 'export const done = main().catch(');
    writeFileSync(file, runnable);
    const printed: string[] = [];
    const log = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    try {
      await ((await import(/* @vite-ignore */ file)) as { done: Promise<void> }).done;
    } finally {
      log.mockRestore();
    }
    expect(api.seen.length).toBeGreaterThanOrEqual(4);
    expect(api.seen.every((r) => r.signatureOk)).toBe(true);
    expect(printed).toContain('COMPLETED req_get');
    expect(printed.some((line) => line.startsWith('NOT_FOUND req_'))).toBe(true);
    expect(printed.some((line) => line.includes('Virtual Plus (VIRTUAL)'))).toBe(true);
  });
});
