/**
 * The HTTP front of the standalone mock: node:http in, the request pipeline in the middle, the reply out, with no
 * fetch `Request`/`Response` and no msw routing on the way (the pipeline's route table is compiled once). The same
 * transport also serves plain msw handlers through `getResponse` ({@link serveHandlers}: tests that place a
 * handler before the mock's own). What the transport adds: the request URL (the target exactly as received, for
 * signatures), the raw body, the Host/Origin guard (guard.ts), CORS, a problem+json for what nothing answers and
 * for headers Node refuses (server-problems.ts), the body limit, and a log line.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, isPassthroughResponse, type RequestHandler } from 'msw';
import type { Outcome, Pipeline } from '../pipeline/index.js';
import type { PipelineRequest } from '../pipeline/request.js';
import { replyCode, type Reply } from '../pipeline/reply.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { createGuard, type Guard } from './guard.js';
import { MAX_CONTROL_BODY_BYTES } from '../pipeline/limits.js';
import { listen, reachableHost } from './listen.js';
import { describeError, formatRequestLog } from './log.js';
import { answerClientError, serverProblem, serverRequestId } from './server-problems.js';
import { streamReply } from './stream-reply.js';

/** Bodies larger than this are refused before they reach the pipeline (the API's own limit, 64 KiB, is the
 * pipeline's; a `PUT /__mock/state` snapshot is bigger). */
export const MAX_BODY_BYTES = MAX_CONTROL_BODY_BYTES;

/** Options of {@link servePipeline} and {@link serveHandlers}. */
export interface ServeOptions {
  port: number;
  host: string;
  /** Receives one line per request; nothing is logged without it. */
  log?: (line: string) => void;
  /** Strings that must never reach the log (api secrets); read at the time of each error. */
  secrets?: () => readonly string[];
  /** The Host/Origin checks; default: local names and origins only. */
  guard?: Guard;
}

/** A listening server. */
export interface RunningHttpServer {
  /** `http://<host>:<port>`, with a host a client can reach (127.0.0.1 for 0.0.0.0, [::1] for ::). */
  url: string;
  port: number;
  /** Stops accepting connections, lets running requests finish (at most `graceMs`), then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

/** What a front answers for one request: a reply, a dropped connection, or nothing (then 404 ROUTE_NOT_FOUND). */
type Answer = Reply | 'network-error' | undefined;
/** A front's answer, or a promise of it when something is to be waited for. */
type Respond = (request: PipelineRequest) => Answer | Promise<Answer>;

/** Serves the mock's pipeline over node:http. Rejects with a readable error when the port cannot be bound. */
export function servePipeline(pipeline: Pipeline, options: ServeOptions): Promise<RunningHttpServer> {
  return serve((request) => {
    const outcome = pipeline.handle(request);
    return outcome instanceof Promise ? outcome.then(answerOf) : answerOf(outcome);
  }, options);
}

/** What the front answers for an outcome of the pipeline. */
function answerOf(outcome: Outcome): Answer {
  return outcome.kind === 'reply' ? outcome.reply : outcome.kind === 'network-error' ? 'network-error' : undefined;
}

/** Serves msw request handlers over node:http through msw's `getResponse` (a fetch `Request` per request). */
export function serveHandlers(handlers: readonly RequestHandler[], options: ServeOptions): Promise<RunningHttpServer> {
  return serve(async (request) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers())) headers.append(name, value);
    const body =
      request.method === 'GET' || request.method === 'HEAD'
        ? null
        : ((request.body as Uint8Array<ArrayBuffer> | undefined) ?? null);
    const response = await getResponse(
      handlers as RequestHandler[],
      new Request(request.url, { method: request.method, headers, body }),
    );
    if (!response || isPassthroughResponse(response)) return undefined;
    if (response.type === 'error') return 'network-error';
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
    });
    return { status: response.status, headers: out, body: await response.text() };
  }, options);
}

