/**
 * The request as the pipeline sees it, without a transport: method, the absolute URL the client signed, headers by
 * lower-case name, and the raw body bytes. The msw adapter makes one from a fetch `Request`, the node:http front
 * from an `IncomingMessage` (without building a fetch `Request` at all).
 * @module
 */

/** One request, transport-free. */
export interface PipelineRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The absolute URL as received (scheme, host, port, path, query; percent-encoding kept). */
  readonly url: string;
  /** The path of `url` (percent-encoding kept). */
  readonly pathname: string;
  /** The query of `url` with its `?`, or ''. */
  readonly search: string;
  /** A header's value by lower-case name (several values joined with ", "), or undefined. */
  header(name: string): string | undefined;
  /** Every header, lower-case names (for observers; not on the hot path). */
  headers(): Record<string, string>;
  /** The raw body bytes; undefined when there is none. */
  readonly body: Uint8Array | undefined;
}

/** A {@link PipelineRequest} of a fetch `Request` (msw handlers, the service worker); reads the body. */
export async function fromFetchRequest(request: Request): Promise<PipelineRequest> {
  const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  const url = request.url;
  const { pathname, search } = splitUrl(url);
  return {
    method: request.method.toUpperCase(),
    url,
    pathname,
    search,
    header: (name) => request.headers.get(name) ?? undefined,
    headers: () => Object.fromEntries(request.headers),
    body: bytes && bytes.byteLength > 0 ? bytes : undefined,
  };
}

/** The path and query of an absolute URL, as they are in its text (no decoding, no normalisation). */
export function splitUrl(url: string): { pathname: string; search: string } {
  const schemeEnd = url.indexOf('://');
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (pathStart < 0) return { pathname: '/', search: '' };
  const hashAt = url.indexOf('#', pathStart);
  const end = hashAt < 0 ? url.length : hashAt;
  const q = url.indexOf('?', pathStart);
  if (q < 0 || q > end) return { pathname: url.slice(pathStart, end), search: '' };
  return { pathname: url.slice(pathStart, q), search: q + 1 === end ? '' : url.slice(q, end) };
}
