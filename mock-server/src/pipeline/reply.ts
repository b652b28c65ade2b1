/**
 * Replies as data, and `application/problem+json` (RFC 9457) as the spec's `Problem` schema has it: type URI,
 * title, status, detail, code, requestId, instance, and the extras of the code (errors, currentStatus, operation,
 * stringToSign). Never a secret, never the Authorization header.
 * @module
 */
import type { Problem, ProblemCode } from 'card-issuing-sdk';
import { ProblemError } from '../domain/errors';
import { boundProblem } from './limits';

/** Where the problem types are documented (the spec's examples use these URIs). */
export const PROBLEM_TYPE_BASE = 'https://docs.card-issuing.example/errors/';

const TITLES: Partial<Record<ProblemCode, string>> = {
  VALIDATION_FAILED: 'Invalid request',
  MALFORMED_JSON: 'Malformed JSON',
  PUBLIC_KEY_INVALID: 'Invalid public key',
  AUTH_MISSING: 'Signature missing',
  AUTH_MALFORMED: 'Malformed Authorization header',
  AUTH_UNKNOWN_KEY: 'Unknown api key',
  AUTH_TIMESTAMP_SKEW: 'Timestamp out of range',
  AUTH_NONCE_REUSED: 'Nonce reused',
  AUTH_SIGNATURE_MISMATCH: 'Signature mismatch',
  NOT_FOUND: 'Not found',
  ROUTE_NOT_FOUND: 'No such route',
  INVALID_TRANSITION: 'Invalid transition',
  RATE_LIMITED: 'Too many requests',
  INTERNAL_ERROR: 'Internal error',
  // Answered by the standalone server around the pipeline.
  MALFORMED_REQUEST: 'Malformed request',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  ORIGIN_NOT_ALLOWED: 'Origin not allowed',
  HOST_NOT_ALLOWED: 'Host not allowed',
  URI_TOO_LONG: 'URI too long',
  HEADERS_TOO_LARGE: 'Headers too large',
  STATE_NOT_SAVED: 'State not saved',
};

/** The title of a code: from the table, else the code in words ("INSUFFICIENT_FUNDS" → "Insufficient funds"). */
export function titleOf(code: ProblemCode): string {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return TITLES[code] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** The Problem body of an error for one request. */
export function problemBody(error: ProblemError, requestId: string, instance: string): Problem {
  const { retryAfter: _retryAfter, ...extras } = error.extras;
  // Cut to the spec's bounds: a problem may name an unknown field or a path as long as the request allowed.
  return boundProblem({
    type: PROBLEM_TYPE_BASE + error.code.toLowerCase().replace(/_/g, '-'),
    title: titleOf(error.code),
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
    instance,
    ...extras,
  });
}

/** A response as data: what the pipeline builds, stores for idempotency, and an adapter sends. */
export interface Reply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /**
   * A body that is written as it comes instead of `body` (the event stream of `/__mock/events/stream`); never
   * stored, never replayed.
   */
  stream?: ReadableStream<Uint8Array>;
}

/** The problem+json reply of an error, with `X-Request-Id` (and `Retry-After` when the error gives one). */
export function problemReply(error: ProblemError, requestId: string, instance: string): Reply {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', 'x-request-id': requestId };
  if (error.extras.retryAfter !== undefined) {
    headers['retry-after'] = String(error.extras.retryAfter);
    // The spec's RateLimit header (IETF draft) on a 429: nothing left in this window, which resets after Retry-After.
    if (error.status === 429) headers.ratelimit = `"default";r=0;t=${error.extras.retryAfter}`;
  }
  return { status: error.status, headers, body: JSON.stringify(problemBody(error, requestId, instance)) };
}

/** A JSON success reply with `X-Request-Id`. */
export function jsonReply(body: unknown, status: number, requestId: string): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}

/**
 * The fetch `Response` of a reply (the msw adapter's answer), with the `Date` an HTTP server sends: a client whose
 * clock is off reads the server's time from it after `AUTH_TIMESTAMP_SKEW`. Set when sent, never stored, so an
 * idempotent replay carries the time of the replay.
 */
export function toResponse(reply: Reply, extraHeaders: Record<string, string> = {}): Response {
  return new Response(reply.stream ?? reply.body, {
    status: reply.status,
    headers: { date: new Date().toUTCString(), ...reply.headers, ...extraHeaders },
  });
}

/** The problem code of a reply, when it is a problem (for logs and observers). */
export function replyCode(reply: Reply): string | undefined {
  if (reply.status < 400 || !reply.headers['content-type']?.includes('problem+json')) return undefined;
  try {
    const code = (JSON.parse(reply.body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Any thrown value as a ProblemError: ProblemErrors as they are, anything else a 500 INTERNAL_ERROR. */
export function asProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  return new ProblemError(
    'INTERNAL_ERROR',
    `The mock failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
