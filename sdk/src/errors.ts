/**
 * Typed errors (contract section 4). Every error the SDK throws is a {@link CardIssuingError}; the subclass says
 * what kind it is, `code` says exactly what happened (a stable upper-snake identifier to branch on).
 *
 * No error ever holds the api secret, an `Authorization` header, a signature or card data: not in `message`,
 * not in `toJSON()`, not in a `cause` (HTTP errors have none; a network error's cause is the raw transport error,
 * never ky's error, which holds the signed request).
 * @module
 */
import * as z from 'zod';
import { zProblem } from '../generated/zod.gen';
import type { Problem, ProblemCode } from '../generated/types.gen';

/** Codes a flow helper stops with when the flow itself refuses to go on (beside the server's codes it repeats). */
export type FlowErrorCode =
  | 'CALLBACK_FAILED'
  | 'CONSENTS_DECLINED'
  | 'CONFIG_NOT_FOUND'
  | 'CARD_NOT_ISSUED'
  | 'BALANCE_NOT_FOUND'
  | 'DEPOSIT_TYPE_NOT_FOUND'
  | 'VERIFICATION_NOT_FOUND';

/** Codes of errors the SDK raises itself, with no problem+json from the server to name them. */
export type ClientErrorCode =
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'RESPONSE_VALIDATION_FAILED'
  | 'PRIVATE_KEY_INVALID'
  | 'CARD_DETAILS_DECRYPTION_FAILED'
  | 'CARD_DETAILS_INVALID'
  | 'NO_NEXT_PAGE'
  | 'RESPONSE_TOO_LARGE'
  | FlowErrorCode
  /** A response that is no problem+json of this spec version (a proxy's page, or a code a newer server added). */
  | `HTTP_${number}`;

/**
 * Every `code` an SDK error can carry: the spec's closed `ProblemCode` set (generated, so a code the spec drops or
 * renames fails to compile where it is compared) and the SDK's own codes.
 */
export type ErrorCode = ProblemCode | ClientErrorCode;

/** One bad field of a request (or, for {@link ResponseValidationError}, of a response). */
export interface FieldError {
  /** Where the bad value is, e.g. `body.email` (request) or `items[0].status` (response). */
  path: string;
  /** What is wrong with it (never the value itself). */
  message: string;
}

/** What a {@link CardIssuingError} is made from. */
export interface CardIssuingErrorInit {
  /** The message; defaults to one built from `detail`, `code`, `status` and `requestId`. */
  message?: string;
  /** The HTTP status; undefined when no response was received (network, timeout, client-side checks). */
  status?: number | undefined;
  code: ErrorCode;
  detail?: string | undefined;
  errors?: readonly FieldError[] | undefined;
  requestId?: string | undefined;
  type?: string | undefined;
  title?: string | undefined;
  /** The problem+json body as received (validated), with extension members such as `currentStatus`. */
  problem?: Problem | undefined;
  cause?: unknown;
  /**
   * Texts that must never show (the api secret, the Authorization header): replaced by `[REDACTED]` in every text
   * of the error (message, detail, title, errors, request id, problem) before it is stored, so that neither
   * `message`, `toJSON()` nor `inspect` can show what a hostile server echoed.
   */
  redact?: readonly string[] | undefined;
}

/** The plain-object form of an error, as `JSON.stringify` and loggers see it. */
export interface CardIssuingErrorJSON {
  name: string;
  message: string;
  status: number | undefined;
  code: ErrorCode;
  detail: string;
  errors: FieldError[];
  requestId: string | undefined;
  type: string | undefined;
  title: string | undefined;
  [extra: string]: unknown;
}

/**
 * The brand every {@link CardIssuingError} carries on its prototype chain. `Symbol.for` makes it the same symbol in
 * every copy of the SDK and every realm (ESM and CommonJS builds loaded side by side, a vm context, an iframe), where
 * the classes themselves differ and `instanceof` says false.
 */
const CARD_ISSUING_ERROR = Symbol.for('card-issuing-sdk.CardIssuingError');

