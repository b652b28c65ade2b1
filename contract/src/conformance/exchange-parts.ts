/** Reading the parts of one exchange: headers in any shape, media types, bodies, and Ajv errors as words. */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { HeadersLike } from './types';

export function headerGetter(headers: HeadersLike | undefined): (name: string) => string | null {
  if (!headers) return () => null;
  if (headers instanceof Headers) return (name) => headers.get(name);
  const map = new Map<string, string>();
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    map.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  return (name) => map.get(name.toLowerCase()) ?? null;
}

export const mediaTypeOf = (contentType: string | null): string | null =>
  contentType ? (contentType.split(';')[0] ?? '').trim().toLowerCase() : null;

export const isEmptyBody = (body: unknown): boolean => body === undefined || body === null || body === '';

/** Parses a raw body as JSON; a value that is not a string was parsed already. */
export function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof body !== 'string') {
    if (body instanceof Uint8Array || body instanceof ArrayBuffer) return parseBody(new TextDecoder().decode(body));
    return { ok: true, value: body };
  }
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    return { ok: false, error: `is not JSON (${(error as Error).message})` };
  }
}

/** One Ajv error as `location` and `message`, with the detail Ajv keeps in `params`. */
export function describeError(prefix: string, error: ErrorObject): { location: string; message: string } {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? error.keyword;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    // A long closed set (the problem codes) is named by its size and first values, not listed in full.
    const values = params.allowedValues as unknown[];
    message +=
      values.length > 12 ? ` (${values.length} values: ${values.slice(0, 5).join(', ')}, …)` : `: ${values.join(', ')}`;
  }
  if (error.keyword === 'additionalProperties') message += `: '${String(params.additionalProperty)}'`;
  if (error.keyword === 'const') message += `: ${JSON.stringify(params.allowedValue)}`;
  return { location: `${prefix}${error.instancePath}`, message };
}
