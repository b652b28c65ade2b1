/**
 * `createCardIssuingClient`: one method per operation, grouped by area and resource, over the GENERATED functions
 * of `sdk/generated/sdk.gen.ts` and the generated ky client (no second copy of a path or a type).
 *
 * What the layer adds, all through ky's own options and hooks:
 * - signing (contract section 2) in `beforeRequest`, and again in `beforeRetry`: ky 2 runs `beforeRequest` once
 *   per call and `beforeRetry` before every retry, so every attempt gets a fresh nonce and timestamp;
 * - retries by ky (`retry` option): network errors, 429, 502, 503, 504; GET always, POST only with an
 *   `Idempotency-Key`, which the SDK makes once per call (the same on every retry); exponential backoff with
 *   jitter; `Retry-After` honoured;
 * - typed errors (ky's `beforeError` hook turns each failure into a {@link CardIssuingError});
 * - request and response validation with the generated zod schemas (`./validation`), passed to the generated
 *   functions as their `requestValidator` and `responseValidator`.
 *
 * Light by construction: validation and card details are loaded with `import()` on first use, so a page that
 * turns validation off never loads zod, and one that never reads card details never loads their crypto.
 * Browser-safe: no `node:` import here or below.
 * @module
 */
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import type { Options as KyOptions, RetryOptions as KyRetryOptions } from 'ky';
import { createClient, type Client } from '../generated/client';
import * as api from '../generated/sdk.gen';
import type {
  ActivateCardResponse,
  ApprovalCreate,
  ApproveAppDepositVerificationResponse,
  ApproveDepositVerificationResponse,
  BudgetIncrease,
  BusinessUserCreate,
  CardCreate,
  CardDetails,
  ChargeDraftResponse,
  CompleteDraftResponse,
  ConfirmEmailResponse,
  CreateAppDepositAddressResponse,
  CreateApprovalResponse,
  CreateBusinessUserResponse,
  CreateCardResponse,
  CreateDepositAddressResponse,
  CreateUserResponse,
  DepositOptions,
  DepositTypeCode,
  EmailConfirmation,
  GetApprovalResponse,
  GetUserResponse,
  IncreaseApprovalBudgetResponse,
  ListAppDepositAddressesResponse,
  ListAppDepositTypesResponse,
  ListAppDepositVerificationsResponse,
  ListBalancesResponse,
  ListCardConfigsResponse,
  ListCardsResponse,
  ListCorporateDepositAddressesResponse,
  ListDepositAddressesResponse,
  ListDepositTypesResponse,
  ListDepositVerificationsResponse,
  ListTopUpsResponse,
  ListUserApprovalsResponse,
  RegistrationData,
  RequestEmailOtpResponse,
  SignAppConsentResponse,
  SignUserConsentResponse,
  VerificationData,
} from '../generated/types.gen';
import type { CardKeyPair } from './card-details';
import { itemsFrom, toPage, type Page, type PageBody, type PageItem, type PageParams } from './pagination';
import {
  CardIssuingError,
  NetworkError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  errorFromProblem,
} from './errors';
import { createSigner, randomUuid, type SecretEncoding, type Signer } from './signing';
import { boundCall } from './transport';
import type { OperationId } from './validation';

// Loaded on first use, then shared by every client: a separate chunk in a bundle, never loaded when unused.
// Validation runs on every call: once loaded, its module is used without another await.
let validation: typeof import('./validation') | undefined;
let validationLoad: Promise<typeof import('./validation')> | undefined;
const loadValidation = async () => validation ?? (validationLoad ??= import('./validation').then((module) => (validation = module)));
let problem: Promise<typeof import('./problem')> | undefined;
const loadProblem = () => (problem ??= import('./problem'));
let cardDetails: Promise<typeof import('./card-details')> | undefined;
const loadCardDetails = () => (cardDetails ??= import('./card-details'));

// ------------------------------------------------------------------------------------------------ options

/** How the SDK retries. ky does the retrying; these are its knobs, in the SDK's words. */
export interface RetryConfig {
  /** Retries after the first attempt (default 2). */
  limit?: number;
  /** Delay before the first retry; doubles every retry, with jitter (50-100 % of it). Default 500 ms. */
  initialDelayMs?: number;
  /** Upper bound of a backoff delay. Default 5000 ms. */
  maxDelayMs?: number;
  /** Upper bound of a server's `Retry-After` the SDK waits for. Default 60000 ms. */
  maxRetryAfterMs?: number;
}