/**
 * True when `value` is an error of this SDK, from any copy of it: the ESM or the CommonJS build, another realm, or
 * another installed version. Unlike `instanceof`, which is true only for the very class it names, it reads a brand
 * (`Symbol.for('card-issuing-sdk.CardIssuingError')`), as ky's type guards do. Branch on `code` afterwards.
 *
 * @example
 * ```ts
 * try { await client.s2s.users.get(userId); }
 * catch (error) {
 *   if (isCardIssuingError(error) && error.code === 'NOT_FOUND') return undefined;
 *   throw error;
 * }
 * ```
 */
export function isCardIssuingError(value: unknown): value is CardIssuingError {
  return typeof value === 'object' && value !== null && (value as { [CARD_ISSUING_ERROR]?: unknown })[CARD_ISSUING_ERROR] === true;
}

/**
 * The base of every error the SDK throws. Branch on the subclass (`instanceof NotFoundError`) or on `code`; where
 * the SDK may be loaded twice (ESM and CommonJS in one process), use {@link isCardIssuingError} for the base.
 *
 * @example
 * ```ts
 * try { await client.s2s.cards.chargeDraft(cardId); }
 * catch (error) {
 *   if (error instanceof BusinessRuleError && error.code === 'INSUFFICIENT_FUNDS') { ... }
 *   else throw error;
 * }
 * ```
 */
export class CardIssuingError extends Error {
  override name = 'CardIssuingError';
  /** The HTTP status, or undefined when no response was received. */
  readonly status: number | undefined;
  /** The stable error code (problem+json `code`, or the SDK's own such as `NETWORK_ERROR`). */
  readonly code: ErrorCode;
  /** What went wrong, for people. */
  readonly detail: string;
  /** For validation errors, one entry per bad field; otherwise empty. */
  readonly errors: readonly FieldError[];
  /** The request id (`X-Request-Id`); quote it when asking for support. */
  readonly requestId: string | undefined;
  /** The problem `type` URI. */
  readonly type: string | undefined;
  /** The problem `title`. */
  readonly title: string | undefined;
  /** The problem+json body as received (validated with the generated `zProblem`), when there was one. */
  readonly problem: Problem | undefined;

  constructor(init: CardIssuingErrorInit) {
    const clean = <T>(value: T): T => redactDeep(value, init.redact);
    const detail = clean(init.detail ?? init.title ?? init.code);
    const code = clean(init.code);
    const requestId = clean(init.requestId);
    super(clean(init.message) ?? formatMessage(detail, code, init.status, requestId), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = code;
    this.detail = detail;
    this.errors = Object.freeze(clean([...(init.errors ?? [])]));
    this.requestId = requestId;
    this.type = clean(init.type);
    this.title = clean(init.title);
    this.problem = clean(init.problem);
  }

  /** The fields that matter, for logs and `JSON.stringify`. */
  toJSON(): CardIssuingErrorJSON {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      detail: this.detail,
      errors: [...this.errors],
      requestId: this.requestId,
      type: this.type,
      title: this.title,
    };
  }
}
// On the prototype, not the instance: every subclass inherits it, and neither toJSON() nor a spread copies it.
Object.defineProperty(CardIssuingError.prototype, CARD_ISSUING_ERROR, { value: true });

function formatMessage(detail: string, code: string, status: number | undefined, requestId: string | undefined): string {
  const facts = [code, status === undefined ? undefined : `HTTP ${status}`, requestId === undefined ? undefined : `request ${requestId}`];
  return `${detail} (${facts.filter(Boolean).join(', ')})`;
}

/** 401: the request's signature was missing or refused (`AUTH_*` codes). Check the api key and secret and the clock. */
export class AuthenticationError extends CardIssuingError {
  override name = 'AuthenticationError';
}

/**
 * 400: the request is malformed or does not match the schema (`VALIDATION_FAILED` with `errors`, `MALFORMED_JSON`,
 * `PUBLIC_KEY_INVALID`). Also thrown before sending, with `status` undefined, when the SDK's own check of the
 * arguments against the spec fails (same `code` and `errors` paths as the server's).
 */
