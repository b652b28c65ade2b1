/**
 * Injected faults: the next `times` requests that match an operation (by operationId, or by method and path
 * pattern) answer with a problem (status, code, detail, `Retry-After`) or a dropped connection, after an optional
 * delay, so that an integrator can test retries, timeouts and error handling. A fault without a code answers with
 * its status's own code ({@link codeOfStatus}): the spec's one code for it (`x-status` of `ProblemCode`, generated
 * into `problemStatus`: 429 RATE_LIMITED, 500 INTERNAL_ERROR), 503 SERVICE_UNAVAILABLE, and INJECTED_FAULT for
 * any other status: one with several codes (a 422 is no more REGISTRATION_INCOMPLETE than INSUFFICIENT_FUNDS) or none.
 * Faults are plain JSON data on the tenant (store/tenants.ts), listed and cleared like its overrides.
 * @module
 */
import * as z from 'zod';
import type { ProblemCode } from 'card-issuing-sdk';
import { schemas } from 'card-issuing-sdk/schemas';
import { operationTable, problemStatus } from 'card-issuing-sdk/server';
import type { FaultRule, Tenant } from '../store';
import { ProblemError } from '../domain/errors';
import { compilePathPattern, MAX_PATTERN_TOKENS, type PathPattern } from './path-pattern';
import { validateParts } from './validation';

const OPERATION_IDS = operationTable.map((o) => o.operationId) as [string, ...string[]];

/** What `faults.inject` and `POST /__mock/faults` take. */
export const zFaultSpec = z.strictObject({
  /** The spec's operationId (`listUserApprovals`): the operation's method and path. */
  operationId: z.enum(OPERATION_IDS).optional(),
  /** Only this method (any case); default: every method. */
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/)
    .optional(),
  /** The request path, exact or a pattern: `*` matches anything, `{name}` or `:name` one segment. */
  path: z.string().min(1).max(MAX_PATTERN_TOKENS).optional(),
  /** The status to answer with (400-599), or 0 for a network error; omitted: the code's status, or only the delay. */
  status: z.union([z.literal(0), z.int().min(400).max(599)]).optional(),
  /** The problem code (default: the status's own code, see `codeOfStatus`); its status is the spec's. */
  code: z.optional(schemas.zProblemCode),
  /** The problem's `detail` (default: says it was injected). */
  detail: z.string().min(1).max(1000).optional(),
  /** Seconds sent as `Retry-After` (default 1 for 429 RATE_LIMITED and 503 SERVICE_UNAVAILABLE, else none). */
  retryAfter: z.int().min(0).max(86_400).optional(),
  /** Wait this long first (ms). */
  delayMs: z.number().min(0).max(600_000).optional(),
  /** How many matching requests it affects (default 1). */
  times: z.int().min(1).max(1_000_000).optional(),
});

/** What `faults.inject` takes. */
export type FaultSpec = z.input<typeof zFaultSpec>;

/** At most this many faults wait in one tenant (each is tried against every request). */
export const MAX_FAULTS = 1000;

/** Codes that come with `Retry-After` (the spec says to wait that long): given 1 second unless the fault says. */
const RETRY_AFTER_CODES: ReadonlySet<ProblemCode> = new Set(['RATE_LIMITED', 'SERVICE_UNAVAILABLE']);

/** The spec's codes of each status (`x-status`), in the spec's order. */
const CODES_OF_STATUS = Object.entries(problemStatus).reduce((byStatus, [code, status]) => {
  if (status !== null) byStatus.set(status, [...(byStatus.get(status) ?? []), code as ProblemCode]);
  return byStatus;
}, new Map<number, ProblemCode[]>());

/**
 * A status whose codes include one that means the status itself, as a gateway would say it: 503 is the service
 * being unavailable (its other code, STATE_NOT_SAVED, is one failure of the mock's state file).
 */
const MEANING_OF_STATUS: ReadonlyMap<number, ProblemCode> = new Map([[503, 'SERVICE_UNAVAILABLE']]);

/**
 * The code a problem of `status` answers with when none is given (a fault, an override): the spec's code when the
 * status has exactly one (429 RATE_LIMITED, 500 INTERNAL_ERROR), the one that means the status itself (503
 * SERVICE_UNAVAILABLE), and otherwise INJECTED_FAULT, which claims no cause: any one code of a status with several
 * (400, 401, 404, 409, 422) would name a cause the test never set up, and a status with none (502) has none to name.
 */
export function codeOfStatus(status: number): ProblemCode {
  const codes = CODES_OF_STATUS.get(status) ?? [];
  return codes.length === 1 ? codes[0]! : (MEANING_OF_STATUS.get(status) ?? 'INJECTED_FAULT');
}

/** Adds a fault to a tenant; refuses one that makes no sense with 400 VALIDATION_FAILED naming each field. */
export function injectFault(tenant: Tenant, given: FaultSpec): FaultRule {
  const [spec] = validateParts([{ location: 'body', schema: zFaultSpec, value: given }]) as [FaultSpec];
  const codeStatus = spec.code === undefined ? undefined : problemStatus[spec.code];
  const errors = [...targetErrors(spec), ...answerErrors(spec, codeStatus)];
  if (tenant.faults.length >= MAX_FAULTS)
    errors.push({ path: 'body', message: `At most ${MAX_FAULTS} faults wait at once; clear them or let some be used` });
  if (errors.length > 0) throw new ProblemError('VALIDATION_FAILED', 'The fault is invalid.', { errors });

  tenant.ruleSeq = (tenant.ruleSeq ?? 0) + 1;
  const rule: FaultRule = {
    id: `fault_${tenant.ruleSeq}`,
    ...faultTarget(spec),
    ...faultAnswer(spec, codeStatus),
    remaining: spec.times ?? 1,
  };
  tenant.faults.push(rule);
  return { ...rule };
}

