/**
 * One log line per request: `<time> <METHOD> <path> <status> <ms>ms [<code>] req=<X-Request-Id>`.
 * The query is shortened: a card-details request carries a whole public key in it, and nothing that looks like a
 * secret is ever written.
 */

/** Query values longer than this are cut, with their length noted. */
const MAX_QUERY_VALUE = 16;
/** Query parameters never written, whatever their length. */
const SECRET_PARAM = /secret|password|token|signature|authorization/i;

/** What one request's log line says. */
export interface RequestLogEntry {
  method: string;
  /** The request target as received (`/path?query`). */
  target: string;
  status: number;
  durationMs: number;
  /** The problem+json `code` of an error response. */
  code?: string;
  requestId?: string;
  /** For a 500: what went wrong, already stripped of secrets. */
  error?: string;
}

/** The path and a shortened, secret-free query of a request target. */
export function loggablePath(target: string): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const path = target.slice(0, q);
  const params = new URLSearchParams(target.slice(q + 1));
  const parts: string[] = [];
  for (const [name, value] of params) {
    let shown: string;
    if (SECRET_PARAM.test(name)) shown = '[redacted]';
    else if (value.length > MAX_QUERY_VALUE) shown = `${value.slice(0, 8)}…(${value.length} chars)`;
    else shown = value;
    parts.push(`${name}=${shown}`);
  }
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** Formats a request's log line. */
export function formatRequestLog(entry: RequestLogEntry, now: Date = new Date()): string {
  const fields = [
    now.toISOString(),
    entry.method,
    loggablePath(entry.target),
    String(entry.status),
    `${entry.durationMs.toFixed(1)}ms`,
  ];
  if (entry.code) fields.push(entry.code);
  if (entry.requestId) fields.push(`req=${entry.requestId}`);
  if (entry.error) fields.push(`error=${JSON.stringify(entry.error)}`);
  return fields.join(' ');
}

/**
 * A one-line description of an unexpected exception for the server's log: its name, message and the first
 * stack frame, with every given secret (the request's Authorization header, api secrets) replaced.
 */
export function describeError(error: unknown, secrets: readonly string[]): string {
  let text: string;
  if (error instanceof Error) {
    const frame = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
    text = `${error.name}: ${error.message}${frame ? ` (${frame.trim()})` : ''}`;
  } else {
    text = String(error);
  }
  for (const secret of secrets) {
    if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  }
  // Whatever else looks like a signature header goes too.
  return text.replace(/HMAC-SHA256 \S+/g, 'HMAC-SHA256 [redacted]').replace(/\s+/g, ' ');
}
