/**
 * The limits the spec states, enforced before a request has any effect, and the bounds of what the mock answers:
 * - a request target over {@link MAX_TARGET_BYTES} is 414 `URI_TOO_LONG`;
 * - an API body over {@link MAX_API_BODY_BYTES} (the spec's 64 KiB) is 413 `PAYLOAD_TOO_LARGE`; control bodies (a
 *   whole state) may be up to {@link MAX_CONTROL_BODY_BYTES};
 * - a body that is not UTF-8 is 400 `MALFORMED_JSON` (never a silent replacement of its bytes);
 * - a problem's texts and lists are cut to the spec's `maxLength`/`maxItems`, so that an answer never breaks the
 *   spec however long the input it names (an unknown field's name, a long path).
 * @module
 */
import type { Problem } from 'card-issuing-sdk';
import { ProblemError } from '../domain/errors';
import { FIELD_ERROR_LIMITS, MAX_PROBLEM_ERRORS, PROBLEM_TEXT_LIMITS } from '../domain/spec-bounds';

/** The longest request target (path and query), in bytes. */
export const MAX_TARGET_BYTES = 8 * 1024;
/** The largest body of an API operation, in bytes (spec: "Request bodies are at most 64 KiB"). */
export const MAX_API_BODY_BYTES = 64 * 1024;
/** The largest body of a control request (`PUT /__mock/state` carries a whole tenant). */
export const MAX_CONTROL_BODY_BYTES = 16 * 1024 * 1024;

/** 414 when the target is too long; call before routing. */
export function checkTarget(pathname: string, search: string): void {
  if (pathname.length + search.length > MAX_TARGET_BYTES) {
    throw new ProblemError('URI_TOO_LONG', `The request target is longer than ${MAX_TARGET_BYTES} bytes.`);
  }
}

/** 413 when a body is larger than the route allows. */
export function checkBodySize(body: Uint8Array | undefined, control: boolean): void {
  const max = control ? MAX_CONTROL_BODY_BYTES : MAX_API_BODY_BYTES;
  if (body !== undefined && body.byteLength > max) {
    throw new ProblemError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than ${max} bytes${control ? '' : ' (the API limit, 64 KiB)'}.`,
    );
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text; 400 MALFORMED_JSON when its bytes are not UTF-8 (never replaced silently). */
export function decodeUtf8(body: Uint8Array | undefined): string {
  if (body === undefined || body.byteLength === 0) return '';
  try {
    return utf8.decode(body);
  } catch {
    throw new ProblemError('MALFORMED_JSON', 'The request body is not valid UTF-8.');
  }
}

/** A problem cut to the spec's bounds (texts end with "…" when cut; at most the spec's number of errors, the count in `detail`). */
export function boundProblem(problem: Problem): Problem {
  const out: Record<string, unknown> = { ...problem };
  for (const [field, max] of Object.entries(PROBLEM_TEXT_LIMITS)) {
    const value = out[field];
    if (typeof value === 'string') out[field] = cut(value, max);
  }
  if (problem.errors) {
    out.errors = problem.errors.slice(0, MAX_PROBLEM_ERRORS).map((e) => ({
      path: cut(e.path, FIELD_ERROR_LIMITS.path),
      message: cut(e.message, FIELD_ERROR_LIMITS.message),
    }));
    if (problem.errors.length > MAX_PROBLEM_ERRORS) {
      out.detail = cut(
        `${problem.errors.length} fields are invalid; the first ${MAX_PROBLEM_ERRORS} are listed.`,
        PROBLEM_TEXT_LIMITS.detail,
      );
    }
  }
  return out as Problem;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
