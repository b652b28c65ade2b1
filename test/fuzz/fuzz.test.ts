/**
 * `npm run test:fuzz`: every one of the 32 operations of spec/openapi.yaml, with inputs generated from the spec's
 * own schemas (test/fuzz/generate.ts): schema-valid ones, and ones broken at one place (path, query, header or
 * body), sent signed over real HTTP to the standalone mock after a setup that gives the generator real ids. Every
 * exchange is judged by the independent Ajv checker (test/conformance/validator.ts). The run fails on any 5xx, any
 * response that breaks the spec, and any schema-valid request refused as invalid. Deterministic for FUZZ_SEED;
 * `npm test` runs 24 cases per operation, `npm run test:fuzz` 200 (FUZZ_CASES).
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { createConformanceChecker, type Finding } from 'card-issuing-contract/conformance';
import { signedInit } from '../helpers/signed-request';
import { repoPath } from '../helpers/spec';
import { Generator, Random, type Pools, type Schema } from './generate';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CASES = Number(process.env.FUZZ_CASES ?? 24); // per operation, half valid, half broken
/** The parts of an OpenAPI parameter and operation the run reads. */
interface ParameterNode {
  $ref?: string;
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}
interface OperationNode {
  operationId: string;
  parameters?: ParameterNode[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}
type PathItem = { parameters?: ParameterNode[] } & { [method: string]: OperationNode | undefined };
const doc = parse(readFileSync(repoPath('spec/openapi.yaml'), 'utf8')) as { paths: Record<string, PathItem> };

interface Op {
  operationId: string;
  method: string;
  path: string;
  parameters: ParameterNode[];
  body: Schema | undefined;
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const op = item[method];
      if (!op) continue;
      const gen = new Generator(doc, new Random(0), { ids: {}, publicKey: '' });
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => gen.resolve(p));
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters,
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

let server: MockServer;
let pools: Pools;

beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 'fuzz' });
  const mock = server.mock;
  const client = createCardIssuingClient({
    baseUrl: server.url,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    retry: false,
  });
  const fixtures = mock.fixtures();
  // A user with every card prerequisite, a card, a funded balance with a verification, a business user and an approval.
  const user = await client.s2s.users.create({
    email: 'fuzz.setup@example.org',
    firstName: 'Fuzz',
    lastName: 'Setup',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  });
  for (const consent of fixtures.consents) await client.s2s.consents.sign(user.id, consent.id);
  await client.s2s.email.requestOtp(user.id);
  await client.s2s.email.confirm(user.id, { code: mock.outbox(user.id).at(-1)!.code! });
  mock.kyc(user.id, 'PASSED');
  const config = fixtures.cardConfigs.find((c) => c.price === null)!;
  const card = await client.s2s.cards.create(user.id, { configId: config.configId, visualId: config.visualIds[0]! });
  const balanceId = (await client.s2s.balances.list(user.id)).items[0]!.id;
  await client.s2s.deposits.createAddress(balanceId, 'USDC', { network: 'ETHEREUM' });
  const incoming = mock.deposits.incoming({ balanceId, type: 'USDC', amount: '500', requiresVerification: true });
  const business = await client.corporates.users.create({
    name: 'Fuzz',
    lastName: 'Corp',
    email: 'fuzz.corp@example.org',
    phone: '+12025550143',
  });
  mock.users.completeRegistration(business.userUuid);
  const corporate = fixtures.corporates[0]!;
  const approval = await client.corporates.approvals.create(corporate.corporateUuid, {
    userUuid: business.userUuid,
    budget: { amount: 10_000, currency: 'EUR' },
    validFrom: new Date(Date.now() - 60_000).toISOString(),
    validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  const cardId = 'id' in card ? card.id : card.cardId;
  const verificationId = 'verification' in incoming ? incoming.verification.id : undefined;
  const userIds = [user.id];
  const consentIds = fixtures.consents.map((c) => c.id);
  pools = {
    ids: {
      userId: userIds,
      userUuid: [user.id, business.userUuid],
      consentId: consentIds,
      consentUuid: consentIds,
      cardId: [cardId, approval.card.id],
      balanceId: [balanceId],
      balanceUuid: [balanceId],
      corporateUuid: fixtures.corporates.map((c) => c.corporateUuid),
      approvalUuid: [approval.approvalUuid],
      id: verificationId ? [verificationId] : [],
      configId: fixtures.cardConfigs.map((c) => c.configId),
      visualId: fixtures.cardConfigs.flatMap((c) => c.visualIds),
      type: fixtures.depositTypes.map((d) => d.type),
    },
    publicKey: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64url'),
  };
}, 60_000);
afterAll(() => server?.close());

