/**
 * What no error may show: every text the SDK puts into an error passes through here with the texts to hide (the
 * api secret, the `Authorization` header and its signature), so a hostile server's echo cannot leak them.
 * @module
 */

/** Replaces every occurrence of the given texts (secrets) with `[REDACTED]`. */
function redactText(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('[REDACTED]');
  return result;
}

/** A copy of `value` with {@link redactText} applied to every string in it, keys included (depth-bounded). */
export function redactDeep<T>(value: T, secrets: readonly string[] | undefined, depth = 0): T {
  if (!secrets || secrets.every((s) => !s)) return value;
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return undefined as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactDeep(v, secrets, depth + 1);
  return out as T;
}