type FieldError = { path: string; message: string };

/** The requests a fault is for (a path without its origin: it matches the request's path). */
function faultTarget(spec: FaultSpec): Pick<FaultRule, 'operationId' | 'method' | 'path'> {
  return {
    ...(spec.operationId !== undefined ? { operationId: spec.operationId } : {}),
    ...(spec.method !== undefined ? { method: spec.method.toUpperCase() } : {}),
    ...(spec.path !== undefined ? { path: spec.path.replace(/^[a-z]+:\/\/[^/]+/i, '') } : {}),
  };
}

/** What a fault answers: the status (the code's when not given), the code (the status's), Retry-After, delay. */
function faultAnswer(
  spec: FaultSpec,
  codeStatus: number | null | undefined,
): Pick<FaultRule, 'status' | 'code' | 'detail' | 'retryAfter' | 'delayMs'> {
  const status = spec.status ?? codeStatus ?? undefined;
  const code = status === undefined || status === 0 ? undefined : (spec.code ?? codeOfStatus(status));
  const retryAfter = spec.retryAfter ?? (code !== undefined && RETRY_AFTER_CODES.has(code) ? 1 : undefined);
  return {
    ...(status !== undefined ? { status } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(spec.detail !== undefined ? { detail: spec.detail } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    ...(spec.delayMs !== undefined ? { delayMs: spec.delayMs } : {}),
  };
}

/** What is wrong with the requests a fault is for: an operationId, or a method and path, not both. */
function targetErrors(spec: FaultSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.operationId !== undefined && (spec.path !== undefined || spec.method !== undefined))
    errors.push({ path: 'body.operationId', message: 'Give an operationId, or a method and path, not both' });
  if (spec.operationId === undefined && spec.path === undefined)
    errors.push({ path: 'body.path', message: 'Give an operationId or a path (pattern)' });
  return errors;
}

/** What is wrong with what a fault answers: its status, code, detail, Retry-After and delay together. */
function answerErrors(spec: FaultSpec, codeStatus: number | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.code !== undefined && spec.status === 0)
    errors.push({ path: 'body.code', message: 'A dropped connection (status 0) has no code' });
  else if (spec.code !== undefined && codeStatus === null && spec.status === undefined)
    errors.push({ path: 'body.status', message: `${spec.code} needs a status` });
  else if (codeStatus != null && spec.status !== undefined && spec.status !== codeStatus)
    errors.push({ path: 'body.code', message: `${spec.code} comes with status ${codeStatus}, not ${spec.status}` });
  if (spec.status === undefined && spec.code === undefined && spec.delayMs === undefined)
    errors.push({ path: 'body.status', message: 'Give a status, a code, a delayMs, or a mix' });
  if (spec.status === 0 && (spec.detail !== undefined || spec.retryAfter !== undefined))
    errors.push({ path: 'body.status', message: 'A dropped connection (status 0) has no detail or Retry-After' });
  return errors;
}

/** Removes one fault by id; false when the tenant has none of that id. */
export function removeFault(tenant: Tenant, id: string): boolean {
  const index = tenant.faults.findIndex((f) => f.id === id);
  if (index < 0) return false;
  tenant.faults.splice(index, 1);
  return true;
}

/** The first fault matching the request, used up by one; undefined when none matches. */
export function takeFault(
  tenant: Tenant,
  operationId: string,
  method: string,
  pathname: string,
): FaultRule | undefined {
  const upper = method.toUpperCase();
  const index = tenant.faults.findIndex((f) =>
    f.operationId !== undefined
      ? f.operationId === operationId
      : (f.method === undefined || f.method === upper) && f.path !== undefined && pathPattern(f.path).matches(pathname),
  );
  if (index < 0) return undefined;
  const fault = tenant.faults[index]!;
  fault.remaining -= 1;
  if (fault.remaining <= 0) tenant.faults.splice(index, 1);
  return fault;
}

const compiled = new Map<string, PathPattern>();

/** The compiled pattern of a fault path (linear-time matching: see path-pattern.ts), cached by its text. */
function pathPattern(path: string): PathPattern {
  let pattern = compiled.get(path);
  if (!pattern) {
    pattern = compilePathPattern(path);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(path, pattern);
  }
  return pattern;
}

/** The problem a fault with a status answers with: its code (or the status's), detail and `Retry-After`. */
export function faultProblem(fault: FaultRule & { status: number }): ProblemError {
  const code = (fault.code as ProblemCode | undefined) ?? codeOfStatus(fault.status);
  const detail =
    fault.detail ??
    (fault.retryAfter !== undefined
      ? `An injected fault; try again in ${fault.retryAfter} second${fault.retryAfter === 1 ? '' : 's'}.`
      : 'An injected fault.');
  return ProblemError.injected(fault.status, code, detail, {
    ...(fault.retryAfter !== undefined ? { retryAfter: fault.retryAfter } : {}),
  });
}
