/**
 * The check of a whole mock state (every tenant with its credentials, what a state file holds) and of credentials.
 * @module
 */
import { ProblemError } from '../domain/errors';
import { zApiKey } from '../control';
import { snapshotProblem, type Credentials } from '../store';
import type { ServerState } from './options';

/** Why `value` is not a {@link ServerState}, or undefined when it is one. */
export function serverStateProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a server state is a JSON object';
  const s = value as Partial<ServerState>;
  if (s.version !== 1) return 'a server state has "version": 1';
  if (typeof s.defaultApiKey !== 'string') return 'a server state has "defaultApiKey"';
  if (!Array.isArray(s.tenants) || s.tenants.length === 0) return 'a server state has "tenants", a non-empty list';
  const keys = new Set<string>();
  for (const [i, t] of s.tenants.entries()) {
    const problem = tenantProblem(t, i, keys);
    if (problem) return problem;
  }
  if (!keys.has(s.defaultApiKey)) return `"defaultApiKey" names no tenant`;
  return undefined;
}

/** Why tenant `i` is not a tenant or repeats one of `keys` (to which its api key is then added). */
function tenantProblem(t: ServerState['tenants'][number], i: number, keys: Set<string>): string | undefined {
  if (typeof t !== 'object' || t === null) return `tenants[${i}] is an object`;
  if (!zApiKey.safeParse(t.apiKey).success || typeof t.apiSecret !== 'string' || t.apiSecret === '')
    return `tenants[${i}] has an "apiKey" and an "apiSecret"`;
  if (keys.has(t.apiKey)) return `tenants[${i}] repeats the api key ${t.apiKey}`;
  keys.add(t.apiKey);
  const problem = snapshotProblem(t.state);
  return problem ? `tenants[${i}].state: ${problem}` : undefined;
}

/** The credentials, checked (400 VALIDATION_FAILED when they are not { apiKey, apiSecret }). */
export function checkCredentials(c: Credentials): Credentials {
  if (
    typeof c !== 'object' ||
    c === null ||
    !zApiKey.safeParse(c.apiKey).success ||
    typeof c.apiSecret !== 'string' ||
    c.apiSecret === ''
  ) {
    throw new ProblemError(
      'VALIDATION_FAILED',
      'Credentials are { apiKey, apiSecret }: an api key of printable ASCII without ":", and a non-empty secret.',
    );
  }
  return { apiKey: c.apiKey, apiSecret: c.apiSecret };
}