async function serve(respond: Respond, options: ServeOptions): Promise<RunningHttpServer> {
  const guarded = { ...options, guard: options.guard ?? createGuard({ host: options.host }) };
  // Open event streams, ended when the server closes (they never end on their own).
  const streams = new Set<() => void>();
  const server = createServer((req, res) => {
    handle(respond, guarded, req, res, streams);
  });
  server.on('clientError', answerClientError);
  await listen(server, options.port, options.host);
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${reachableHost(options.host)}:${port}`,
    port,
    close(graceMs = 2000) {
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        for (const end of streams) end();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

function handle(
  respond: Respond,
  options: ServeOptions,
  req: IncomingMessage,
  res: ServerResponse,
  streams: Set<() => void>,
): void {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const target = req.url ?? '/';
  const origin = firstHeader(req.headers.origin);
  const bodyless =
    req.headers['content-length'] === undefined
      ? req.headers['transfer-encoding'] === undefined
      : req.headers['content-length'] === '0';
  if (bodyless) {
    req.resume();
    answer(respond, options, req, res, method, target, origin, started, undefined, streams);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    // Keep draining after the limit so that the client gets the 413 instead of a reset connection.
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    const body =
      size > MAX_BODY_BYTES ? 'too-large' : size === 0 ? undefined : new Uint8Array(Buffer.concat(chunks, size));
    answer(respond, options, req, res, method, target, origin, started, body, streams);
  });
  req.on('error', () => res.destroy());
}

/**
 * Routes a request and sends its answer: in the same turn when the pipeline answers without a promise (a promise
 * and its turns cost a request more than its routing does), else once it settles.
 */
function answer(
  respond: Respond,
  options: ServeOptions,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  target: string,
  origin: string | undefined,
  started: number,
  body: Uint8Array | 'too-large' | undefined,
  streams: Set<() => void>,
): void {
  let routed: Reply | 'network-error' | Promise<Reply | 'network-error'>;
  try {
    routed = route(respond, options, req, method, target, origin, body);
  } catch (thrown) {
    send(options, req, res, method, target, origin, started, streams, failure(options, req, target, thrown));
    return;
  }
  if (!(routed instanceof Promise)) {
    send(options, req, res, method, target, origin, started, streams, { reply: routed });
    return;
  }
  void routed.then(
    (reply) => send(options, req, res, method, target, origin, started, streams, { reply }),
    (thrown: unknown) =>
      send(options, req, res, method, target, origin, started, streams, failure(options, req, target, thrown)),
  );
}

/** Sends a routed answer (or drops the connection for a network fault) and logs it. */
function send(
  options: ServeOptions,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  target: string,
  origin: string | undefined,
  started: number,
  streams: Set<() => void>,
  { reply, error }: { reply: Answer; error?: string },
): void {
  // An injected network fault: the client sees the connection drop, as with a real outage.
  if (reply === 'network-error' || reply === undefined) {
    res.destroy();
    options.log?.(
      formatRequestLog({ method, target, status: 0, durationMs: performance.now() - started, code: 'NETWORK_ERROR' }),
    );
    return;
  }

  // The event stream of /__mock/events/stream is written as it comes, never buffered.
  if (reply.stream) {
    streamReply(reply, reply.stream, options.guard!.originAllowed(origin) ? origin : undefined, req, res, streams);
    options.log?.(
      formatRequestLog({
        method,
        target,
        status: reply.status,
        durationMs: performance.now() - started,
        requestId: reply.headers['x-request-id'],
      }),
    );
    return;
  }

  writeReply(options, req, res, method, origin, reply);
  options.log?.(
    formatRequestLog({
      method,
      target,
      status: reply.status,
      durationMs: performance.now() - started,
      code: reply.status >= 400 ? replyCode(reply) : undefined,
      requestId: reply.headers['x-request-id'],
      error,
    }),
  );
}

/** What a route's throw becomes: a 500 INTERNAL_ERROR, its description (secrets redacted) kept for the log. */
function failure(
  options: ServeOptions,
  req: IncomingMessage,
  target: string,
  thrown: unknown,
): { reply: Answer; error: string } {
  return {
    error: describeError(thrown, [...(options.secrets?.() ?? []), ...authorizationOf(req)]),
    reply: serverProblem(
      'INTERNAL_ERROR',
      'The mock failed unexpectedly while handling this request; its log has the details.',
      pathOf(target),
    ),
  };
}

/** Writes a buffered reply, with CORS headers for an allowed origin (a preflight has its own) and its length. */
function writeReply(
  options: ServeOptions,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  origin: string | undefined,
  reply: Reply,
): void {
  const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const noBody = reply.status === 204 || reply.status === 304;
  if (!res.destroyed) {
    const cors = options.guard!.originAllowed(origin) && !preflight;
    res.writeHead(reply.status, cors ? corsHead(reply, origin, noBody) : head(reply, noBody));
    res.end(noBody ? undefined : reply.body);
  }
}

/**
 * A reply's header lines as node:http takes them without copying an object (name, value, name, value…), with the
 * body's length where a body goes: in place of the reply's own content-length, else last.
 */
function head(reply: Reply, noBody: boolean): string[] {
  const lines: string[] = [];
  let length = noBody ? undefined : String(Buffer.byteLength(reply.body));
  for (const name in reply.headers) {
    const own = name === 'content-length' && length !== undefined;
    lines.push(name, own ? length! : reply.headers[name]!);
    if (own) length = undefined;
  }
  if (length !== undefined) lines.push('content-length', length);
  return lines;
}

/** The headers of a reply to a page of an allowed origin: the reply's, then CORS, then the body's length. */
function corsHead(reply: Reply, origin: string, noBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { ...reply.headers, ...corsHeaders(origin) };
  if (!noBody) headers['content-length'] = String(Buffer.byteLength(reply.body));
  return headers;
}

/** The answer to a request: the guard's and the front's refusals, else the pipeline's (404 when it has none). */
function route(
  respond: Respond,
  options: ServeOptions,
  req: IncomingMessage,
  method: string,
  target: string,
  origin: string | undefined,
  body: Uint8Array | 'too-large' | undefined,
): Reply | 'network-error' | Promise<Reply | 'network-error'> {
  // Before anything else, API and control alike: a foreign page (Origin) or a rebound name (Host) changes nothing.
  const refusal = options.guard!.check(firstHeader(req.headers.host), origin);
  if (refusal) return serverProblem(refusal.code, refusal.detail, '');
  const received = requestUrl(req, target, options);
  if (!received)
    return serverProblem('MALFORMED_REQUEST', 'The request target or Host header does not form a valid URL.', '');
  const { raw, pathname, search } = received;
  if (method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
    return {
      status: 204,
      headers: {
        ...lower(preflightHeaders(origin, firstHeader(req.headers['access-control-request-headers']))),
        'x-request-id': serverRequestId(),
      },
      body: '',
    };
  }
  if (body === 'too-large')
    return serverProblem('PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_BODY_BYTES} bytes.`, pathname);
  // The URL as the client sent it (never normalised: '/./' and "'" stay, as the signature covers them); the path
  // routes as the WHATWG parser normalises it, so /s2s/./users/{id} is getUser. A body is not part of a GET or
  // HEAD of any operation (a fetch Request could not carry one either).
  const request = new NodeRequest(
    method,
    raw,
    pathname,
    search,
    req.headers,
    method === 'GET' || method === 'HEAD' ? undefined : body,
  );
  const answer = respond(request);
  return answer instanceof Promise
    ? answer.then((found) => found ?? noRoute(method, pathname))
    : (answer ?? noRoute(method, pathname));
}

