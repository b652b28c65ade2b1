/**
 * The one error type of the mock: the domain, the state machines and the control API throw it, and the HTTP
 * layer turns it into `application/problem+json` (the spec's `Problem` schema). Programmatic control calls
 * throw it as is, so a test sees the same `status` and `code` in-process as over HTTP.
 * @module
 */
import type { ProblemCode } from 'card-issuing-sdk';

/** Extra members of a problem, beside type, title, status, detail and code. */
export interface ProblemExtras {
  /** `VALIDATION_FAILED`: one entry per bad field, `path` like `body.email`. */
  errors?: { path: string; message: string }[];
  /** 409 state errors: the resource's current status. */
  currentStatus?: string;
  /** 409 state errors: the operation that was refused. */
  operation?: string;
  /** `AUTH_SIGNATURE_MISMATCH` from the mock: the string it expected to be signed. */
  stringToSign?: string;
  /** 429: seconds to wait (sent as `Retry-After`). */
  retryAfter?: number;
}

/** An error with an HTTP status and a stable code of the spec's closed `ProblemCode` set (`NOT_FOUND`, ...). */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';

  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

/** 404 NOT_FOUND for a resource that does not exist in this tenant. */
export function notFound(what: string, id: string): ProblemError {
  return new ProblemError(404, 'NOT_FOUND', `No ${what} ${id}.`);
}

/** 422 for a business rule. */
export function unprocessable(code: ProblemCode, detail: string): ProblemError {
  return new ProblemError(422, code, detail);
}

/** 409 for a resource in the wrong state, naming its status and the refused operation. */
export function conflict(code: ProblemCode, detail: string, currentStatus: string, operation: string): ProblemError {
  return new ProblemError(409, code, detail, { currentStatus, operation });
}

/** 400 VALIDATION_FAILED naming each bad field. */
export function validationFailed(errors: { path: string; message: string }[]): ProblemError {
  const detail = errors.length === 1 ? `${errors[0]!.path} is invalid: ${errors[0]!.message}.` : `${errors.length} fields are invalid.`;
  return new ProblemError(400, 'VALIDATION_FAILED', detail, { errors });
}
