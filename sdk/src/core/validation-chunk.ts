/**
 * The engine's validation chunk (`./lazy`): the generated schemas' checks (`./validation`) and what a call makes of
 * a failed one: the {@link ValidationError} of refused arguments, and the {@link ResponseValidationError} or the
 * warnings of a response that departs from the spec. Loaded with the first validated call, so a client with
 * validation off never carries either.
 * @module
 * @internal
 */
import type { OperationId } from '../operation-table';
import type { ClientHooks } from '../options';
import { ResponseValidationError, ValidationError } from './errors/classes';
import type { Log } from './logger';
import { newDifferences, requestErrors, responseErrors } from './validation';

export { isValidRequest, isValidResponse } from './validation';

/** At most this many mismatches are kept in a ResponseValidationError (a hostile body could make millions). */
const MAX_REPORTED_ERRORS = 100;

/** The {@link ValidationError} of arguments that fail their operation's request schema, or undefined when they pass. */
export async function requestRefusal(operation: string, data: unknown): Promise<ValidationError | undefined> {
  const errors = await requestErrors(operation as OperationId, data);
  if (!errors) return undefined;
  const count = errors.length === 1 ? '1 argument is' : `${errors.length} arguments are`;
  return new ValidationError({
    code: 'VALIDATION_FAILED',
    detail: `${operation}: the request was not sent, ${count} invalid (${errors.map((e) => e.path).join(', ')}).`,
    errors,
  });
}

/** What {@link reportResponse} needs from the call whose response it checks. */
export interface ResponseReport {
  operation: string;
  method: string;
  url: string;
  mode: 'strict' | 'warn';
  /** What 'warn' mode already reported for this client. */
  warned: Set<string>;
  log: Log;
  hooks: ClientHooks;
  status: number | undefined;
  requestId: string | undefined;
  redact: readonly string[];
}

/**
 * Checks a parsed body against its operation's response schema: throws a {@link ResponseValidationError} when
 * strict; when 'warn', logs each difference not reported before and tells `onValidationWarning`.
 */
export async function reportResponse(data: unknown, report: ResponseReport): Promise<void> {
  const { operation, status, requestId } = report;
  const found = await responseErrors(operation as OperationId, data);
  if (!found) return;
  const errors = found.slice(0, MAX_REPORTED_ERRORS);
  // Paths and messages can hold a hostile server's key names: redacted like everything else it sends.
  if (report.mode === 'strict') {
    throw new ResponseValidationError({ operation, errors, status, requestId, redact: report.redact });
  }
  for (const warning of newDifferences(operation, errors, report.warned)) {
    report.log.warn(warning.line);
    try {
      report.hooks.onValidationWarning?.({
        operation,
        method: report.method,
        url: report.url,
        path: warning.path,
        message: warning.message,
        status,
        requestId,
      });
    } catch {
      // An observer must never break a request.
    }
  }
}