export class ValidationError extends CardIssuingError {
  override name = 'ValidationError';
}

/** 404: the resource does not exist, or belongs to another api key (`NOT_FOUND`, `ROUTE_NOT_FOUND`). */
export class NotFoundError extends CardIssuingError {
  override name = 'NotFoundError';
}

/** 409: the resource is in the wrong state for the operation (`INVALID_TRANSITION`, `DRAFT_NOT_CHARGED`, ...). */
export class ConflictError extends CardIssuingError {
  override name = 'ConflictError';
  /** The resource's current status, when the server says. */
  readonly currentStatus: string | undefined;
  /** The operation that was refused, when the server says. */
  readonly operation: string | undefined;

  constructor(init: CardIssuingErrorInit) {
    super(init);
    this.currentStatus = init.problem?.currentStatus;
    this.operation = init.problem?.operation;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), currentStatus: this.currentStatus, operation: this.operation };
  }
}

/** 422: a business rule forbids the operation (`INSUFFICIENT_FUNDS`, `KYC_NOT_PASSED`, `OTP_INVALID`, ...). */
export class BusinessRuleError extends CardIssuingError {
  override name = 'BusinessRuleError';
}

/** 429: too many requests (`RATE_LIMITED`). Thrown once the SDK's own retries are used up. */
export class RateLimitError extends CardIssuingError {
  override name = 'RateLimitError';
  /** Seconds to wait before trying again (`Retry-After`), when the server said. */
  readonly retryAfter: number | undefined;

  constructor(init: CardIssuingErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** 5xx: the server's fault. Thrown once the SDK's retries (for GET, and POST with an idempotency key) are used up. */
export class ServerError extends CardIssuingError {
  override name = 'ServerError';
}

/** No response: the connection failed (DNS, refused, reset, offline). `cause` is the transport's own error. */
export class NetworkError extends CardIssuingError {
  override name = 'NetworkError';
}

/**
 * The attempt did not finish within `timeoutMs`: no response headers in time, or a body that did not arrive in
 * full in time (a server that stalls after its headers). The request may or may not have been processed.
 */
export class TimeoutError extends CardIssuingError {
  override name = 'TimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number | undefined;

  constructor(init: CardIssuingErrorInit & { timeoutMs?: number | undefined }) {
    super(init);
    this.timeoutMs = init.timeoutMs;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/**
 * A response body larger than `maxResponseBytes` (code `RESPONSE_TOO_LARGE`): reading stopped there and the
 * connection was released, so that a server sending without end cannot exhaust the client's memory.
 */
export class ResponseTooLargeError extends CardIssuingError {
  override name = 'ResponseTooLargeError';
  /** The limit that was exceeded, in bytes. */
  readonly maxResponseBytes: number;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { maxResponseBytes: number }) {
    super({ ...init, code: 'RESPONSE_TOO_LARGE' });
    this.maxResponseBytes = init.maxResponseBytes;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), maxResponseBytes: this.maxResponseBytes };
  }
}

/**
 * A successful response whose body does not match the spec's schema (code `RESPONSE_VALIDATION_FAILED`).
 * Names the operation and the path of the first mismatch (`items[0].status`); `errors` lists every mismatch.
 * Turn response validation off with `validateResponses: false` to accept such bodies as they are.
 */
export class ResponseValidationError extends CardIssuingError {
  override name = 'ResponseValidationError';
  /** The operation whose response did not match, e.g. `listCards`. */
  readonly operation: string;
  /** The path of the first mismatch, e.g. `items[0].status` (empty for the body itself). */
  readonly path: string;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { operation: string; errors: readonly FieldError[] }) {
    const first = init.errors[0];
    const path = first?.path ?? '';
    super({
      ...init,
      code: 'RESPONSE_VALIDATION_FAILED',
      detail:
        init.detail ??
        `The response of ${init.operation} does not match the spec at ${path || '(body)'}: ${first?.message ?? 'invalid'}` +
          (init.errors.length > 1 ? ` (and ${init.errors.length - 1} more)` : ''),
    });
    this.operation = init.operation;
    this.path = path;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), operation: this.operation, path: this.path };
  }
}

