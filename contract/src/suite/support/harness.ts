/**
 * The harness every contract test file uses: a signed SDK client and a raw HTTP sender, both through the
 * conformance recorder for real HTTP (every exchange is checked against `spec/openapi.yaml` by the independent
 * checker), a tenant of the file's own when the server is the mock, and helpers that state what a refusal must be.
 *
 * Each file fails on its own conformance mismatches (in `afterAll`) and leaves its coverage for the run's report.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CardIssuingError,
  createCardIssuingClient,
  signRequest,
  type ApiPromise,
  type CardIssuingClient,
  type Problem,
} from 'card-issuing-sdk';
import type { Fixtures } from 'card-issuing-mock';
import { createMockControl, createTenant, freshCredentials, type MockControl } from 'card-issuing-mock/control';
import { createRecordingFetch } from '../../conformance/recording-fetch';
import { createConformanceChecker } from '../../conformance/validator';
import { expect } from './expect';
import { NEEDS_CONTROL, readTarget, type ContractTarget, type FileConformance } from './target';
import type { TestContext } from './test';

/** A request sent as it is, for what the SDK would never send (unsigned, malformed, tampered). */
export interface RawRequest {
  method: string;
  /** The API path, e.g. `/s2s/users`. */
  path: string;
  query?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** How to sign: the file's credentials by default, overrides for the signing tests, or `false` for unsigned. */
  sign?: false | { apiKey?: string; apiSecret?: string; timestamp?: number | string; nonce?: string };
}

/** A response as received. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined. */
  body: unknown;
}

/** What a refusal must be: status and code, and for 409 state errors the status and operation it names. */
export interface ExpectedRefusal {
  status: number;
  code: string;
  currentStatus?: string;
  operation?: string;
}

/** The harness of one test file. */
export interface Contract {
  readonly target: ContractTarget;
  /** Signed SDK client for the tenant (retries off, so that every answer is the server's first). */
  readonly client: CardIssuingClient;
  readonly credentials: { apiKey: string; apiSecret: string };
  /** The absolute URL of an API path with its query. */
  url(path: string, query?: Record<string, string>): string;
  /** Sends a raw request through the recorder (signed with the tenant's credentials unless `sign: false`). */
  send(request: RawRequest): Promise<RawResponse>;
  /** The mock's control API for the tenant; skips the test (with the reason) on a real service. */
  control(context: TestContext): MockControl;
  /** The tenant's seeded ids; skips the test on a real service. */
  fixtures(context: TestContext): Promise<Fixtures>;
  /** A corporate to run business tests on: --corporate, or the mock's first; skips when neither. */
  corporate(context: TestContext): Promise<{ corporateUuid: string; currency: string }>;
  /** Now, in epoch milliseconds, on the mock's virtual clock (which tests move), or the wall clock. */
  now(): Promise<number>;
  /**
   * A tenant of its own for one test (mock only; skips otherwise), for tests whose assertions must not see the
   * rest of the file: moving the clock moves every approval of a tenant.
   */
  isolated(context: TestContext): Promise<Contract>;
}

interface TenantState {
  credentials: { apiKey: string; apiSecret: string };
  client: CardIssuingClient;
  control: MockControl | undefined;
  fixtures?: Promise<Fixtures>;
}

type RecordingFetch = ReturnType<typeof createRecordingFetch>;
type ConformanceChecker = ReturnType<typeof createConformanceChecker>;

/** A tenant: a fresh one on the mock, the configured credentials on a real service. */
async function openTenant(target: ContractTarget, recordingFetch: RecordingFetch): Promise<TenantState> {
  let credentials = target.credentials;
  let control: MockControl | undefined;
  if (target.control) {
    credentials = freshCredentials('contract');
    // A secret of 48 hex characters is base64 as well, so a tenant works under either secret encoding.
    await createTenant(target.baseUrl, credentials);
    control = createMockControl({ baseUrl: target.baseUrl, ...credentials });
  }
  if (!credentials) throw new Error('No credentials: pass --api-key and --api-secret.');
  const client = createCardIssuingClient({
    baseUrl: target.baseUrl,
    ...credentials,
    ...target.signing,
    retry: false,
    fetch: recordingFetch,
  });
  return { credentials, control, client };
}

