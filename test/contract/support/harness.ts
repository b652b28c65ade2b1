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
import { afterAll, beforeAll, expect, inject, type TestContext } from 'vitest';
import {
  CardIssuingError,
  createCardIssuingClient,
  type ApiPromise,
  type CardIssuingClient,
  type Problem,
} from 'card-issuing-sdk';
import type { Fixtures } from 'card-issuing-mock';
import { createMockControl, createTenant, freshCredentials, type MockControl } from '../../../examples/support/control';
import { createRecordingFetch } from '../../conformance/recorders';
import { createConformanceChecker } from '../../conformance/validator';
import { sendSigned } from '../../helpers/signed-request';
import { repoPath } from '../../helpers/spec';
import { NEEDS_CONTROL, type ContractTarget, type FileConformance } from './target';

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
  /** A corporate to run business tests on: CONTRACT_CORPORATE_UUID, or the mock's first; skips when neither. */
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

/**
 * Sets up the harness for the calling file: pass `import.meta.url`. Registers the file's `beforeAll` (its tenant)
 * and `afterAll` (its conformance: the file fails on any mismatch).
 */
export function useContract(fileUrl: string): Contract {
  const target = inject('contract');
  const file = basename(new URL(fileUrl).pathname);
  const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml') });
  const recordingFetch = createRecordingFetch(checker);
  let fileTenant: TenantState | undefined;
  let skippedForControl = 0;

  /** A tenant: a fresh one on the mock, the configured credentials on a real service. */
  const openTenant = async (): Promise<TenantState> => {
    let credentials = target.credentials;
    let control: MockControl | undefined;
    if (target.control) {
      credentials = freshCredentials('contract');
      await createTenant(target.baseUrl, credentials);
      control = createMockControl({ baseUrl: target.baseUrl, ...credentials });
    }
    if (!credentials) throw new Error('No credentials: set CONTRACT_API_KEY and CONTRACT_API_SECRET.');
    return { credentials, control, client: createCardIssuingClient({ baseUrl: target.baseUrl, ...credentials, retry: false, fetch: recordingFetch }) };
  };

  beforeAll(async () => {
    fileTenant = await openTenant();
  });

  afterAll(() => {
    const findings = checker.findings();
    const result: FileConformance = {
      file,
      checked: checker.checked(),
      operations: checker.coverage().operations,
      findings: findings.map((f) => `${f.operationId ?? '(no operation)'} ${f.method} ${f.path} [${f.url}] ${f.location}: ${f.message}`),
      skippedForControl,
    };
    writeFileSync(join(target.resultsDir, `${file}.${process.pid}.${Date.now()}.json`), JSON.stringify(result));
    expect(findings, `${file}: exchanges that do not match spec/openapi.yaml\n${checker.report()}`).toEqual([]);
  });

  const skipWithoutControl = (context: TestContext, reason = NEEDS_CONTROL): void => {
    if (target.control) return;
    skippedForControl++;
    context.skip(reason);
  };

  const url = (path: string, query: Record<string, string> = {}): string => {
    const u = new URL(`${target.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) u.searchParams.set(name, value);
    return u.toString();
  };

  const view = (tenant: () => TenantState): Contract => {
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
      url,
      async send(request) {
        const own = tenant().credentials;
        const { sign } = request;
        const response = await sendSigned({
          method: request.method,
          url: url(request.path, request.query),
          ...(request.body === undefined ? {} : { body: request.body }),
          ...(request.headers ? { headers: request.headers } : {}),
          credentials: sign === false ? null : { apiKey: sign?.apiKey ?? own.apiKey, apiSecret: sign?.apiSecret ?? own.apiSecret },
          ...(sign && sign.timestamp !== undefined ? { timestamp: sign.timestamp } : {}),
          ...(sign && sign.nonce !== undefined ? { nonce: sign.nonce } : {}),
        }, recordingFetch);
        const text = await response.text();
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        return { status: response.status, headers: response.headers, text, body: parsed };
      },
      control,
      fixtures,
      async corporate(context) {
        if (target.corporateUuid) return { corporateUuid: target.corporateUuid, currency: process.env.CONTRACT_CORPORATE_CURRENCY ?? 'EUR' };
        skipWithoutControl(context, `needs a corporate: set CONTRACT_CORPORATE_UUID (and CONTRACT_CORPORATE_CURRENCY), or ${NEEDS_CONTROL}`);
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
        const own = await openTenant();
        return view(() => own);
      },
    };
  };

  return view(() => {
    if (!fileTenant) throw new Error('The contract tenant is made in beforeAll; use the harness inside tests.');
    return fileTenant;
  });
}

/**
 * Asserts that a raw response is the spec's problem: the status, `application/problem+json`, the `code`, the status
 * repeated in the body and an `X-Request-Id`. Returns the problem.
 */
export function expectProblem(response: RawResponse, status: number, code: string): Problem {
  const problem = (response.body ?? {}) as Problem;
  expect({ status: response.status, code: problem.code }, `expected ${status} ${code}; the body was ${response.text.slice(0, 300)}`).toEqual({ status, code });
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
  const named = [expected.currentStatus && `currentStatus ${expected.currentStatus}`, expected.operation && `operation ${expected.operation}`].filter(Boolean).join(', ');
  const rule = `${expected.status} ${expected.code}${named ? ` (${named})` : ''}`;
  expect({ status, code: '(none: the call succeeded)' }, `expected ${rule}, but the server accepted the call with ${status}`).toEqual(expected);
  throw new Error('unreachable');
}

/** Registration data with a unique e-mail, so that runs and files never collide. */
export function newRegistration(firstName = 'Ada', lastName = 'Lovelace') {
  const tag = crypto.randomUUID().slice(0, 8);
  return { email: `${firstName}.${lastName}.${tag}@example.org`.toLowerCase(), firstName, lastName, phone: '+447700900123', dateOfBirth: '1990-12-10', country: 'GB' };
}

/** A business user's data with a unique e-mail. */
export function newBusinessUser(name = 'Grace', lastName = 'Hopper') {
  return { name, lastName, email: `${name}.${lastName}.${crypto.randomUUID().slice(0, 8)}@corp.example`.toLowerCase(), phone: '+12025550143' };
}

/** A UUID v4 that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