interface Sent {
  valid: boolean;
  what: string;
  status: number;
  code: string | undefined;
  findings: Finding[];
}

async function send(op: Op, gen: Generator, valid: boolean): Promise<Sent> {
  const r = gen.random;
  // Which part is broken for an invalid case: a parameter or the body.
  const breakable = [
    ...op.parameters.filter((p) => p.in !== 'header').map((p) => `${p.in}:${p.name}`),
    ...(op.body ? ['body', 'raw-body'] : []),
    'query:unknown',
  ];
  const broken = valid ? undefined : r.pick(breakable);
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of op.parameters) {
    const isBroken = broken === `${p.in}:${p.name}`;
    if (!p.required && !isBroken && r.chance(0.5)) continue;
    const value = isBroken ? gen.invalid(p.schema, p.name) : gen.valid(p.schema, p.name);
    const text = value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    // An empty segment would be another route (404 ROUTE_NOT_FOUND), not a bad value of this one.
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text) || '-');
    else if (p.in === 'query') query.set(p.name, text);
    else if (p.in === 'header') headers[p.name] = text.replace(/[^\x21-\x7E]/g, '') || 'k';
  }
  if (broken === 'query:unknown') query.set(`unknown${r.hex(3)}`, 'x');
  let body: string | undefined;
  if (op.body) {
    if (broken === 'raw-body') body = r.pick(['{"unterminated": ', 'null', '[]', '', '{"a":1}'.repeat(3)]);
    else body = JSON.stringify(broken === 'body' ? gen.invalid(op.body) : gen.valid(op.body));
    headers['content-type'] = 'application/json';
  }
  const url = `${server.url}${path}${query.size ? `?${query}` : ''}`;
  const init = await signedInit({ method: op.method, url, headers, ...(body === undefined ? {} : { body }) });
  const response = await fetch(url, init as RequestInit);
  const text = await response.text();
  const findings = checker.check({
    method: op.method,
    url,
    requestHeaders: init.headers,
    requestBody: body,
    status: response.status,
    responseHeaders: response.headers,
    responseBody: text,
  });
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  return {
    valid,
    what: `${op.operationId} ${op.method} ${url.slice(server.url.length)}${broken ? ` (broken: ${broken})` : ''}`,
    status: response.status,
    code,
    findings,
  };
}

const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml') });

describe(`fuzz: every operation, schema-valid and broken inputs (seed ${SEED}, ${CASES} cases each)`, () => {
  const ops = operations();

  it('covers the 32 operations of the spec', () => {
    expect(ops).toHaveLength(32);
  });

  it('finds no 5xx, no response that breaks the spec, and no valid request refused as invalid', async () => {
    const results: Sent[] = [];
    for (const [i, op] of ops.entries()) {
      const gen = new Generator(doc, new Random(SEED + i), pools);
      for (let n = 0; n < CASES; n++) results.push(await send(op, gen, n % 2 === 0));
    }
    const histogram = (valid: boolean) => {
      const counts: Record<string, number> = {};
      for (const s of results.filter((r) => r.valid === valid))
        counts[`${s.status}${s.code ? ` ${s.code}` : ''}`] =
          (counts[`${s.status}${s.code ? ` ${s.code}` : ''}`] ?? 0) + 1;
      return Object.entries(counts)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
    };
    console.log(`fuzz: ${results.length} requests\n  valid:  ${histogram(true)}\n  broken: ${histogram(false)}`);
    const serverErrors = results.filter((s) => s.status >= 500).map((s) => `${s.what} -> ${s.status} ${s.code}`);
    const breaking = results.flatMap((s) =>
      s.findings.map((f) => `${s.what} -> ${s.status}: ${f.location} ${f.message}`),
    );
    const refusedValid = results.filter((s) => s.valid && s.code === 'VALIDATION_FAILED').map((s) => s.what);
    expect(serverErrors).toEqual([]);
    expect(breaking).toEqual([]);
    expect(refusedValid).toEqual([]);
    expect(checker.coverage().missing).toEqual([]);
    // Both kinds ran: some valid requests succeeded, some broken ones were refused.
    expect(results.some((s) => s.valid && s.status < 300)).toBe(true);
    expect(results.some((s) => !s.valid && s.status === 400)).toBe(true);
  }, 300_000);
});