/** What {@link createCardIssuingClient} takes. */
export interface CardIssuingClientOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:4010` for the mock server. */
  baseUrl: string;
  /** The api key, sent in every request's `Authorization` header. */
  apiKey: string;
  /** The api secret: signs requests; never sent, logged or put into an error. */
  apiSecret: string;
  /**
   * Sign the body too: `+ base64(SHA-256(body))` after the five published parts (contract section 2). Off by
   * default, as the service publishes the scheme; turn it on only for a server that requires it (the mock with
   * `bodyHash` / `--sign-body`).
   */
  bodyHash?: boolean;
  /**
   * How the api secret becomes the HMAC key: its UTF-8 bytes (`'utf8'`, the default, as the mock does by default)
   * or the bytes it encodes in base64 (`'base64'`, for a service that base64-decodes the secret to sign).
   */
  secretEncoding?: SecretEncoding;
  /**
   * Per-attempt timeout in milliseconds (default 30000), for the whole attempt: the request, the response headers
   * and the whole body. A timeout is a {@link TimeoutError} and is not retried.
   */
  timeoutMs?: number;
  /**
   * The largest response body an attempt reads, in bytes (default 10 MiB; the spec bounds every list and string,
   * so a conforming body is far smaller). Past it: a {@link ResponseTooLargeError}, and the connection is released.
   */
  maxResponseBytes?: number;
  /** Retry settings, or `false` for none. Default `{ limit: 2 }`. */
  retry?: RetryConfig | false;
  /** Validate every success body against the spec's zod schema (default true). */
  validateResponses?: boolean;
  /**
   * Check every call's arguments against the spec's zod schema before sending (default true); a bad argument is a
   * {@link ValidationError} and nothing is sent. With this and `validateResponses` off, zod is never loaded.
   */
  validateRequests?: boolean;
  /**
   * A fetch implementation (default `globalThis.fetch`). It must honour the request's abort signal, as every
   * standard fetch does: the SDK aborts it to end a response body that outlives `timeoutMs`.
   */
  fetch?: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /** Observers of requests, responses and retries (logging, metrics). They never see the `Authorization` header. */
  hooks?: ClientHooks;
}

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Per-attempt timeout in milliseconds for this call (request, headers and body). */
  timeoutMs?: number;
  /** Retry settings for this call, or `false` for none. */
  retry?: RetryConfig | false;
  /**
   * The `Idempotency-Key` of a POST. By default the SDK makes one (a random UUID) for every POST while retries
   * are on, so that a retried POST is never applied twice; pass your own to make a call idempotent across
   * process restarts, or `false` to send none (the POST is then never retried).
   */
  idempotencyKey?: string | false;
  /** Aborts the call (and any retry wait). The promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What every request and response event carries. Never the `Authorization` header. */
export interface RequestEvent {
  /** The operation, as the spec's `operationId` (e.g. `createCard`). */
  operation: string;
  method: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  idempotencyKey: string | undefined;
}

/** A response arrived (any status). */
export interface ResponseEvent extends RequestEvent {
  status: number;
  requestId: string | undefined;
  /** Milliseconds from signing this attempt to its response headers. */
  elapsedMs: number;
}

/** An attempt failed and the SDK is about to retry (`attempt` is the number of the coming attempt). */
export interface RetryEvent extends RequestEvent {
  error: CardIssuingError;
}

/** Observers the client calls; an exception thrown by one is ignored, so logging can never break a payment. */
export interface ClientHooks {
  /** Before every attempt is sent (after it was signed). */
  onRequest?: (event: RequestEvent) => void;
  /** When an attempt's response arrives, whatever its status. */
  onResponse?: (event: ResponseEvent) => void;
  /** Before a retry. */
  onRetry?: (event: RetryEvent) => void;
}

/** A parsed body with the facts of its response, from {@link ApiPromise.withResponse}. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** `X-Request-Id`; quote it when asking for support. */
  requestId: string | undefined;
}

/**
 * What every method returns: a promise of the parsed, typed body, with `.withResponse()` for the status, headers
 * and request id as well. The request is sent at once, whether or not anyone awaits it.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #response: Promise<ApiResponse<T>>;
  #data: Promise<T> | undefined;

  /** @internal */
  constructor(response: Promise<ApiResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#response = response;
  }

  // then/catch/finally derive plain promises, not ApiPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The parsed body together with `status`, `headers` and `requestId`. */
  withResponse(): Promise<ApiResponse<T>> {
    return this.#response;
  }

  // The body promise is made on first use, so a caller who only uses withResponse() gets no unhandled rejection.
  #body(): Promise<T> {
    return (this.#data ??= this.#response.then((r) => r.data));
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#body().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#body().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#body().finally(onfinally);
  }
}

/**
 * What every list method returns: the first page (await it, or `.withResponse()`), and, with `for await`, every
 * item of every page, each next page fetched only when the loop reaches it (see `pagination.ts`).
 */
export class PagePromise<B extends PageBody> extends ApiPromise<Page<B>> implements AsyncIterable<PageItem<B>> {
  /** Every item of this list, page after page, fetched on demand. */
  [Symbol.asyncIterator](): AsyncGenerator<PageItem<B>, void, undefined> {
    return itemsFrom(this);
  }
}

/** Per-call options of a list method: the page (`limit`, `cursor`) and the request options. */
export interface ListOptions extends RequestOptions, PageParams {}

/** Options of the card-details methods: the key pair whose public key is sent and whose private key decrypts. */
export interface CardDetailsRequestOptions extends RequestOptions {
  keyPair: CardKeyPair;
}

// ------------------------------------------------------------------------------------------------ the client

/** The Server2Server area (`/s2s`): the application acts for an end user. */
export interface S2sApi {
  users: {
    /** Registers a user (`createUser`); the response lists the registration consents to sign. */
    create(body: RegistrationData, options?: RequestOptions): ApiPromise<CreateUserResponse>;
    /** A user's data and the state of registration, e-mail verification and KYC (`getUser`). */
    get(userId: string, options?: RequestOptions): ApiPromise<GetUserResponse>;
  };
  consents: {
    /** Signs a consent (registration, card or deposit) for a user (`signUserConsent`); naturally idempotent. */
    sign(userId: string, consentId: string, options?: RequestOptions): ApiPromise<SignUserConsentResponse>;
  };
  email: {
    /** Sends the user a 6-digit one-time code by e-mail (`requestEmailOtp`). */
    requestOtp(userId: string, options?: RequestOptions): ApiPromise<RequestEmailOtpResponse>;
    /** Confirms the e-mail with the code the user entered (`confirmEmail`). */
    confirm(userId: string, body: EmailConfirmation, options?: RequestOptions): ApiPromise<ConfirmEmailResponse>;
  };
  cards: {
    /** The card configs the user can order, with their consents, and the KYC URL (`listCardConfigs`). */
    listConfigs(userId: string, options?: ListOptions): PagePromise<ListCardConfigsResponse>;
    /** Issues a card (`createCard`): a card (`object: 'card'`), or a draft to pay for (`object: 'draft'`). */
    create(userId: string, body: CardCreate, options?: RequestOptions): ApiPromise<CreateCardResponse>;
    /** Charges a draft's price to the user's balance (`chargeDraft`). */
    chargeDraft(cardId: string, options?: RequestOptions): ApiPromise<ChargeDraftResponse>;
    /** Turns a charged draft into its card (`completeDraft`). */
    completeDraft(cardId: string, options?: RequestOptions): ApiPromise<CompleteDraftResponse>;
    /** Activates a physical card whose order has completed (`activateCard`). */
    activate(cardId: string, options?: RequestOptions): ApiPromise<ActivateCardResponse>;
    /** The user's cards (`listCards`). */
    list(userId: string, options?: ListOptions): PagePromise<ListCardsResponse>;
    /**
     * The card's PAN, expiry, CVV and cardholder name (`getCardDetails`): sends the key pair's public key,
     * decrypts the JWE with its private key and validates the result.
     */
    getDetails(cardId: string, options: CardDetailsRequestOptions): ApiPromise<CardDetails>;
  };
  balances: {
    /** The user's balances (`listBalances`). */
    list(userId: string, options?: ListOptions): PagePromise<ListBalancesResponse>;
  };
  deposits: {
    /** The crypto assets that credit a balance, with networks and consents (`listDepositTypes`). */
    listTypes(balanceId: string, options?: ListOptions): PagePromise<ListDepositTypesResponse>;
    /** A balance's deposit addresses of one type (`listDepositAddresses`). */
    listAddresses(balanceId: string, type: DepositTypeCode, options?: ListOptions): PagePromise<ListDepositAddressesResponse>;
    /** Creates the deposit address of a balance and type; only when none exists (`createDepositAddress`). */
    createAddress(balanceId: string, type: DepositTypeCode, body: DepositOptions, options?: RequestOptions): ApiPromise<CreateDepositAddressResponse>;
    /** Incoming deposits with their verification state, optionally of one user (`listDepositVerifications`). */
    listVerifications(query?: { userId?: string }, options?: ListOptions): PagePromise<ListDepositVerificationsResponse>;
    /** Approves a deposit verification with verification data (`approveDepositVerification`). */
    approveVerification(id: string, body: VerificationData, options?: RequestOptions): ApiPromise<ApproveDepositVerificationResponse>;
  };
}

/** The Wallet App area (`/app`): the deposit flow of a wallet app for its user. */
export interface AppApi {
  deposits: {
    /** The deposit types of every balance of the app user (`listAppDepositTypes`). */
    listTypes(userUuid: string, options?: ListOptions): PagePromise<ListAppDepositTypesResponse>;
    /** A balance's deposit addresses of one type (`listAppDepositAddresses`). */
    listAddresses(balanceUuid: string, type: DepositTypeCode, options?: ListOptions): PagePromise<ListAppDepositAddressesResponse>;
    /** Creates the deposit address of a balance and type; only when none exists (`createAppDepositAddress`). */
    createAddress(balanceUuid: string, type: DepositTypeCode, body: DepositOptions, options?: RequestOptions): ApiPromise<CreateAppDepositAddressResponse>;
    /** The app user's deposit verifications (`listAppDepositVerifications`). */
    listVerifications(userUuid: string, options?: ListOptions): PagePromise<ListAppDepositVerificationsResponse>;
    /** Approves a deposit verification (`approveAppDepositVerification`). */
    approveVerification(id: string, body: VerificationData, options?: RequestOptions): ApiPromise<ApproveAppDepositVerificationResponse>;
  };
  consents: {
    /** Signs a consent for the app user (`signAppConsent`; the user travels as the signed `userUuid` query parameter). */
    sign(userUuid: string, consentUuid: string, options?: RequestOptions): ApiPromise<SignAppConsentResponse>;
  };
}

/** The Business cards area (`/corporates`): approvals allocate corporate budget to cards of business users. */
export interface CorporatesApi {
  users: {
    /** Creates a business user (`createBusinessUser`). */
    create(body: BusinessUserCreate, options?: RequestOptions): ApiPromise<CreateBusinessUserResponse>;
  };
  approvals: {
    /** Creates an approval, issuing a card with a budget (`createApproval`). */
    create(corporateUuid: string, body: ApprovalCreate, options?: RequestOptions): ApiPromise<CreateApprovalResponse>;
    /** One approval instance with its card (`getApproval`). */
    get(corporateUuid: string, approvalUuid: string, options?: RequestOptions): ApiPromise<GetApprovalResponse>;
    /** Every approval instance of a business user, reapprovals included (`listUserApprovals`). */
    listForUser(corporateUuid: string, userUuid: string, options?: ListOptions): PagePromise<ListUserApprovalsResponse>;
    /** The approval's card details, decrypted and validated (`getApprovalCardDetails`); only while DELIVERED. */
    getDetails(corporateUuid: string, approvalUuid: string, options: CardDetailsRequestOptions): ApiPromise<CardDetails>;
    /** Raises the budget, creating a reapproval on the same card (`increaseApprovalBudget`). */
    increaseBudget(corporateUuid: string, approvalUuid: string, body: BudgetIncrease, options?: RequestOptions): ApiPromise<IncreaseApprovalBudgetResponse>;
  };
  deposits: {
    /** The corporate's deposit addresses (`listCorporateDepositAddresses`). */
    list(corporateUuid: string, options?: ListOptions): PagePromise<ListCorporateDepositAddressesResponse>;
  };
  topUps: {
    /** The corporate's top-ups (`listTopUps`). */
    list(corporateUuid: string, options?: ListOptions): PagePromise<ListTopUpsResponse>;
  };
}

/** The client: every operation of the spec, grouped by area and resource. */
export interface CardIssuingClient {
  s2s: S2sApi;
  app: AppApi;
  corporates: CorporatesApi;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const DEFAULT_RETRY: Required<RetryConfig> = { limit: 2, initialDelayMs: 500, maxDelayMs: 5_000, maxRetryAfterMs: 60_000 };
const RETRY_STATUS_CODES = [429, 502, 503, 504];

/** The options every generated function gets from us; typed once so that every call below type-checks against it. */
interface CommonOptions {
  client: Client;
  throwOnError: true;
  parseAs: 'json';
  kyOptions: Omit<KyOptions, 'method' | 'prefixUrl'>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  requestValidator: ((data: unknown) => Promise<void>) | undefined;
  responseValidator: ((data: unknown) => Promise<void>) | undefined;
}

type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

type Send<T> = (common: CommonOptions) => Promise<{ data: T; response: Response }>;

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
  if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('createCardIssuingClient: apiKey is required.');
  if (typeof apiSecret !== 'string' || apiSecret === '') throw new TypeError('createCardIssuingClient: apiSecret is required.');
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new TypeError('createCardIssuingClient: baseUrl must be an absolute URL such as http://127.0.0.1:4010.');
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new TypeError('createCardIssuingClient: baseUrl must be an http or https URL.');
  }

  // The HMAC key is imported once per client, not once per request.
  let signer: Signer;
  try {
    signer = createSigner({ apiKey, apiSecret, bodyHash: options.bodyHash ?? false, secretEncoding: options.secretEncoding ?? 'utf8' });
  } catch (error) {
    throw error instanceof TypeError ? new TypeError(error.message.replace(/^signRequest:/, 'createCardIssuingClient:')) : error;
  }
  const client = createClient({ baseUrl: baseUrl.href.replace(/\/+$/, ''), throwOnError: true, responseStyle: 'fields', parseAs: 'json' });
  const validateResponses = options.validateResponses ?? true;
  const validateRequests = options.validateRequests ?? true;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new TypeError('createCardIssuingClient: maxResponseBytes must be a positive whole number of bytes.');
  }
  const hooks = options.hooks ?? {};
  const clientRetry = resolveRetry(options.retry, undefined);
  const clientKyRetry = { get: kyRetry(clientRetry, false), idempotent: kyRetry(clientRetry, true) };

  const call = <T>(operation: OperationId, method: 'GET' | 'POST', callOptions: RequestOptions | undefined, send: Send<T>): ApiPromise<T> =>
    new ApiPromise(run(operation, method, callOptions ?? {}, send));

  /** A list operation: the page asked for, each next page fetched by the same call with the page's `nextCursor`. */
  const list = <B extends PageBody>(operation: OperationId, listOptions: ListOptions | undefined, send: (page: PageParams) => Send<B>): PagePromise<B> => {
    const { limit, cursor, ...callOptions } = listOptions ?? {};
    const fetchPage = (after: string | undefined): PagePromise<B> => {
      const page: PageParams = { ...(limit === undefined ? {} : { limit }), ...(after === undefined ? {} : { cursor: after }) };
      return new PagePromise(run(operation, 'GET', callOptions, send(page)).then((r) => ({ ...r, data: toPage(r.data, fetchPage) })));
    };
    return fetchPage(cursor);
  };

  async function run<T>(operation: OperationId, method: 'GET' | 'POST', callOptions: RequestOptions, send: Send<T>): Promise<ApiResponse<T>> {
    const retry = callOptions.retry === undefined ? clientRetry : resolveRetry(options.retry, callOptions.retry);
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A POST is safe to retry only with an idempotency key: made once here, so every retry carries the same one.
    const idempotencyKey =
      method !== 'POST' || callOptions.idempotencyKey === false
        ? undefined
        : (callOptions.idempotencyKey ?? (retry.limit > 0 ? randomUuid() : undefined));
    const state = {
      attempt: 0, sentAt: 0, authorization: '', stringToSign: '', status: undefined as number | undefined, requestId: undefined as string | undefined,
    };
    const event = (request: Request): RequestEvent => ({ operation, method, url: request.url, attempt: state.attempt, idempotencyKey });
    // What no error may show, even when a hostile server echoes it: the secret, the header and its signature.
    const redact = () => [apiSecret, state.authorization, state.authorization.split(':')[1] ?? ''];
    const timeoutError = () => new TimeoutError({ code: 'TIMEOUT', detail: `${operation}: no complete response within ${timeoutMs} ms.`, timeoutMs });

    const mapKyError = async (error: Error): Promise<Error> => {
      if (error instanceof CardIssuingError) return error;
      if (isHTTPError(error)) {
        const read = (await loadProblem()).readProblem(error.data);
        return errorFromProblem(
          { status: error.response.status, headers: error.response.headers, body: error.data, redact: redact(), signedString: state.stringToSign },
          read,
        );
      }
      if (isTimeoutError(error)) return timeoutError();
      if (isNetworkError(error)) {
        // The cause is the transport's error, never ky's (which holds the signed request).
        const cause = error.cause;
        const reason = cause instanceof Error ? `: ${cause.message}` : '';
        return new NetworkError({ code: 'NETWORK_ERROR', detail: `${operation}: could not reach ${baseUrl.origin}${reason}.`, cause });
      }
      return error; // an abort keeps the signal's reason, as fetch does
    };

    const sign = async (request: Request) => {
      // The five published parts never include the body: read it only when the body hash is on.
      const body = signer.bodyHash && request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
      const signed = await signer.sign({ method: request.method, url: request.url, body });
      request.headers.set('Authorization', signed.authorization);
      state.authorization = signed.authorization;
      state.stringToSign = signed.stringToSign;
      state.sentAt = Date.now();
      notify(hooks.onRequest, () => event(request));
    };

    // Each attempt's response, seen where it arrives: in the transport, not in a ky afterResponse hook, for which
    // ky clones every response (a tee of its body, a third of the SDK's own cost per call on loopback).
    const observe = (fetch: FetchFunction): FetchFunction => async (input, init) => {
      const response = await fetch(input, init);
      state.status = response.status;
      state.requestId = response.headers.get('x-request-id') ?? undefined;
      notify(hooks.onResponse, () => ({
        operation, method, url: input instanceof Request ? input.url : String(input), attempt: state.attempt, idempotencyKey,
        status: response.status, requestId: state.requestId, elapsedMs: Date.now() - state.sentAt,
      }));
      return response;
    };

    // ky's timeout ends at the response headers; this bounds the body too, in time and in size.
    const transport = boundCall(observe(options.fetch ?? ((input, init) => globalThis.fetch(input, init))), {
      timeoutMs, maxResponseBytes, timeoutError,
      tooLargeError: () => new ResponseTooLargeError({
        detail: `${operation}: the response body is larger than ${maxResponseBytes} bytes (maxResponseBytes).`, maxResponseBytes,
        status: state.status, requestId: state.requestId, redact: redact(),
      }),
    }, callOptions.signal);

    const kyOptions: Omit<KyOptions, 'method' | 'prefixUrl'> = {
      throwHttpErrors: true,
      timeout: timeoutMs,
      retry: {
        ...(retry === clientRetry ? clientKyRetry[idempotencyKey === undefined ? 'get' : 'idempotent'] : kyRetry(retry, idempotencyKey !== undefined)),
        // ky asks this once an attempt has failed and its error body is read, before it waits to retry: the attempt
        // is over, so its body timer must not run on into the wait. Undefined leaves the decision to ky's rules.
        shouldRetry: () => void transport.end(),
      },
      fetch: transport.fetch,
      hooks: {
        beforeRequest: [
          async ({ request }) => {
            state.attempt = 1;
            await sign(request);
          },
        ],
        beforeRetry: [
          async ({ request, error, retryCount }) => {
            state.attempt = retryCount + 1;
            const reason = await mapKyError(error);
            if (reason instanceof CardIssuingError) notify(hooks.onRetry, () => ({ ...event(request), error: reason }));
            await sign(request); // fresh nonce and timestamp: the server refuses a replayed nonce
          },
        ],
        beforeError: [({ error }) => mapKyError(error)],
      },
    };

    const common: CommonOptions = {
      client,
      throwOnError: true,
      parseAs: 'json',
      kyOptions,
      ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
      signal: transport.signal,
      requestValidator: validateRequests
        ? async (data) => {
            const errors = (validation ?? (await loadValidation())).requestErrors(operation, data);
            if (errors) {
              throw new ValidationError({
                code: 'VALIDATION_FAILED',
                detail: `${operation}: the request was not sent, ${errors.length === 1 ? '1 argument is' : `${errors.length} arguments are`} invalid (${errors.map((e) => e.path).join(', ')}).`,
                errors,
              });
            }
          }
        : undefined,
      responseValidator: validateResponses
        ? async (data) => {
            const errors = (validation ?? (await loadValidation())).responseErrors(operation, data);
            // Paths and messages can hold a hostile server's key names: redacted like everything else it sends.
            if (errors) {
              throw new ResponseValidationError({ operation, errors: errors.slice(0, MAX_REPORTED_ERRORS), status: state.status, requestId: state.requestId, redact: redact() });
            }
          }
        : undefined,
    };

    let result: { data: T; response: Response };
    try {
      result = await send(common);
    } catch (error) {
      // The caller's abort keeps the caller's reason, whenever it came (as fetch does).
      if (callOptions.signal?.aborted && error === callOptions.signal.reason) throw error;
      throw toSdkError(error, operation, state.attempt > 0 ? { status: state.status, requestId: state.requestId } : undefined, redact());
    } finally {
      transport.end();
    }
    return {
      data: result.data,
      status: result.response.status,
      headers: result.response.headers,
      requestId: state.requestId, // the last attempt's, read where it arrived
    };
  }

  /** Errors that reach us outside ky and our validators: a body that is not JSON, a validator giving way. */
  function toSdkError(
    error: unknown, operation: string, response: { status: number | undefined; requestId: string | undefined } | undefined, redact: string[],
  ): unknown {
    const sent = response !== undefined;
    if (error instanceof CardIssuingError) return error;
    if (error instanceof SyntaxError && sent) {
      // Never pass the SyntaxError on: its message quotes the body.
      return new ResponseValidationError({ operation, errors: [{ path: '', message: 'The response body is not JSON' }], ...response });
    }
    if (sent && response.status !== undefined && response.status < 300 && error instanceof Error && !isAbort(error)) {
      // Whatever else fails on a received body (a validator giving way on a huge or deep body: RangeError) is still
      // a response that could not be validated; its own message may quote the body, so it is not passed on.
      return new ResponseValidationError({ operation, errors: [{ path: '', message: `The response could not be validated (${error.name})` }], ...response });
    }
    return error;
  }

  const detailsCall = (
    operation: OperationId,
    callOptions: CardDetailsRequestOptions,
    send: (publicKey: string) => Send<{ encryptedDetails: string }>,
  ): ApiPromise<CardDetails> => {
    const { keyPair, ...rest } = callOptions;
    const response = (async () => {
      const { decryptCardDetails, exportPublicKey } = await loadCardDetails();
      const r = await run(operation, 'GET', rest, send(await exportPublicKey(keyPair)));
      return { ...r, data: await decryptCardDetails(r.data.encryptedDetails, keyPair) };
    })();
    return new ApiPromise(response);
  };

  return {
    s2s: {
      users: {
        create: (body, o) => call('createUser', 'POST', o, (c) => api.createUser({ ...c, body })),
        get: (userId, o) => call('getUser', 'GET', o, (c) => api.getUser({ ...c, path: { userId } })),
      },
      consents: {
        sign: (userId, consentId, o) => call('signUserConsent', 'POST', o, (c) => api.signUserConsent({ ...c, path: { userId, consentId } })),
      },
      email: {
        requestOtp: (userId, o) => call('requestEmailOtp', 'POST', o, (c) => api.requestEmailOtp({ ...c, path: { userId } })),
        confirm: (userId, body, o) => call('confirmEmail', 'POST', o, (c) => api.confirmEmail({ ...c, path: { userId }, body })),
      },
      cards: {
        listConfigs: (userId, o) => list('listCardConfigs', o, (page) => (c) => api.listCardConfigs({ ...c, path: { userId }, query: page })),
        create: (userId, body, o) => call('createCard', 'POST', o, (c) => api.createCard({ ...c, path: { userId }, body })),
        chargeDraft: (cardId, o) => call('chargeDraft', 'POST', o, (c) => api.chargeDraft({ ...c, path: { cardId } })),
        completeDraft: (cardId, o) => call('completeDraft', 'POST', o, (c) => api.completeDraft({ ...c, path: { cardId } })),
        activate: (cardId, o) => call('activateCard', 'POST', o, (c) => api.activateCard({ ...c, path: { cardId } })),
        list: (userId, o) => list('listCards', o, (page) => (c) => api.listCards({ ...c, query: { userId, ...page } })),
        getDetails: (cardId, o) =>
          detailsCall('getCardDetails', o, (publicKey) => (c) => api.getCardDetails({ ...c, path: { cardId }, query: { publicKey } })),
      },
      balances: {
        list: (userId, o) => list('listBalances', o, (page) => (c) => api.listBalances({ ...c, query: { userId, ...page } })),
      },
      deposits: {
        listTypes: (balanceId, o) => list('listDepositTypes', o, (page) => (c) => api.listDepositTypes({ ...c, path: { balanceId }, query: page })),
        listAddresses: (balanceId, type, o) =>
          list('listDepositAddresses', o, (page) => (c) => api.listDepositAddresses({ ...c, path: { balanceId, type }, query: page })),
        createAddress: (balanceId, type, body, o) =>
          call('createDepositAddress', 'POST', o, (c) => api.createDepositAddress({ ...c, path: { balanceId, type }, body })),
        listVerifications: (query, o) =>
          list('listDepositVerifications', o, (page) => (c) =>
            api.listDepositVerifications({ ...c, query: { ...(query?.userId ? { userId: query.userId } : {}), ...page } })),
        approveVerification: (id, body, o) =>
          call('approveDepositVerification', 'POST', o, (c) => api.approveDepositVerification({ ...c, path: { id }, body })),
      },
    },
    app: {
      deposits: {
        listTypes: (userUuid, o) => list('listAppDepositTypes', o, (page) => (c) => api.listAppDepositTypes({ ...c, query: { userUuid, ...page } })),
        listAddresses: (balanceUuid, type, o) =>
          list('listAppDepositAddresses', o, (page) => (c) => api.listAppDepositAddresses({ ...c, path: { balanceUuid, type }, query: page })),
        createAddress: (balanceUuid, type, body, o) =>
          call('createAppDepositAddress', 'POST', o, (c) => api.createAppDepositAddress({ ...c, path: { balanceUuid, type }, body })),
        listVerifications: (userUuid, o) =>
          list('listAppDepositVerifications', o, (page) => (c) => api.listAppDepositVerifications({ ...c, query: { userUuid, ...page } })),
        approveVerification: (id, body, o) =>
          call('approveAppDepositVerification', 'POST', o, (c) => api.approveAppDepositVerification({ ...c, path: { id }, body })),
      },
      consents: {
        sign: (userUuid, consentUuid, o) =>
          call('signAppConsent', 'POST', o, (c) => api.signAppConsent({ ...c, path: { consentUuid }, query: { userUuid } })),
      },
    },
    corporates: {
      users: {
        create: (body, o) => call('createBusinessUser', 'POST', o, (c) => api.createBusinessUser({ ...c, body })),
      },
      approvals: {
        create: (corporateUuid, body, o) => call('createApproval', 'POST', o, (c) => api.createApproval({ ...c, path: { corporateUuid }, body })),
        get: (corporateUuid, approvalUuid, o) =>
          call('getApproval', 'GET', o, (c) => api.getApproval({ ...c, path: { corporateUuid, approvalUuid } })),
        listForUser: (corporateUuid, userUuid, o) =>
          list('listUserApprovals', o, (page) => (c) => api.listUserApprovals({ ...c, path: { corporateUuid, userUuid }, query: page })),
        getDetails: (corporateUuid, approvalUuid, o) =>
          detailsCall('getApprovalCardDetails', o, (publicKey) => (c) =>
            api.getApprovalCardDetails({ ...c, path: { corporateUuid, approvalUuid }, query: { publicKey } }),
          ),
        increaseBudget: (corporateUuid, approvalUuid, body, o) =>
          call('increaseApprovalBudget', 'POST', o, (c) => api.increaseApprovalBudget({ ...c, path: { corporateUuid, approvalUuid }, body })),
      },
      deposits: {
        list: (corporateUuid, o) =>
          list('listCorporateDepositAddresses', o, (page) => (c) => api.listCorporateDepositAddresses({ ...c, path: { corporateUuid }, query: page })),
      },
      topUps: {
        list: (corporateUuid, o) => list('listTopUps', o, (page) => (c) => api.listTopUps({ ...c, path: { corporateUuid }, query: page })),
      },
    },
  };
}

/** The client's retry settings merged with a call's; `false` on either level turns retries off. */
function resolveRetry(clientRetry: RetryConfig | false | undefined, callRetry: RetryConfig | false | undefined): Required<RetryConfig> {
  if (callRetry === false || (clientRetry === false && callRetry === undefined)) return { ...DEFAULT_RETRY, limit: 0 };
  return { ...DEFAULT_RETRY, ...(clientRetry || {}), ...(callRetry ?? {}) };
}

/** The SDK's retry rules as ky's retry options: ky decides, waits and retries. */
function kyRetry(retry: Required<RetryConfig>, idempotent: boolean): KyRetryOptions {
  return {
    limit: retry.limit,
    // GET always; POST only when it carries an Idempotency-Key.
    methods: idempotent ? ['get', 'post'] : ['get'],
    statusCodes: RETRY_STATUS_CODES,
    afterStatusCodes: RETRY_STATUS_CODES,
    maxRetryAfter: retry.maxRetryAfterMs,
    backoffLimit: retry.maxDelayMs,
    delay: (attempt) => retry.initialDelayMs * 2 ** (attempt - 1),
    // "Equal jitter": 50-100 % of the backoff, so that clients spread out but never retry at once.
    jitter: (delay) => delay * (0.5 + Math.random() / 2),
    // A timed-out request may have been processed; the caller decides.
    retryOnTimeout: false,
  };
}

/** At most this many mismatches are kept in a ResponseValidationError (a hostile body could make millions). */
const MAX_REPORTED_ERRORS = 100;

function isAbort(error: Error): boolean {
  return error.name === 'AbortError';
}

/** Calls an observer with the event `make` builds (only when there is an observer). */
function notify<E>(hook: ((event: E) => void) | undefined, make: () => E): void {
  if (!hook) return;
  try {
    hook(make());
  } catch {
    // An observer must never break a request.
  }
}
