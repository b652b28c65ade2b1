/**
 * Request validation with the generated zod schemas: path, query, headers and body, each bad field named
 * (`body.email`, `query.userId`, `path.cardId`) in one 400 VALIDATION_FAILED.
 * @module
 */
import * as z from 'zod';
import { validationFailed } from '../domain/errors';

/** Where a value of the request is. */
export type Location = 'path' | 'query' | 'headers' | 'body';

/** One bad field. */
export interface FieldError {
  path: string;
  message: string;
}

/** The bad fields of a zod error, one per field (the first message wins), prefixed with the location. */
export function fieldErrors(error: z.ZodError, location: Location): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const push = (segments: PropertyKey[], message: string) => {
    const path = [location, ...segments.map(String)].join('.');
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, message });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) push([...issue.path, key], 'Unknown field');
    else push(issue.path, issue.message);
  }
  return out;
}

const strictCache = new WeakMap<z.core.$ZodType, z.core.$ZodType>();

/**
 * The schema with unknown properties refused at every object level. The spec's request bodies are
 * `additionalProperties: false`; the generated zod objects strip unknown keys instead, which would hide a typo.
 */
export function strict<T extends z.core.$ZodType>(schema: T): T {
  const cached = strictCache.get(schema);
  if (cached) return cached as T;
  let result: z.core.$ZodType = schema;
  // The core class: the generated schemas are zod/mini's, the mock's own classic; both are core objects.
  if (schema instanceof z.core.$ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema._zod.def.shape).map(([k, v]) => [k, strict(v)]));
    result = z.strictObject(shape);
  }
  strictCache.set(schema, result);
  return result as T;
}

/** The schema of an operation without query parameters: any parameter is unknown. */
export const NO_QUERY = z.strictObject({});

/**
 * The query of a URL as the object its schema validates. Query values travel as text, so a value whose schema
 * is a number (`limit`) is read as one when it is a decimal integer; anything else stays text for the schema to
 * refuse, naming it.
 */
export function queryValues(schema: z.core.$ZodType, params: URLSearchParams): Record<string, unknown> {
  const shape: Record<string, z.core.$ZodType> = schema instanceof z.core.$ZodObject ? schema._zod.def.shape : {};
  const values: Record<string, unknown> = {};
  for (const [name, value] of params) {
    values[name] = isNumeric(shape[name]) && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return values;
}

function isNumeric(schema: z.core.$ZodType | undefined): boolean {
  let inner: z.core.$ZodType | undefined = schema;
  // Optional and default wrappers hold the real type as their innerType.
  while (inner && (inner instanceof z.core.$ZodOptional || inner instanceof z.core.$ZodDefault))
    inner = inner._zod.def.innerType;
  return inner instanceof z.core.$ZodNumber;
}

const emptyQueries = new WeakMap<z.core.$ZodType, Readonly<Record<string, unknown>> | null>();

/**
 * What a schema makes of an empty query, when that passes and holds plain values only (no object a caller could
 * change): a copy of it, so that a request without a query costs no parse. Undefined otherwise (then zod parses it
 * and names what is missing, as before).
 */
export function emptyQuery(schema: z.core.$ZodType): Record<string, unknown> | undefined {
  let known = emptyQueries.get(schema);
  if (known === undefined) {
    const result = z.safeParse(schema, {});
    const plain =
      result.success &&
      typeof result.data === 'object' &&
      result.data !== null &&
      Object.values(result.data).every((value) => value === null || typeof value !== 'object');
    known = plain ? (result.data as Record<string, unknown>) : null;
    emptyQueries.set(schema, known);
  }
  return known === null ? undefined : { ...known };
}

/** Parses each present part; throws one VALIDATION_FAILED naming every bad field of every part. */
export function validateParts(
  parts: { location: Location; schema: z.core.$ZodType | undefined; value: unknown }[],
): unknown[] {
  const errors: FieldError[] = [];
  const values = parts.map(({ location, schema, value }) => {
    if (!schema) return undefined;
    const result = z.safeParse(schema, value);
    if (result.success) return result.data;
    if (location === 'body' && value === undefined) errors.push({ path: 'body', message: 'A JSON body is required' });
    else errors.push(...fieldErrors(result.error, location));
    return undefined;
  });
  if (errors.length > 0) throw validationFailed(errors);
  return values;
}

type Check = (value: unknown) => boolean;
const compiledPaths = new WeakMap<z.core.$ZodType, Check | null>();

/**
 * True when path parameters pass their schema by a check compiled once from it (each parameter's patterns, length
 * bounds or enum values), without a zod parse; false when they fail it or the schema holds anything else (then zod
 * parses them and names what is wrong, as before). The spec's path parameters are UUIDs and enums.
 */
export function pathPasses(schema: z.core.$ZodType, params: Record<string, string>): boolean {
  let check = compiledPaths.get(schema);
  if (check === undefined) {
    check = compileObject(schema) ?? null;
    compiledPaths.set(schema, check);
  }
  return check?.(params) ?? false;
}

function compileObject(schema: z.core.$ZodType): Check | undefined {
  if (!(schema instanceof z.core.$ZodObject)) return undefined;
  const fields: [string, Check][] = [];
  for (const [name, field] of Object.entries(schema._zod.def.shape)) {
    const check = compileField(field);
    if (!check) return undefined;
    fields.push([name, check]);
  }
  return (value) => {
    const record = value as Record<string, unknown>;
    for (const [name, check] of fields) if (!check(record[name])) return false;
    return true;
  };
}

/** A string with patterns and length bounds only, or an enum of strings; undefined for anything else. */
function compileField(field: z.core.$ZodType): Check | undefined {
  const def = field._zod.def as z.core.$ZodType['_zod']['def'] & {
    pattern?: RegExp;
    entries?: Record<string, unknown>;
    checks?: z.core.$ZodCheck[];
  };
  if (def.type === 'enum' && def.entries && !def.checks?.length) {
    const values = new Set(Object.values(def.entries));
    return (value) => typeof value === 'string' && values.has(value);
  }
  if (def.type !== 'string') return undefined;
  const bounds = stringBounds(def.pattern, def.checks ?? []);
  if (!bounds) return undefined;
  const { patterns, min, max } = bounds;
  if (def.pattern && (def.pattern.global || def.pattern.sticky)) return undefined;
  return (value) =>
    typeof value === 'string' &&
    value.length >= min &&
    value.length <= max &&
    patterns.every((pattern) => pattern.test(value));
}

/** The patterns and length bounds of a string schema's checks; undefined when it has a check of another kind. */
function stringBounds(
  pattern: RegExp | undefined,
  checks: readonly z.core.$ZodCheck[],
): { patterns: RegExp[]; min: number; max: number } | undefined {
  const patterns: RegExp[] = pattern ? [pattern] : [];
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checks) {
    const c = check._zod.def as { check: string; pattern?: RegExp; maximum?: number; minimum?: number };
    if (c.check === 'string_format' && c.pattern && !c.pattern.global && !c.pattern.sticky) patterns.push(c.pattern);
    else if (c.check === 'max_length' && c.maximum !== undefined) max = Math.min(max, c.maximum);
    else if (c.check === 'min_length' && c.minimum !== undefined) min = Math.max(min, c.minimum);
    else return undefined;
  }
  return { patterns, min, max };
}
