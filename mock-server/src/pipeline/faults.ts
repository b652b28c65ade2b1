/**
 * Injected faults: the next `times` requests that match a method and path pattern answer with a status (after
 * an optional delay), so that an integrator can test retries, timeouts and error handling.
 * @module
 */
import type { FaultRule, Tenant } from '../store';
import { ProblemError } from '../domain/errors';
import { compilePathPattern, MAX_PATTERN_TOKENS, type PathPattern } from './path-pattern';

/** What `faults.inject` takes. */
export interface FaultSpec {
  /** Only this method (any case); default: every method. */
  method?: string;
  /** The request path, exact or a pattern: `*` matches anything, `{name}` or `:name` one segment. */
  path: string;
  /** The status to answer with (400-599), or 0 for a network error; omitted: only the delay. */
  status?: number;
  /** Wait this long first (ms). */
  delayMs?: number;
  /** How many matching requests it affects (default 1). */
  times?: number;
}

/** At most this many faults wait in one tenant (each is tried against every request). */
export const MAX_FAULTS = 1000;

/** Adds a fault to a tenant; refuses a status or count that makes no sense with 400 VALIDATION_FAILED. */
export function injectFault(tenant: Tenant, spec: FaultSpec): FaultRule {
  const errors: { path: string; message: string }[] = [];
  if (typeof spec.path !== 'string' || spec.path.length === 0)
    errors.push({ path: 'path', message: 'A path or path pattern is required' });
  if (
    spec.status !== undefined &&
    !(spec.status === 0 || (Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599))
  ) {
    errors.push({ path: 'status', message: 'A status is 400 to 599, or 0 for a network error' });
  }
  if (spec.delayMs !== undefined && !(Number.isFinite(spec.delayMs) && spec.delayMs >= 0 && spec.delayMs <= 600_000)) {
    errors.push({ path: 'delayMs', message: 'delayMs is 0 to 600000' });
  }
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times >= 1))
    errors.push({ path: 'times', message: 'times is a positive integer' });
  if (spec.status === undefined && spec.delayMs === undefined)
    errors.push({ path: 'status', message: 'Give a status, a delayMs, or both' });
  if (typeof spec.path === 'string' && spec.path.length > MAX_PATTERN_TOKENS) {
    errors.push({ path: 'path', message: `A path pattern has at most ${MAX_PATTERN_TOKENS} characters` });
  }
  if (tenant.faults.length >= MAX_FAULTS)
    errors.push({ path: 'path', message: `At most ${MAX_FAULTS} faults wait at once; reset or let some be used` });
  if (errors.length > 0) throw new ProblemError('VALIDATION_FAILED', 'The fault is invalid.', { errors });
  const rule: FaultRule = {
    ...(spec.method !== undefined ? { method: spec.method.toUpperCase() } : {}),
    path: spec.path.replace(/^[a-z]+:\/\/[^/]+/i, ''),
    ...(spec.status !== undefined ? { status: spec.status } : {}),
    ...(spec.delayMs !== undefined ? { delayMs: spec.delayMs } : {}),
    remaining: spec.times ?? 1,
  };
  tenant.faults.push(rule);
  return rule;
}

/** The first fault matching the request, used up by one; undefined when none matches. */
export function takeFault(tenant: Tenant, method: string, pathname: string): FaultRule | undefined {
  const index = tenant.faults.findIndex(
    (f) => (f.method === undefined || f.method === method.toUpperCase()) && pathPattern(f.path).matches(pathname),
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

/** The problem a fault answers with: 429 RATE_LIMITED (Retry-After 1), 5xx INTERNAL_ERROR, else INJECTED_FAULT. */
export function faultProblem(status: number): ProblemError {
  if (status === 429)
    return new ProblemError('RATE_LIMITED', 'Too many requests (an injected fault); try again in 1 second.', {
      retryAfter: 1,
    });
  if (status >= 500) return ProblemError.injected(status, 'INTERNAL_ERROR', 'The server failed (an injected fault).');
  return ProblemError.injected(status, 'INJECTED_FAULT', 'An injected fault.');
}
