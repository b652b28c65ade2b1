/**
 * The domain's shorthands for the mock's one error type ({@link ProblemError}, which the state machines below throw
 * too): each builds the problem of one kind of refusal, its status the one the spec gives the code.
 * @module
 */
import { ProblemError, type CodeOfStatus } from '../machines/problem-error';

export { ProblemError, type CodeOfStatus, type ProblemExtras } from '../machines/problem-error';

/** 404 NOT_FOUND for a resource that does not exist in this tenant. */
export function notFound(what: string, id: string): ProblemError {
  return new ProblemError('NOT_FOUND', `No ${what} ${id}.`);
}

/** 422 for a business rule. */
export function unprocessable(code: CodeOfStatus<422>, detail: string): ProblemError {
  return new ProblemError(code, detail);
}

/** 409 for a resource in the wrong state, naming its status and the refused operation. */
export function conflict(
  code: CodeOfStatus<409>,
  detail: string,
  currentStatus: string,
  operation: string,
): ProblemError {
  return new ProblemError(code, detail, { currentStatus, operation });
}

/** 400 VALIDATION_FAILED naming each bad field. */
export function validationFailed(errors: { path: string; message: string }[]): ProblemError {
  const detail =
    errors.length === 1
      ? `${errors[0]!.path} is invalid: ${errors[0]!.message}.`
      : `${errors.length} fields are invalid.`;
  return new ProblemError('VALIDATION_FAILED', detail, { errors });
}