/** Writes a file's conformance where the run's report collects it. */
function writeFileConformance(target: ContractTarget, result: FileConformance): void {
  writeFileSync(join(target.resultsDir, `${result.file}.${process.pid}.json`), JSON.stringify(result));
}

/**
 * Registers the file's conformance test, after all of the file's own tests (they are declared synchronously), in a
 * suite of its own, as JUnit readers expect every test case to be.
 */
function registerConformanceTest(
  target: ContractTarget,
  file: string,
  checker: ConformanceChecker,
  skippedForControl: () => number,
): void {
  setImmediate(() => {
    void describe(`conformance of ${file}`, () =>
      void it('every exchange matches the spec', () => {
        const findings = checker.findings();
        writeFileConformance(target, {
          file,
          checked: checker.checked(),
          operations: checker.coverage().operations,
          findings,
          skippedForControl: skippedForControl(),
        });
        const lines = [
          ...new Set(
            findings.map(
              (f) =>
                `${f.operationId ?? '(no operation)'} ${f.method} ${f.path} ${f.location}: ${f.message.slice(0, 200)}`,
            ),
          ),
        ];
        expect(
          findings.length,
          `${file}: ${findings.length} exchange finding(s) that do not match the spec\n${lines.join('\n')}\n`,
        ).toBe(0);
      }));
  });
}

/** The absolute URL of an API path with its query. */
function urlOf(target: ContractTarget, path: string, query: Record<string, string> = {}): string {
  const u = new URL(`${target.baseUrl}${path}`);
  for (const [name, value] of Object.entries(query)) u.searchParams.set(name, value);
  return u.toString();
}

/** A raw request's body as sent: a string as it is, anything else as JSON. */
function rawBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The `Authorization` header of a raw request: the tenant's credentials unless the request overrides them. */
async function rawAuthorization(
  target: ContractTarget,
  own: TenantState['credentials'],
  sign: Exclude<RawRequest['sign'], false>,
  request: { method: string; url: string; body: string | undefined },
): Promise<string> {
  const { authorization } = await signRequest({
    method: request.method,
    url: request.url,
    ...(request.body === undefined ? {} : { body: request.body }),
    apiKey: sign?.apiKey ?? own.apiKey,
    apiSecret: sign?.apiSecret ?? own.apiSecret,
    ...(sign?.timestamp === undefined ? {} : { timestamp: sign.timestamp }),
    ...(sign?.nonce === undefined ? {} : { nonce: sign.nonce }),
    ...target.signing,
  });
  return authorization;
}

