/**
 * Bounds the spec's schemas state, read from the generated zod schemas (one source: editing a `maximum` in the spec
 * and regenerating changes the mock).
 * @module
 */
import { zLimit, zMoney, zProblem } from 'card-issuing-sdk/internal';

/** A bound of a generated schema; throws at load when the spec stopped stating it. */
function stated(bound: number | null | undefined, what: string): number {
  if (typeof bound !== 'number' || !Number.isFinite(bound)) throw new Error(`spec/openapi.yaml states no ${what}.`);
  return bound;
}

/** The spec's default `limit` (the `Limit` parameter's default). */
export const DEFAULT_LIMIT = stated(zLimit.def.defaultValue, 'default limit');
/** The spec's largest `limit`. */
export const MAX_LIMIT = stated(zLimit.unwrap().maxValue, 'maximum limit');
/** The largest `Money.amount` the spec allows (minor units). */
export const MAX_MONEY = stated(zMoney.shape.amount.maxValue, 'maximum Money amount');

const problem = zProblem.shape;
const fieldError = problem.errors.unwrap().element.shape;

/** The longest text of each string member of a Problem (the spec's `maxLength`s). */
export const PROBLEM_TEXT_LIMITS = {
  title: stated(problem.title.maxLength, 'maximum Problem.title length'),
  detail: stated(problem.detail.unwrap().maxLength, 'maximum Problem.detail length'),
  instance: stated(problem.instance.unwrap().maxLength, 'maximum Problem.instance length'),
  requestId: stated(problem.requestId.unwrap().maxLength, 'maximum Problem.requestId length'),
  currentStatus: stated(problem.currentStatus.unwrap().maxLength, 'maximum Problem.currentStatus length'),
  operation: stated(problem.operation.unwrap().maxLength, 'maximum Problem.operation length'),
  stringToSign: stated(problem.stringToSign.unwrap().maxLength, 'maximum Problem.stringToSign length'),
} as const;

/** The longest `path` and `message` of one entry of `Problem.errors`. */
export const FIELD_ERROR_LIMITS = {
  path: stated(fieldError.path.maxLength, 'maximum Problem.errors[].path length'),
  message: stated(fieldError.message.maxLength, 'maximum Problem.errors[].message length'),
} as const;

/** The most entries `Problem.errors` holds (`maxItems`; zod keeps an array's bound only among its checks). */
export const MAX_PROBLEM_ERRORS = stated(
  (problem.errors.unwrap().def.checks ?? []).map((check) => check._zod.def as { check: string; maximum?: number }).find((def) => def.check === 'max_length')?.maximum,
  'maximum number of Problem.errors',
);