/** The base of the card-details errors (key pairs, encryption, decryption); never holds key material or card data. */
export class CardDetailsError extends CardIssuingError {
  override name = 'CardDetailsError';
}

/**
 * A public key that is malformed, not RSA, or shorter than 2048 bits (code `PUBLIC_KEY_INVALID`, the same code
 * as the server's 400).
 */
export class PublicKeyInvalidError extends CardDetailsError {
  override name = 'PublicKeyInvalidError';
  constructor(detail: string) {
    super({ code: 'PUBLIC_KEY_INVALID', detail });
  }
}

/** A private key that is malformed, not RSA, or shorter than 2048 bits (code `PRIVATE_KEY_INVALID`). */
export class PrivateKeyInvalidError extends CardDetailsError {
  override name = 'PrivateKeyInvalidError';
  constructor(detail: string) {
    super({ code: 'PRIVATE_KEY_INVALID', detail });
  }
}

/**
 * The encrypted card details could not be decrypted (code `CARD_DETAILS_DECRYPTION_FAILED`): not a JWE of the
 * agreed form, encrypted to another key, or tampered with (header, key, IV, ciphertext or tag).
 */
export class CardDetailsDecryptionError extends CardDetailsError {
  override name = 'CardDetailsDecryptionError';
  constructor(detail: string) {
    super({ code: 'CARD_DETAILS_DECRYPTION_FAILED', detail });
  }
}

/** The decrypted card details are not a valid `CardDetails` (schema or Luhn check; code `CARD_DETAILS_INVALID`). */
export class CardDetailsInvalidError extends CardDetailsError {
  override name = 'CardDetailsInvalidError';
  constructor(detail: string, errors: readonly FieldError[] = []) {
    super({ code: 'CARD_DETAILS_INVALID', detail, errors });
  }
}

/** What {@link errorFromResponse} needs: the status, headers and raw text of a non-2xx response. */
export interface ErrorResponseInput {
  status: number;
  headers: Headers;
  /** The body as received (problem+json, other JSON, text, or nothing). */
  body: unknown;
  /** Texts to blank out of anything the server said (the api secret, the Authorization header), defence in depth. */
  redact?: readonly string[];
  /** The string the client signed; compared with the mock's expected `stringToSign` on a signature mismatch. */
  signedString?: string;
}

/** A problem of a newer spec version: any upper-snake code where this version's enum has none. */
const zNewerProblem = zProblem.extend({ code: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/) });

/**
 * Builds the typed error of a non-2xx response from its problem+json body (validated with the generated
 * `zProblem`). A body that is not a problem (HTML from a proxy, empty, other JSON) still gives the right class
 * by status, with a generic code (`HTTP_<status>`).
 */
