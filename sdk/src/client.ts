/**
 * `createCardIssuingClient`: checks the options, makes what every call shares once (the signer with its HMAC key,
 * the request engine), and returns the methods the generated resource layer describes.
 *
 * Where the rest is: the methods (`./resources`, from `sdk/generated/resources.gen.ts`), one call from arguments
 * to parsed body (`./core/request`), retries (`./core/retry`), what a method returns (`./core/api-promise`,
 * `./core/pagination`), errors (`./core/errors/`), signing (`./signing/`), card details (`./card-details/`).
 * @module
 */
import type { CardIssuingClientOptions, RawRequest, RequestOptions } from './options';
import { ApiPromise } from './core/api-promise';
import { assertSecretAllowedHere } from './core/browser-guard';
import { createClientClock } from './core/clock';
import { createLog } from './core/logger';
import { createEngine, type Run } from './core/engine';
import { buildResources, type ResourceMethods } from './resources';
import { createSigner, type Signer } from './signing/sign';

/** The client: every operation of the spec, grouped by area and resource, and what is not one operation. */
export type CardIssuingClient = ResourceMethods & {
  /**
   * Sends a signed request to an endpoint the spec does not name, with the same retries (idempotent methods, or a
   * POST with its `Idempotency-Key`), timeouts, typed errors, hooks and logs as every method, and resolves to the
   * parsed JSON body (`unknown`, or the type you give).
   *
   * @example
   * ```ts
   * const health = await client.request<{ status: string }>({ method: 'POST', path: '/s2s/health' });
   * ```
   */
  request<T = unknown>(request: RawRequest, options?: RequestOptions): ApiPromise<T>;
  /**
   * Milliseconds to add to this host's clock to get the service's: every request is signed with the corrected time.
   * The client sets it by itself after a `401 AUTH_TIMESTAMP_SKEW`; set it to share a known offset.
   */
  clockOffsetMs: number;
};

const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * Creates a client. Signs every request with the api key and secret, retries what is safe to retry, validates
 * responses against the spec and throws typed errors.
 *
 * @example
 * ```ts
 * const client = createCardIssuingClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'test_key', apiSecret: 'test_secret' });
 * const user = await client.s2s.users.create({ email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace',
 *   phone: '+447700900123', dateOfBirth: '1990-12-10', country: 'GB' });
 * const { data, requestId } = await client.s2s.users.get(user.id).withResponse();
 * ```
 */
export function createCardIssuingClient(options: CardIssuingClientOptions): CardIssuingClient {
  const { apiKey, apiSecret } = options;
  assertSecretAllowedHere(options);
  if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('createCardIssuingClient: apiKey is required.');
  if (typeof apiSecret !== 'string' || apiSecret === '')
    throw new TypeError('createCardIssuingClient: apiSecret is required.');
  const baseUrl = baseUrlOf(options.baseUrl);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new TypeError('createCardIssuingClient: maxResponseBytes must be a positive whole number of bytes.');
  }

  // The HMAC key is imported once per client, not once per request.
  let signer: Signer;
  try {
    signer = createSigner({
      apiKey,
      apiSecret,
      bodyHash: options.bodyHash ?? false,
      secretEncoding: options.secretEncoding ?? 'utf8',
    });
  } catch (error) {
    throw error instanceof TypeError
      ? new TypeError(error.message.replace(/^signRequest:/, 'createCardIssuingClient:'))
      : error;
  }
  const clock = createClientClock(options.clockOffsetMs ?? 0);
  const log = createLog({ logger: options.logger, logLevel: options.logLevel, secrets: [apiSecret] });
  const run = createEngine({ options, baseUrl, maxResponseBytes, signer, clock, log });
  const methods = buildResources(run) as CardIssuingClient;
  Object.defineProperties(methods, {
    request: { value: rawRequest(run), enumerable: false },
    clockOffsetMs: {
      get: () => clock.offsetMs,
      set: (value: number) => {
        clock.offsetMs = value;
      },
      enumerable: false,
    },
  });
  return methods;
}

/** The client's base URL: absolute, http or https. */
function baseUrlOf(value: string): URL {
  let baseUrl: URL;
  try {
    baseUrl = new URL(value);
  } catch {
    throw new TypeError('createCardIssuingClient: baseUrl must be an absolute URL such as http://127.0.0.1:4010.');
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new TypeError('createCardIssuingClient: baseUrl must be an http or https URL.');
  }
  return baseUrl;
}

/** `client.request()`: a call of the path as given, named `METHOD /path` in logs and hooks. */
function rawRequest(run: Run) {
  return <T>(request: RawRequest, options: RequestOptions = {}): ApiPromise<T> => {
    if (typeof request !== 'object' || request === null)
      throw new TypeError('client.request: pass { method, path, query?, body? }.');
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
    if (!/^[A-Z]+$/.test(method))
      throw new TypeError('client.request: method must be an HTTP method such as GET or POST.');
    if (typeof request.path !== 'string' || !request.path.startsWith('/'))
      throw new TypeError('client.request: path must start with "/", e.g. /s2s/health.');
    return new ApiPromise(
      run<T>({ operationId: `${method} ${request.path}`, method, path: request.path, raw: true }, options, {
        query: request.query,
        body: request.body,
      }),
    );
  };
}
