/**
 * What the proxy accepts from a caller before anything reaches the target, so that it is safe to leave running on a
 * developer's machine: only origin-form request targets that stay on the target's origin, a body read only once the
 * signature's header holds and never past the API's limit, and none of the caller's local credentials or hop headers
 * forwarded.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseAuthorization, SIGNATURE_TOLERANCE_SECONDS } from 'card-issuing-sdk/server';

/** The spec's limit on a request body ("Request bodies are at most 64 KiB"), as the mock enforces it. */
export const MAX_BODY_BYTES = 64 * 1024;

/** How long a refused body is read and thrown away after the answer before the connection is cut. */
const DISCARD_FOR_MS = 10_000;

/**
 * Headers never forwarded to the target: those of one hop (RFC 9110 section 7.6.1), those the proxy sets itself, and
 * what belongs to the caller's machine and not to the API call: credentials for a proxy or for sites (a browser
 * sends the developer's cookies for `localhost`), the page that made the call, and forwarding claims.
 */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  'authorization',
  'cookie',
  'origin',
  'forwarded',
  'via',
  'x-real-ip',
  // Dropped so that the answer's bytes pass through as the target sent them (fetch would decode a compressed body
  // and leave a Content-Encoding that no longer holds).
  'accept-encoding',
]);

/** The caller's headers that go on to the target. */
export function forwardedHeaders(req: IncomingMessage): Headers {
  // Names a Connection header lists are of this hop too.
  const listed = new Set(
    String(req.headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name) || listed.has(name) || name.startsWith('x-forwarded-')) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Headers of the target's answer that are of its hop only, or that fetch has undone (the encoding). */
const ANSWER_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'content-length',
  'content-encoding',
]);

/** True for a header of the target's answer that is not passed back. */
export const isAnswerHopHeader = (name: string): boolean => ANSWER_HOP.has(name);

/**
 * The target URL of an origin-form request target (`/path?query`) under the target's base URL, or undefined for any
 * other form (absolute-form, `//host/...`, `*`) and for a target that the URL parser would move to another origin
 * (`/\host`).
 */
export function targetUrlOf(requestTarget: string, base: URL): URL | undefined {
  if (!requestTarget.startsWith('/') || requestTarget.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(`${base.pathname.replace(/\/+$/, '')}${requestTarget}`, base.origin);
  } catch {
    return undefined;
  }
  return url.origin === base.origin ? url : undefined;
}

/**
 * Checks the parts of the signature that need no body (header form, key, timestamp), for a body-hash profile where
 * the signature itself can only be checked with the body. Undefined when they hold.
 */
export function precheckSignature(
  authorization: string | undefined,
  apiKey: string,
  now = Math.floor(Date.now() / 1000),
):
  | { code: 'AUTH_MISSING' | 'AUTH_MALFORMED' | 'AUTH_UNKNOWN_KEY' | 'AUTH_TIMESTAMP_SKEW'; detail: string }
  | undefined {
  if (!authorization) return { code: 'AUTH_MISSING', detail: 'The request has no Authorization header.' };
  const parts = parseAuthorization(authorization);
  if (!parts) return { code: 'AUTH_MALFORMED', detail: 'The Authorization header is not of the HMAC-SHA256 form.' };
  if (parts.apiKey !== apiKey) return { code: 'AUTH_UNKNOWN_KEY', detail: `Unknown api key "${parts.apiKey}".` };
  if (Math.abs(Number(parts.timestamp) - now) > SIGNATURE_TOLERANCE_SECONDS)
    return { code: 'AUTH_TIMESTAMP_SKEW', detail: 'The timestamp is too far from the clock.' };
  return undefined;
}

/**
 * The request's body, or `'too-large'` as soon as it passes {@link MAX_BODY_BYTES}: what came is dropped and the
 * rest is left unread (paused) for {@link discardRest}.
 */
export function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData).off('end', onEnd).off('error', reject);
      req.pause();
      chunks.length = 0;
      resolve('too-large');
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/**
 * After a refusal sent before the body was read, as the mock does it: the caller gets the answer rather than a reset
 * connection, so what it still sends is read and thrown away (memory stays flat; closing at once would make the
 * caller's upload fail before it reads the answer); the connection is cut if the caller keeps sending for longer
 * than {@link DISCARD_FOR_MS} after the answer.
 */
export function discardRest(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  res.on('finish', () => {
    const cut = setTimeout(() => req.socket.destroy(), DISCARD_FOR_MS);
    cut.unref();
    req.once('close', () => clearTimeout(cut));
    req.resume();
  });
}