export function errorFromResponse(input: ErrorResponseInput): CardIssuingError {
  const parsed = zProblem.safeParse(typeof input.body === 'string' ? tryJson(input.body) : input.body);
  // Everything the server said is redacted before it is used anywhere (every member, paths and extensions too).
  const problem: Problem | undefined = parsed.success ? redactDeep(parsed.data, input.redact) : undefined;
  // A problem whose code this SDK version does not know (a newer server added it): its words, not its code.
  let newer: { title: string; detail: string; type: string; requestId?: string | undefined } | undefined;
  if (!parsed.success) {
    const other = zNewerProblem.safeParse(typeof input.body === 'string' ? tryJson(input.body) : input.body);
    if (other.success) {
      const { code, title, detail, type, requestId } = redactDeep(other.data, input.redact);
      newer = { title, detail: `${detail ?? title} (code ${code}, unknown to this SDK version)`, type, requestId };
    }
  }
  const requestId = redactDeep(input.headers.get('x-request-id') ?? problem?.requestId ?? newer?.requestId ?? undefined, input.redact);
  const detail = problem?.detail ?? problem?.title ?? newer?.detail ?? `The server answered ${input.status} without a problem+json body.`;
  const hint = problem?.code === 'AUTH_SIGNATURE_MISMATCH' ? signatureMismatchHint(input.signedString, problem.stringToSign) : '';
  const init: CardIssuingErrorInit = {
    status: input.status,
    code: problem?.code ?? `HTTP_${input.status}`,
    detail: hint ? `${detail} ${hint}` : detail,
    errors: problem?.errors,
    requestId,
    type: problem?.type ?? newer?.type,
    title: problem?.title ?? newer?.title,
    problem,
    redact: input.redact,
  };
  switch (input.status) {
    case 400:
      return new ValidationError(init);
    case 401:
      return new AuthenticationError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new BusinessRuleError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfter: parseRetryAfter(input.headers.get('retry-after')) });
    default:
      return input.status >= 500 ? new ServerError(init) : new CardIssuingError(init);
  }
}

/**
 * What a signature mismatch comes from, when the server (the mock, never production) says what it expected to be
 * signed: the same string means the secret differs; otherwise, where the two strings part. Neither string holds a
 * secret: api key, method, URL, timestamp, nonce and body hash.
 */
export function signatureMismatchHint(signed: string | undefined, expected: string | undefined): string {
  if (signed === undefined || expected === undefined) return '';
  if (signed === expected) {
    return 'The server expected exactly the string that was signed, so the api secret is not the one the server holds for this api key.';
  }
  let at = 0;
  while (at < signed.length && at < expected.length && signed[at] === expected[at]) at++;
  const window = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 12), at + 24));
  return `The string signed and the one the server expected differ from character ${at}: signed ${window(signed)}, expected ${window(expected)}.`;
}

/** `Retry-After` in seconds: delay-seconds, or an HTTP date turned into seconds from now. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Replaces every occurrence of the given texts (secrets) with `[REDACTED]`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('[REDACTED]');
  return result;
}

/** A copy of `value` with {@link redactText} applied to every string in it, keys included (depth-bounded). */
export function redactDeep<T>(value: T, secrets: readonly string[] | undefined, depth = 0): T {
  if (!secrets || secrets.every((s) => !s)) return value;
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return undefined as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactDeep(v, secrets, depth + 1);
  return out as T;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The flows of `flows.ts`. */
export type FlowName = 'registerUser' | 'issueCard' | 'depositAddress' | 'approveDeposit';

/**
 * A flow helper stopped at a step. `step` names it; `cause` is what went wrong there: the call's
 * {@link CardIssuingError} (whose `status`, `code`, `errors` and `requestId` this error repeats), or the error a
 * caller's callback threw (code `CALLBACK_FAILED`), or nothing when the flow itself refused to go on (e.g.
 * `CONSENTS_DECLINED`, `KYC_NOT_PASSED`).
 */
export class FlowError extends CardIssuingError {
  override name = 'FlowError';
  /** The flow that stopped. */
  readonly flow: FlowName;
  /** The step it stopped at, e.g. `chargeDraft`. */
  readonly step: string;

  constructor(init: { flow: FlowName; step: string; cause?: unknown; code?: ErrorCode; detail?: string }) {
    const cause = init.cause instanceof CardIssuingError ? init.cause : undefined;
    const reason = init.detail ?? cause?.detail ?? (init.cause instanceof Error ? init.cause.message : 'failed');
    super({
      code: init.code ?? cause?.code ?? 'CALLBACK_FAILED',
      status: cause?.status,
      detail: `${init.flow} stopped at step ${init.step}: ${reason}`,
      errors: cause?.errors,
      requestId: cause?.requestId,
      type: cause?.type,
      title: cause?.title,
      problem: cause?.problem,
      cause: init.cause,
    });
    this.flow = init.flow;
    this.step = init.step;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), flow: this.flow, step: this.step };
  }
}
