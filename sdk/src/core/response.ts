/**
 * Reading and checking a call's data with the generated zod schemas (`./validation`, loaded on first use by
 * `./lazy`): the arguments before anything is sent, the parsed body after. In `'warn'` mode differences are reported
 * (logger and hook, once per operation and path) and the body is returned as sent.
 * @module
 */
import type { OperationId } from '../operation-table';
import { type CallState, type EngineContext, notify, redaction } from './call';
import { ResponseValidationError, ValidationError } from './errors/classes';
import { loadedValidation, loadValidation } from './lazy';
import type { CallParts } from './wire';

/** At most this many mismatches are kept in a ResponseValidationError (a hostile body could make millions). */
const MAX_REPORTED_ERRORS = 100;

/** The `validateResponses` option as a mode; `true` is `'strict'` (the default). */
export function responseValidation(value: unknown): 'strict' | 'warn' | false {
  if (value === undefined || value === true || value === 'strict') return 'strict';
  if (value === 'warn' || value === false) return value;
  throw new TypeError(
    `createCardIssuingClient: validateResponses must be 'strict', 'warn' or false (got ${JSON.stringify(value)}).`,
  );
}

/** Refuses a call whose arguments do not match its operation's request schema, before anything is sent. */
export async function validateRequest(operation: string, parts: CallParts): Promise<void> {
  // The request schema covers { body, path, query, headers }; headers are the SDK's own, not checked here.
  const errors = (loadedValidation() ?? (await loadValidation())).requestErrors(operation as OperationId, {
    path: parts.path,
    query: parts.query,
    body: parts.body,
  });
  if (errors) {
    throw new ValidationError({
      code: 'VALIDATION_FAILED',
      detail: `${operation}: the request was not sent, ${errors.length === 1 ? '1 argument is' : `${errors.length} arguments are`} invalid (${errors.map((e) => e.path).join(', ')}).`,
      errors,
    });
  }
}

/** Checks a parsed body against its operation's response schema: refused when strict, reported when 'warn'. */
export async function validateResponse(engine: EngineContext, call: CallState, data: unknown): Promise<void> {
  const { operation } = call;
  const errors = (loadedValidation() ?? (await loadValidation())).responseErrors(operation as OperationId, data);
  if (!errors) return;
  // Paths and messages can hold a hostile server's key names: redacted like everything else it sends.
  if (engine.responseMode === 'strict') {
    throw new ResponseValidationError({
      operation,
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      status: call.status,
      requestId: call.requestId,
      redact: redaction(engine, call),
    });
  }
  for (const warning of (loadedValidation() ?? (await loadValidation())).newDifferences(
    operation,
    errors.slice(0, MAX_REPORTED_ERRORS),
    engine.warned,
  )) {
    engine.log.warn(warning.line);
    notify(engine.hooks.onValidationWarning, () => ({
      operation,
      method: call.method,
      url: call.url,
      path: warning.path,
      message: warning.message,
      status: call.status,
      requestId: call.requestId,
    }));
  }
}