/** A body parsed as JSON, or undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends a raw request through the recorder, signed with the tenant's credentials (`own`) unless `sign: false`. */
async function sendRaw(
  target: ContractTarget,
  recordingFetch: RecordingFetch,
  own: () => TenantState['credentials'],
  request: RawRequest,
): Promise<RawResponse> {
  const address = urlOf(target, request.path, request.query);
  const body = rawBody(request.body);
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...request.headers,
  };
  if (request.sign !== false)
    headers.authorization = await rawAuthorization(target, own(), request.sign, {
      method: request.method,
      url: address,
      body,
    });
  const response = await recordingFetch(address, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

/**
 * Sets up the harness for the calling file: pass `import.meta.url`. Registers the file's `before` hook (its tenant)
 * and, after every test of the file, a test of its conformance: the file fails on any mismatch with the spec.
 */
export function useContract(fileUrl: string): Contract {
  const target = readTarget();
  const file = basename(new URL(fileUrl).pathname).replace(/(\.test)?\.[cm]?[jt]s$/, '');
  const checker = createConformanceChecker({ specPath: target.specPath });
  const recordingFetch = createRecordingFetch(checker);
  let fileTenant: TenantState | undefined;
  let skippedForControl = 0;

  before(async () => {
    fileTenant = await openTenant(target, recordingFetch);
  });
  registerConformanceTest(target, file, checker, () => skippedForControl);
  after(() => {
    // A file whose tenant could not be made never reaches its conformance test: leave what there is.
    if (!fileTenant)
      writeFileConformance(target, {
        file,
        checked: checker.checked(),
        operations: [],
        findings: checker.findings(),
        skippedForControl,
      });
  });

  const skipWithoutControl = (context: TestContext, reason = NEEDS_CONTROL): void => {
    if (target.control) return;
    skippedForControl++;
    context.skip(reason);
  };

  return contractView(
    { target, recordingFetch, skipWithoutControl, openTenant: () => openTenant(target, recordingFetch) },
    () => {
      if (!fileTenant) throw new Error('The contract tenant is made in beforeAll; use the harness inside tests.');
      return fileTenant;
    },
  );
}

/** What every view of a file's harness shares. */
interface HarnessParts {
  target: ContractTarget;
  recordingFetch: RecordingFetch;
  skipWithoutControl(context: TestContext, reason?: string): void;
  openTenant(): Promise<TenantState>;
}

/** The harness over one tenant: the file's, or one of a test's own (`isolated`). */
function contractView(parts: HarnessParts, tenant: () => TenantState): Contract {
  const { target, recordingFetch, skipWithoutControl } = parts;
  const control = (context: TestContext): MockControl => {
    skipWithoutControl(context);
    const c = tenant().control;
    if (!c) throw new Error('The mock control API is missing for this tenant.');
    return c;
  };
  const fixtures = (context: TestContext): Promise<Fixtures> => {
    const c = control(context);
    const state = tenant();
    state.fixtures ??= c.fixtures();
    return state.fixtures;
  };
  return {
    target,
    get client() {
      return tenant().client;
    },
    get credentials() {
      return tenant().credentials;
    },
    url: (path, query) => urlOf(target, path, query),
    send: (request) => sendRaw(target, recordingFetch, () => tenant().credentials, request),
    control,
    fixtures,
    async corporate(context) {
      if (target.corporate) return target.corporate;
      skipWithoutControl(
        context,
        `needs a corporate: pass --corporate UUID (and --corporate-currency), or ${NEEDS_CONTROL}`,
      );
      const corporate = (await fixtures(context)).corporates[0];
      if (!corporate) throw new Error('The mock has no seeded corporate.');
      return { corporateUuid: corporate.corporateUuid, currency: corporate.balance.currency };
    },
    async now() {
      const c = tenant().control;
      return c ? Date.parse((await c.clock()).now) : Date.now();
    },
    async isolated(context) {
      skipWithoutControl(context);
      const own = await parts.openTenant();
      return contractView(parts, () => own);
    },
  };
}

/**
 * Asserts that a raw response is the spec's problem: the status, `application/problem+json`, the `code`, the status
 * repeated in the body and an `X-Request-Id`. Returns the problem.
 */
export function expectProblem(response: RawResponse, status: number, code: string): Problem {
  const problem = (response.body ?? {}) as Problem;
  expect(
    { status: response.status, code: problem.code },
    `expected ${status} ${code}; the body was ${response.text.slice(0, 300)}`,
  ).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(problem.status).toBe(status);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return problem;
}

/**
 * Asserts that an SDK call is refused as `expected` (status, code, and for state errors the status and operation
 * the problem names). A call that succeeds fails the assertion with its success status, so a server that lets a
 * forbidden transition through is named by the failing test.
 */
export async function expectRefusal(call: ApiPromise<unknown>, expected: ExpectedRefusal): Promise<CardIssuingError> {
  let status: number;
  try {
    ({ status } = await call.withResponse());
  } catch (error) {
    if (!(error instanceof CardIssuingError)) throw error;
    const actual: Record<string, unknown> = { status: error.status, code: error.code };
    if ('currentStatus' in expected) actual.currentStatus = error.problem?.currentStatus;
    if ('operation' in expected) actual.operation = error.problem?.operation;
    expect(actual, `refused, but not as the spec says: ${error.detail}`).toEqual(expected);
    return error;
  }
  const named = [
    expected.currentStatus && `currentStatus ${expected.currentStatus}`,
    expected.operation && `operation ${expected.operation}`,
  ]
    .filter(Boolean)
    .join(', ');
  const rule = `${expected.status} ${expected.code}${named ? ` (${named})` : ''}`;
  expect(
    { status, code: '(none: the call succeeded)' },
    `expected ${rule}, but the server accepted the call with ${status}`,
  ).toEqual(expected);
  throw new Error('unreachable');
}

/** A business user's data with a unique e-mail. */
export function newBusinessUser(name = 'Grace', lastName = 'Hopper') {
  return {
    name,
    lastName,
    email: `${name}.${lastName}.${crypto.randomUUID().slice(0, 8)}@corp.example`.toLowerCase(),
    phone: '+12025550143',
  };
}

/** A UUID v4 that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