const noRoute = (method: string, pathname: string): Reply =>
  serverProblem('ROUTE_NOT_FOUND', `No route ${method} ${pathname}.`, pathname);

/** A request as the pipeline reads it, over node:http's parsed headers (methods, not two closures per request). */
class NodeRequest implements PipelineRequest {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly pathname: string,
    readonly search: string,
    private readonly received: IncomingHttpHeaders,
    readonly body: Uint8Array | undefined,
  ) {}

  header(name: string): string | undefined {
    return headerValue(this.received, name);
  }

  headers(): Record<string, string> {
    // Node joins repeated request headers but set-cookie: without one, its record is already the one wanted.
    const headers = this.received;
    return headers['set-cookie'] === undefined ? (headers as Record<string, string>) : headerRecord(headers);
  }
}

/**
 * The URL the client signed, as text: `http://<Host header><request target>` byte for byte (a proxy-style absolute
 * target as it is), and its path and query as the WHATWG parser normalises them (for routing). A plain target (no
 * dot or percent sign in the path, nothing in the query the parser would encode) is its own normal form, so the
 * parser runs only for the others and once per distinct Host (which must form a valid URL).
 */
function requestUrl(
  req: IncomingMessage,
  target: string,
  options: ServeOptions,
): { raw: string; pathname: string; search: string } | undefined {
  if (target.startsWith('/')) {
    const host =
      firstHeader(req.headers.host) ?? `${reachableHost(options.host)}:${req.socket.localPort ?? options.port}`;
    const raw = `http://${host}${target}`;
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const search = q < 0 || q === target.length - 1 ? '' : target.slice(q);
    if (PLAIN_PATH.test(pathname) && PLAIN_QUERY.test(search) && validHost(host)) return { raw, pathname, search };
    return parsed(raw);
  }
  return /^https?:\/\//i.test(target) ? parsed(target) : undefined;
}

/** A path the WHATWG parser leaves as it is: no dot segment, percent-escape or character it would encode. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/]*$/;
/** A query the parser leaves as it is: printable ASCII but `"`, `#`, `'`, `<` and `>`. */
const PLAIN_QUERY = /^[!$-&(-;=?-~]*$/;

function parsed(raw: string): { raw: string; pathname: string; search: string } | undefined {
  const url = URL.parse(raw);
  return url ? { raw, pathname: url.pathname, search: url.search } : undefined;
}

/** Whether a Host header forms a valid URL, remembered for the last 64 distinct values. */
const hostVerdicts = new Map<string, boolean>();
function validHost(host: string): boolean {
  let valid = hostVerdicts.get(host);
  if (valid === undefined) {
    valid = URL.canParse(`http://${host}/`);
    if (hostVerdicts.size >= 64) hostVerdicts.clear();
    hostVerdicts.set(host, valid);
  }
  return valid;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function authorizationOf(req: IncomingMessage): string[] {
  const value = req.headers.authorization;
  return value ? [value, ...value.split(/[\s:]/).filter((part) => part.length >= 16)] : [];
}

function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}
