/**
 * Test harness of the mock: a fresh `createMock` per test behind one msw `setupServer`, the generated ky client
 * signing every request in a ky `beforeRequest` hook, and a raw `send` for requests the typed client would
 * refuse to make (bad bodies, bad signatures).
 */
import { getResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createClient, type Client } from '../../sdk/generated/client';
import type { Problem } from '../../sdk/generated/types.gen';
import * as schemas from '../../sdk/generated/zod.gen';
import { zProblem } from '../../sdk/generated/zod.gen';
import { operationTable } from '../../sdk/generated/operations.gen';
import {
  createCardIssuingClient,
  signRequest,
  type CardIssuingClient,
  type CardIssuingClientOptions,
} from 'card-issuing-sdk';
import { sendSigned } from '../helpers/signed-request';
import {
  ProblemError,
  createMock,
  createMockFetch,
  type CardIssuingMock,
  type CreateMockOptions,
} from '../../mock-server/src/index';

/** The origin the tests' mocks answer on. */
export const BASE_URL = 'http://mock.test';
/** The instant the tests' virtual clocks start at (frozen). */
export const T0 = '2026-11-21T09:00:00.000Z';
/** Seconds in a day. */
export const DAY = 24 * 3600;

/**
 * A generated ky client that signs each request with `signRequest` (no retries, errors returned, not thrown).
 * With `handlers`, requests go to them through msw's `getResponse` (as the standalone server serves them) instead
 * of through `setupServer`'s interception, which costs about 2 ms a request: for the long random run.
 */
export function signedClient(
  credentials: { apiKey: string; apiSecret: string },
  baseUrl = BASE_URL,
  handlers?: RequestHandler[],
): Client {
  const direct =
    handlers &&
    (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await getResponse(handlers, input instanceof Request ? input : new Request(input, init));
      if (!response) throw new Error(`No handler for ${String(input)}`);
      return response;
    });
  const client = createClient({
    baseUrl,
    throwOnError: false,
    // The generated functions carry no validators (the SDK passes its own): every call's arguments are checked here
    // against the operation's generated request schema, and (below) every success body against its response schema.
    requestValidator: async (options: unknown) => {
      const row = operationOf(options as { method?: string; url?: string });
      if (row)
        await schemaOf(`z${row.operationId[0]!.toUpperCase()}${row.operationId.slice(1)}Data`).parseAsync(options);
    },
    kyOptions: {
      retry: 0,
      ...(direct ? { fetch: direct } : {}),
      hooks: {
        beforeRequest: [
          async ({ request }) => {
            const body = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
            const signed = await signRequest({ method: request.method, url: request.url, body, ...credentials });
            request.headers.set('Authorization', signed.authorization);
          },
        ],
      },
    },
  });
  client.interceptors.response.use(async (response, _request, options) => {
    const row = operationOf(options as { method?: string; url?: string });
    if (row && response.ok && response.status !== 204)
      await schemaOf(row.schemas.response).parseAsync(await response.clone().json());
    return response;
  });
  return client;
}

/** The operation a generated function's call is for, by its method and path template. */
function operationOf(options: { method?: string; url?: string }) {
  return operationTable.find((row) => row.method === options.method && row.path === options.url);
}
const schemaOf = (name: string) =>
  (schemas as unknown as Record<string, { parseAsync(value: unknown): Promise<unknown> }>)[name]!;

/** One msw server per test file; `start()` puts a fresh mock (and a client for its default tenant) behind it. */
export function mockHarness(defaults: CreateMockOptions = {}) {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());
  const harness = {
    server,
    mock: undefined as unknown as CardIssuingMock,
    client: undefined as unknown as Client,
    start(options: CreateMockOptions = {}): CardIssuingMock {
      const mock = createMock({ baseUrl: BASE_URL, clock: { now: T0 }, seed: 'tests', ...defaults, ...options });
      server.resetHandlers(...mock.handlers);
      harness.mock = mock;
      harness.client = signedClient(mock.fixtures().credentials[0]!, options.baseUrl ?? defaults.baseUrl ?? BASE_URL);
      return mock;
    },
  };
  beforeEach(() => void harness.start());
  return harness;
}

/** Sends a raw request to the test mock, signed unless `sign: false` (then `authorization` is sent as given). */
export function send(
  method: string,
  path: string,
  init: {
    body?: string | object;
    headers?: Record<string, string>;
    sign?: boolean;
    credentials?: { apiKey: string; apiSecret: string };
    timestamp?: number;
    nonce?: string;
    authorization?: string;
  } = {},
): Promise<Response> {
  const { sign, ...request } = init;
  return sendSigned({
    method,
    url: path.startsWith('http') ? path : `${BASE_URL}${path}`,
    ...request,
    ...(sign === false ? { credentials: null } : {}),
  });
}

/** Asserts a problem+json response of `status` and `code` that validates against the spec's Problem schema; returns it. */
export async function expectProblem(response: Response, status: number, code: string): Promise<Problem> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
  const problem = zProblem.parse(await response.json());
  expect({ status: response.status, code: problem.code }).toEqual({ status, code });
  expect(problem.status).toBe(status);
  expect(problem.requestId).toBe(response.headers.get('x-request-id'));
  return problem;
}

/**
 * The problem of a generated-function result (`{ error, response }`), checked as {@link expectProblem} does.
 * The body was already read by the client, so the error object is validated.
 */
export function expectError(result: { error?: unknown; response?: Response }, status: number, code: string): Problem {
  expect(result.response?.status, JSON.stringify(result.error)).toBe(status);
  expect(result.response?.headers.get('content-type')).toBe('application/problem+json');
  const problem = zProblem.parse(result.error);
  expect(problem.code).toBe(code);
  return problem;
}

/** Expects an in-process control call to throw the ProblemError `code` with `status`; returns it. */
export function refused(action: () => unknown, status: number, code: string): ProblemError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    expect({ status: (error as ProblemError).status, code: (error as ProblemError).code }).toEqual({ status, code });
    return error as ProblemError;
  }
  throw new Error(`expected ${status} ${code}, but the control call succeeded`);
}

/** The response of a generated-function result (always there once a request was made). */
export function responseOf(result: { response?: Response }): Response {
  if (!result.response) throw new Error('The request was not made (the client refused it before sending).');
  return result.response;
}

/** The data of a successful generated-function result (fails the test with the problem otherwise). */
export function ok<T>(result: { data?: T; error?: unknown; response?: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    throw new Error(`Expected success, got ${result.response?.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/** The SDK's client on a test's mock, in process (`createMockFetch`), with the default credentials. */
export function sdkClient(mock: CardIssuingMock, options: Partial<CardIssuingClientOptions> = {}): CardIssuingClient {
  return createCardIssuingClient({
    baseUrl: BASE_URL,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    fetch: createMockFetch(mock.handlers),
    ...options,
  });
}
