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

/** Formats a request's log line (at `now`, default the current time). */
export function formatRequestLog(entry: RequestLogEntry, now?: Date): string {
  // One string built as it goes (no array of fields joined): a line per request.
  let line = `${now === undefined ? isoNow() : now.toISOString()} ${entry.method} ${loggablePath(entry.target)} ${entry.status} ${entry.durationMs.toFixed(1)}ms`;
  if (entry.code) line += ` ${entry.code}`;
  if (entry.requestId) line += ` req=${entry.requestId}`;
  if (entry.error) line += ` error=${JSON.stringify(entry.error)}`;
  return line;
}

let lastMs = Number.NaN;
let lastIso = '';

/** The current time as ISO 8601 text, made once per millisecond: a busy server logs many requests in one. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
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

/** Lines kept for a batched write, and how to write them now. */
export interface BatchedLines {
  /** Adds one line (without its newline); written within `delayMs`, or at once past `maxBytes` kept. */
  line(text: string): void;
  /** Writes what is kept now (before other output, on exit, on a signal). */
  flush(): void;
}

/**
 * Request log lines written in batches: a line waits at most `delayMs` (10 ms) and joins the others of that time
 * in one write, so that a busy server makes a write a batch, not one per request (stdout to a file, pipe or
 * terminal is a synchronous system call in Node). The caller flushes on exit and on signals, so nothing is lost.
 */
export function batchedLines(
  write: (text: string) => void,
  { delayMs = 10, maxBytes = 16 * 1024 }: { delayMs?: number; maxBytes?: number } = {},
): BatchedLines {
  let kept = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (kept === '') return;
    const text = kept;
    kept = '';
    write(text);
  };
  return {
    line(text) {
      kept += `${text}\n`;
      if (kept.length >= maxBytes) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, delayMs);
        // The process may end with lines kept: its exit handler flushes them.
        timer.unref?.();
      }
    },
    flush,
  };
}
