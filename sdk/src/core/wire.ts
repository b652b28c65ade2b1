/**
 * A call's URL and body as they go on the wire, from the operation's path template and the call's arguments. The
 * bytes are those hey-api's clients send (test/sdk/wire-bytes.test.ts compares them for every operation), so a
 * server that verifies the signed URL sees what it always saw: path parameters with `encodeURIComponent`, query
 * parameters in the spec's default style (`form`, `explode: true`; `encodeURIComponent`, not URLSearchParams, which
 * writes a space as `+` and escapes `!'()*`), absent (`undefined`/`null`) members left out.
 * @module
 */
import { ValidationError } from './errors/classes';

/** A call's arguments by where they go. */
export interface CallParts {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * `base` (no trailing slash) + the template with its `{name}` placeholders filled + the query. A placeholder with
 * no value stays as it is (only a call with request validation off can lack one; the server answers 404). A value
 * that would change the path called is a {@link ValidationError} before anything is sent, whatever `validateRequests`
 * says: `.` and `..` are dot segments that URL resolution removes (`/s2s/users/..` is `/s2s/`), and an empty one
 * leaves `//` or a trailing `/`. Any other value is one segment: `encodeURIComponent` leaves no `/`, `?` or `#`.
 */
export function requestUrl(
  base: string,
  template: string,
  path: Record<string, unknown> | undefined,
  query: Record<string, unknown> | undefined,
): string {
  let url = base + template;
  if (path)
    url = url.replace(PLACEHOLDER, (match, name: string) => {
      if (path[name] == null) return match;
      const value = pathValue(path[name]);
      if (/^\.{0,2}$/.test(value)) {
        // `errors` as every other refused argument has it (`path.userId`), so code that reads it finds the field.
        const message = 'must not be ".", ".." or empty';
        throw new ValidationError({
          code: 'VALIDATION_FAILED',
          detail: `path.${name} ${message}`,
          errors: [{ path: `path.${name}`, message }],
        });
      }
      return value;
    });
  const search = query ? queryString(query) : '';
  return search ? `${url}?${search}` : url;
}

/** A path parameter in the `simple` style: an array's items joined by commas, a date in ISO form. */
function pathValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => encodeURIComponent(item as string)).join(',');
  if (value instanceof Date) return value.toISOString();
  return encodeURIComponent(value as string);
}

/** The query: `name=value` pairs joined by `&`; an array repeats its name, an object is `name[key]=value`, a
 * date its ISO form. */
export function queryString(query: Record<string, unknown>): string {
  let search = '';
  const add = (name: string, value: unknown, encode = true) => {
    if (value == null) return;
    if (typeof value === 'object') throw new TypeError(`The query parameter ${name} is nested too deeply to be sent.`);
    search += `${search ? '&' : ''}${name}=${encode ? encodeURIComponent(value as string) : (value as string)}`;
  };
  for (const name in query) {
    const value = query[name];
    if (Array.isArray(value)) for (const item of value) add(name, item);
    else if (value instanceof Date) add(name, value.toISOString(), false);
    else if (value !== null && typeof value === 'object')
      for (const key in value) add(`${name}[${key}]`, (value as Record<string, unknown>)[key]);
    else add(name, value);
  }
  return search;
}

/** A JSON body; a bigint is written as a string of its digits (JSON has no bigints). */
export function jsonBody(body: unknown): string | undefined {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}
