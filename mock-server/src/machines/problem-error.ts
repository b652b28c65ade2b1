/**
 * The one error type of the mock: the state machines, the domain and the control API throw it, and the HTTP layer
 * turns it into `application/problem+json` (the spec's `Problem` schema). Its status is the one the spec gives its
 * code (`x-status` of `ProblemCode`, generated into `problemStatus`), so no call site writes a status. It sits with
 * the machines, the lowest layer that throws it. Programmatic control calls throw it as is, so a test sees the same
 * `status` and `code` in-process as over HTTP.
 * @module
 */
import type { ProblemCode } from 'card-issuing-sdk';
import { problemStatus } from 'card-issuing-sdk/server';

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

/** A problem code whose status the spec fixes (every code but `INJECTED_FAULT`). */
export type StatusedProblemCode = {
  [C in ProblemCode]: (typeof problemStatus)[C] extends number ? C : never;
}[ProblemCode];

/** The problem codes the spec answers with `status` (`CodeOfStatus<409>`: the state errors). */
export type CodeOfStatus<S extends number> = {
  [C in ProblemCode]: (typeof problemStatus)[C] extends S ? C : never;
}[ProblemCode];

/** An error with a stable code of the spec's closed `ProblemCode` set (`NOT_FOUND`, ...) and that code's HTTP status. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  #code: ProblemCode;
  #status: number;

  /** A problem of `code`, with the status the spec gives it; the compiler refuses a code the spec does not have. */
  constructor(
    code: StatusedProblemCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    const status = problemStatus[code];
    super(`${status} ${code}: ${detail}`);
    this.#code = code;
    this.#status = status;
  }

  /** The problem code. */
  get code(): ProblemCode {
    return this.#code;
  }

  /** The HTTP status. */
  get status(): number {
    return this.#status;
  }

  /**
   * The problem of a fault injected through the control API, at the status the fault names (400-599): the only
   * status `INJECTED_FAULT` has; for another code, the fault checked that it is the code's own.
   */
  static injected(status: number, code: ProblemCode, detail: string, extras: ProblemExtras = {}): ProblemError {
    const error = new ProblemError('INTERNAL_ERROR', detail, extras);
    error.#code = code;
    error.#status = status;
    error.message = `${status} ${code}: ${detail}`;
    return error;
  }
}
