/**
 * Bounds the spec's schemas state, read from the generated zod schemas (one source: editing a `maximum` in the spec
 * and regenerating changes the mock).
 * @module
 */
import { schemas } from 'card-issuing-sdk/schemas';
import type * as z from 'zod/mini';

const { zLimit, zMoney, zProblem } = schemas;

/** The schema inside an optional or defaulted one (the generated schemas are zod/mini: no methods to unwrap with). */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { innerType?: z.core.$ZodType };
  return def.innerType ?? schema;
}

/** The definition of a schema's check of one kind (`max_length`, `less_than`), if it has one. */
function checkOf(schema: z.core.$ZodType, kind: string): { maximum?: number; value?: unknown } | undefined {
  const checks = (unwrap(schema)._zod.def.checks ?? []).map(
    (check) => check._zod.def as { check: string; maximum?: number; value?: unknown },
  );
  return checks.find((def) => def.check === kind);
}

const maxLength = (schema: z.core.$ZodType) => checkOf(schema, 'max_length')?.maximum;
const maxValue = (schema: z.core.$ZodType) => checkOf(schema, 'less_than')?.value as number | undefined;

/** A bound of a generated schema; throws at load when the spec stopped stating it. */
function stated(bound: number | null | undefined, what: string): number {
  if (typeof bound !== 'number' || !Number.isFinite(bound)) throw new Error(`spec/openapi.yaml states no ${what}.`);
  return bound;
}

/** The spec's default `limit` (the `Limit` parameter's default). */
export const DEFAULT_LIMIT = stated((zLimit._zod.def as { defaultValue?: number }).defaultValue, 'default limit');
/** The spec's largest `limit`. */
export const MAX_LIMIT = stated(maxValue(zLimit), 'maximum limit');
/** The largest `Money.amount` the spec allows (minor units). */
export const MAX_MONEY = stated(maxValue(zMoney.shape.amount), 'maximum Money amount');

const problem = zProblem.shape;
const fieldError = (unwrap(problem.errors) as typeof problem.errors._zod.def.innerType)._zod.def.element.shape;

/** The longest text of each string member of a Problem (the spec's `maxLength`s). */
export const PROBLEM_TEXT_LIMITS = {
  title: stated(maxLength(problem.title), 'maximum Problem.title length'),
  detail: stated(maxLength(problem.detail), 'maximum Problem.detail length'),
  instance: stated(maxLength(problem.instance), 'maximum Problem.instance length'),
  requestId: stated(maxLength(problem.requestId), 'maximum Problem.requestId length'),
  currentStatus: stated(maxLength(problem.currentStatus), 'maximum Problem.currentStatus length'),
  operation: stated(maxLength(problem.operation), 'maximum Problem.operation length'),
  stringToSign: stated(maxLength(problem.stringToSign), 'maximum Problem.stringToSign length'),
} as const;

/** The longest `path` and `message` of one entry of `Problem.errors`. */
export const FIELD_ERROR_LIMITS = {
  path: stated(maxLength(fieldError.path), 'maximum Problem.errors[].path length'),
  message: stated(maxLength(fieldError.message), 'maximum Problem.errors[].message length'),
} as const;

/** The most entries `Problem.errors` holds (`maxItems`; zod keeps an array's bound only among its checks). */
export const MAX_PROBLEM_ERRORS = stated(maxLength(problem.errors), 'maximum number of Problem.errors');
