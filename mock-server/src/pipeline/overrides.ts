/**
 * Overrides, as MSW users expect them: one operation of one tenant answers with a given status, body and headers
 * (the next `times` requests, or every one until removed) instead of the domain's answer. Typed from the generated
 * operation table and schemas, so an undeclared status or a body of the wrong shape does not compile; checked
 * against the spec's response schema when set (refused naming each bad path), unless `unchecked`. Kept as plain
 * JSON on the tenant (store/tenants.ts), beside its faults.
 * @module
 */
import * as z from 'zod';
import type { Problem, ProblemCode } from 'card-issuing-sdk';
import { schemas } from 'card-issuing-sdk/schemas';
import { operationTable, problemStatus, type OperationId, type OperationRow } from 'card-issuing-sdk/server';
import { ProblemError } from '../domain/errors';
import type { OverrideRule, Tenant } from '../store';
import { codeOfStatus } from './faults';
import { jsonReply, problemBody, type Reply } from './reply';
import { fieldErrors, strict, type FieldError } from './validation';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type NumberOf<S> = S extends `${infer N extends number}` ? N : never;
/** 400 to 599: every operation of the spec declares `4XX` and `5XX` answers (a `Problem`). */
export type ErrorStatus = NumberOf<`${4 | 5}${Digit}${Digit}`>;
type Row<K extends OperationId> = Extract<OperationRow, { operationId: K }>;
/** The success status the spec declares for operation `K`. */
export type SuccessStatus<K extends OperationId> = Row<K>['status'];
/** The body the spec declares for operation `K`'s success (the generated response schema's input). */
export type SuccessBody<K extends OperationId> = z.input<(typeof schemas)[Row<K>['schemas']['response']]>;

interface OverrideCommon {
  /** Response headers (names any case); `Content-Type` defaults to JSON, `X-Request-Id` is the mock's. */
  headers?: Record<string, string>;
  /** How many requests it answers (default: every one, until removed or reset). */
  times?: number;
  /** Wait this long first (ms). */
  delayMs?: number;
}

/**
 * What `mock.override(operationId, ...)` takes: the success status with a body of the spec's response schema; an
 * error status (400-599) with an optional problem (members over the status's own code, `codeOfStatus`); or, with
 * `unchecked: true`, any body at a declared status (deliberate nonsense).
 */
export type OverrideSpec<K extends OperationId = OperationId> =
  | (OverrideCommon & { status: SuccessStatus<K>; body: SuccessBody<K>; unchecked?: false })
  | (OverrideCommon & { status: ErrorStatus; body?: Partial<Problem>; unchecked?: false })
  | (OverrideCommon & { status: SuccessStatus<K> | ErrorStatus; body?: unknown; unchecked: true });

/** `POST /__mock/overrides` and `override()`: the untyped shape, checked at run time. */
export const zOverrideBody = z.strictObject({
  operationId: z.string().min(1).max(100),
  status: z.int().min(100).max(599),
  body: z.unknown().optional(),
  headers: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'A header name'), z.string().max(8192))
    .optional(),
  times: z.int().min(1).max(1_000_000).optional(),
  delayMs: z.number().min(0).max(600_000).optional(),
  unchecked: z.boolean().optional(),
});

/** At most this many overrides wait in one tenant. */
export const MAX_OVERRIDES = 1000;

const rows = new Map<string, OperationRow>(operationTable.map((row) => [row.operationId, row]));

/** Adds an override to a tenant; refuses an unknown operation, an undeclared status or a body the spec does not allow. */
export function setOverride(tenant: Tenant, operationId: string, given: object): OverrideRule {
  const parsed = z.safeParse(zOverrideBody, { ...given, operationId });
  if (!parsed.success) throw refused(fieldErrors(parsed.error, 'body'));
  const spec = parsed.data;
  const row = rows.get(spec.operationId);
  let body = spec.body === undefined ? undefined : asJson(spec.body);
  const errors = overrideErrors(tenant, spec, row, body);
  if (errors.length > 0) throw refused(errors);
  if (body === null) body = undefined;
  tenant.ruleSeq = (tenant.ruleSeq ?? 0) + 1;
  const rule: OverrideRule = {
    id: `override_${tenant.ruleSeq}`,
    operationId: spec.operationId,
    status: spec.status,
    ...(body !== undefined ? { body } : {}),
    ...(spec.headers ? { headers: lowerCased(spec.headers) } : {}),
    ...(spec.delayMs !== undefined ? { delayMs: spec.delayMs } : {}),
    ...(spec.unchecked ? { unchecked: true as const } : {}),
    remaining: spec.times ?? null,
  };
  tenant.overrides.push(rule);
  return structuredClone(rule);
}

type OverrideBody = z.infer<typeof zOverrideBody>;

