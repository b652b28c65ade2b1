import type { ProblemCode } from 'card-issuing-sdk';
import { ProblemError } from '../domain/errors.js';
import { problemReply, toResponse } from '../http/problem.js';

/** The content type of every error the server answers (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * A problem+json response for the errors the server itself answers: a route nothing handles, a request it
 * cannot read, an unexpected exception. Errors of the API (signing, validation, state) come from the mock's
 * handlers; this is only for what happens around them, built by the same code so that both read alike.
 */
export function problemResponse(input: { status: number; code: ProblemCode; detail: string; requestId: string; instance?: string }): Response {
  return toResponse(problemReply(new ProblemError(input.status, input.code, input.detail), input.requestId, input.instance ?? ''));
}

/** The `code` of a problem+json body, or undefined when the body is not one. */
export function problemCode(contentType: string | null, body: Uint8Array): string | undefined {
  if (!contentType?.toLowerCase().startsWith(PROBLEM_CONTENT_TYPE)) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'string') return parsed.code;
  } catch {
    // A malformed problem body has no code to log; the status still says what happened.
  }
  return undefined;
}
