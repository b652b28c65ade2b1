/**
 * Headers an application adds to every request (`headers` on the client) or to one call (`headers` in its options):
 * a `traceparent`, a tenant header of its own. None may replace what the SDK owns: `Authorization` (the signature),
 * and `Idempotency-Key`, which the `idempotencyKey` option sets (one per call, the same on every retry).
 * @module
 */

/** Headers as the options take them: a record (a value `undefined` or `null` removes a client header for one call), or a `Headers`. */
export type HeadersInit = Record<string, string | undefined | null> | Headers;

/** Header names an application may not set, with what to do instead. */
const OWNED: Record<string, string> = {
  authorization: 'the SDK signs every request: set apiKey and apiSecret',
  'idempotency-key': 'use the idempotencyKey option',
};

/**
 * The headers of one call: the client's, then the call's (a call's `undefined`/`null` removes a client header).
 * Throws a TypeError naming the header when one of them is owned by the SDK or is not a valid header.
 */
export function mergeHeaders(where: string, ...layers: (HeadersInit | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const layer of layers) {
    if (!layer) continue;
    const entries: [string, string | undefined | null][] =
      layer instanceof Headers ? [...layer.entries()] : Object.entries(layer);
    for (const [rawName, value] of entries) mergeHeader(where, out, rawName, value);
  }
  return out;
}

/** One header of a layer into `out`: `undefined`/`null` removes it; an SDK-owned or invalid one throws. */
function mergeHeader(where: string, out: Record<string, string>, rawName: string, value: string | undefined | null) {
  const name = rawName.toLowerCase();
  const owned = OWNED[name];
  if (owned) throw new TypeError(`${where}: the ${rawName} header cannot be set (${owned}).`);
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(rawName))
    throw new TypeError(`${where}: "${rawName}" is not a valid header name.`);
  if (value === undefined || value === null) {
    delete out[name];
    return;
  }
  if (typeof value !== 'string' || /[\r\n\0]/.test(value))
    throw new TypeError(`${where}: the ${rawName} header must be a string without line breaks.`);
  out[name] = value;
}
