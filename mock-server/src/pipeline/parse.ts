/**
 * The parse stage: the body's text, and its JSON for operations that take a body (400 MALFORMED_JSON otherwise).
 * @module
 */
import { ProblemError } from '../domain/errors';
import { decodeUtf8 } from './limits';

/** The body as text ('' for none); 400 MALFORMED_JSON when it is not UTF-8 (never replaced silently). */
export function bodyText(body: Uint8Array | undefined): string {
  return decodeUtf8(body);
}

/** The JSON of a body text; undefined for an empty body; 400 MALFORMED_JSON when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ProblemError('MALFORMED_JSON', 'The request body is not valid JSON.');
  }
}

/** The query parameters of a `?a=b` search string (the last value of a repeated name wins). */
export function parseQuery(search: string): Record<string, string> {
  return search === '' ? {} : Object.fromEntries(new URLSearchParams(search));
}