/** What is wrong with an override: its operation, its status, the tenant's room for it, and its body. */
function overrideErrors(
  tenant: Tenant,
  spec: OverrideBody,
  row: OperationRow | undefined,
  body: unknown,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!row) errors.push({ path: 'body.operationId', message: `No operation ${spec.operationId} in the spec` });
  else if (spec.status !== row.status && !(spec.status >= 400 && spec.status <= 599))
    errors.push({
      path: 'body.status',
      message: `${row.operationId} answers ${row.status}, or 400 to 599 (a Problem)`,
    });
  if (tenant.overrides.length >= MAX_OVERRIDES)
    errors.push({ path: 'body.operationId', message: `At most ${MAX_OVERRIDES} overrides at once; clear some` });
  if (body instanceof Error) errors.push({ path: 'body.body', message: 'Not JSON (a BigInt, a cycle?)' });
  if (errors.length === 0 && row && !spec.unchecked && !(body instanceof Error))
    errors.push(...answerErrors(spec.status, row, body));
  return errors;
}

/**
 * The body checked against the spec: the operation's response schema for its status, a Problem for an error. Its
 * errors are named where the body is in the override (`body.body.items`), as every control error names its field.
 */
function answerErrors(status: number, row: OperationRow, body: unknown): FieldError[] {
  if (status !== row.status) {
    const problem = answerProblem(status, body, 'req_0000000000000000', row.path);
    return problemErrors(status, problem);
  }
  if (body === undefined) return [{ path: 'body.body', message: `A ${row.status} answer needs a body` }];
  return schemaErrors(responseSchema(row), body);
}

/** Removes one override by id; false when the tenant has none of that id. */
export function removeOverride(tenant: Tenant, id: string): boolean {
  const index = tenant.overrides.findIndex((o) => o.id === id);
  if (index < 0) return false;
  tenant.overrides.splice(index, 1);
  return true;
}

/** The latest override of an operation (as msw's `server.use`, the last one set wins), used up by one. */
export function takeOverride(tenant: Tenant, operationId: string): OverrideRule | undefined {
  const index = tenant.overrides.findLastIndex((o) => o.operationId === operationId);
  if (index < 0) return undefined;
  const rule = tenant.overrides[index]!;
  if (rule.remaining !== null) {
    rule.remaining -= 1;
    if (rule.remaining <= 0) tenant.overrides.splice(index, 1);
  }
  return rule;
}

/** The reply of an override for one request. */
export function overrideReply(rule: OverrideRule, requestId: string, instance: string): Reply {
  const row = rows.get(rule.operationId);
  const success = row !== undefined && rule.status === row.status;
  let reply: Reply;
  if (success || rule.unchecked) {
    reply =
      rule.body === undefined
        ? { status: rule.status, headers: { 'x-request-id': requestId }, body: '' }
        : jsonReply(rule.body, rule.status, requestId);
    if (!success && rule.body !== undefined && isProblemLike(rule.body))
      reply.headers['content-type'] = 'application/problem+json';
  } else {
    reply = {
      status: rule.status,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId },
      body: JSON.stringify(answerProblem(rule.status, rule.body, requestId, instance)),
    };
  }
  reply.headers = { ...reply.headers, ...rule.headers, 'x-request-id': requestId };
  return reply;
}

/** The problem an error override answers: the status's own code (or the body's), its members over it. */
function answerProblem(status: number, body: unknown, requestId: string, instance: string): Problem {
  const given = (typeof body === 'object' && body !== null ? body : {}) as Partial<Problem>;
  const code = (typeof given.code === 'string' ? given.code : codeOfStatus(status)) as ProblemCode;
  const base = problemBody(ProblemError.injected(status, code, 'An overridden answer.'), requestId, instance);
  return { ...base, ...given };
}

/**
 * 400 VALIDATION_FAILED naming each bad field of the override where it is in `POST /__mock/overrides`'s body:
 * `body.status`, `body.headers.X`, and the response body's own paths under `body.body` (`body.body.items.0.status`).
 */
function refused(errors: FieldError[]): ProblemError {
  const first = errors[0]!;
  return new ProblemError(
    'VALIDATION_FAILED',
    `The override is invalid: ${first.path} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.`,
    { errors },
  );
}

function problemErrors(status: number, problem: Problem): FieldError[] {
  const errors = schemaErrors(schemas.zProblem, problem);
  if (problem.status !== status)
    errors.push({ path: 'body.body.status', message: `The problem's status must be the answer's (${status})` });
  const codeStatus = problemStatus[problem.code];
  if (codeStatus != null && codeStatus !== status)
    errors.push({
      path: 'body.body.code',
      message: `${problem.code} comes with status ${codeStatus}, not ${status}`,
    });
  return errors;
}

function schemaErrors(schema: z.core.$ZodType, value: unknown): FieldError[] {
  const result = z.safeParse(strict(schema), value);
  return result.success ? [] : fieldErrors(result.error, 'body').map((e) => ({ ...e, path: `body.${e.path}` }));
}

function responseSchema(row: OperationRow): z.core.$ZodType {
  return (schemas as unknown as Record<string, z.core.$ZodType>)[row.schemas.response]!;
}

/** The body as JSON keeps it (a copy: the override never shares objects with the caller), or the error. */
function asJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function isProblemLike(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'code' in body && 'status' in body;
}

/** Header names as the replies keep them (lower case), so that a later `X-Request-Id` is the mock's own. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) out[name.toLowerCase()] = headers[name]!;
  return out;
}
