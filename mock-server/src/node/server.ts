/**
 * The HTTP front of the standalone mock: node:http in, msw's `getResponse(handlers, request)` in the middle, the
 * answer out. The handlers are the very ones `createMock()` gives to tests and to the service worker, so the server
 * adds transport only: the fetch `Request`, CORS, a problem+json for what no handler answers, and a log line.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, isPassthroughResponse, type RequestHandler } from 'msw';
import { corsHeaders, isAllowedOrigin, isPreflight, preflightHeaders } from './cors.js';
import { describeError, formatRequestLog } from './log.js';
import { problemCode, problemResponse } from './problem.js';

/** Bodies larger than this are refused before they reach a handler (the API's own limit is 64 KiB; a
 * `PUT /__mock/state` snapshot is bigger, so this is generous). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Options of {@link serveHandlers}. */
export interface ServeHandlersOptions {
  port: number;
  host: string;
  /** Receives one line per request; nothing is logged without it. */
  log?: (line: string) => void;
  /** Strings that must never reach the log (api secrets); read at the time of each error. */
  secrets?: () => readonly string[];
}

/** A listening server. */
export interface RunningHttpServer {
  /** `http://<host>:<port>`, with a host a client can reach (127.0.0.1 for 0.0.0.0, [::1] for ::). */
  url: string;
  port: number;
  /** Stops accepting connections, lets running requests finish (at most `graceMs`), then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

/** Serves msw request handlers over node:http. Rejects with a readable error when the port cannot be bound. */
export async function serveHandlers(handlers: readonly RequestHandler[], options: ServeHandlersOptions): Promise<RunningHttpServer> {
  // Open event streams, ended when the server closes (they never end on their own).
  const streams = new Set<() => void>();
  const server = createServer((req, res) => {
    void handle(handlers, options, req, res, streams);
  });
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

async function handle(
  handlers: readonly RequestHandler[],
  options: ServeHandlersOptions,
  req: IncomingMessage,
  res: ServerResponse,
  streams: Set<() => void>,
): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const target = req.url ?? '/';
  // Same shape as the mock's own request ids, so that a log reads the same for every answer.
  const requestId = `req_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const origin = firstHeader(req.headers.origin);
  let response: Response;
  let error: string | undefined;
  try {
    response = await respond(handlers, options, req, method, target, requestId, origin);
  } catch (thrown) {
    error = describeError(thrown, [...(options.secrets?.() ?? []), ...authorizationOf(req)]);
    response = internalError(requestId, pathOf(target));
  }

  // An injected network fault (`Response.error()`): the client sees the connection drop, as with a real outage.
  if (response.type === 'error') {
    res.destroy();
    options.log?.(formatRequestLog({ method, target, status: 0, durationMs: performance.now() - started, code: 'NETWORK_ERROR' }));
    return;
  }

  // The event stream of /__mock/events/stream is written as it comes, never buffered.
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    streamResponse(response, method, origin, req, res, streams);
    options.log?.(formatRequestLog({ method, target, status: response.status, durationMs: performance.now() - started }));
    return;
  }

  let body: Uint8Array;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch (thrown) {
    error = describeError(thrown, [...(options.secrets?.() ?? []), ...authorizationOf(req)]);
    response = internalError(requestId, pathOf(target));
    body = new Uint8Array(await response.arrayBuffer());
  }

  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  // A preflight's answer already carries its own CORS headers.
  const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  if (isAllowedOrigin(origin) && !preflight) Object.assign(headers, corsHeaders(origin));
  const noBody = response.status === 204 || response.status === 304;
  if (!noBody) headers['content-length'] = String(body.byteLength);

  if (!res.destroyed) {
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end(noBody ? undefined : body);
  }

  options.log?.(
    formatRequestLog({
      method,
      target,
      status: response.status,
      durationMs: performance.now() - started,
      code: response.status >= 400 ? problemCode(response.headers.get('content-type'), body) : undefined,
      requestId: response.headers.get('x-request-id') ?? undefined,
      error,
    }),
  );
}

/** Writes a streamed response chunk by chunk; the stream is cancelled when the client goes or the server closes. */
function streamResponse(
  response: Response, method: string, origin: string | undefined, req: IncomingMessage, res: ServerResponse, streams: Set<() => void>,
): void {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  });
  if (isAllowedOrigin(origin) && method !== 'OPTIONS') Object.assign(headers, corsHeaders(origin));
  // The connection ends with the stream, so that closing the server does not wait for it to become idle.
  headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body!.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  req.socket.once('close', stop);
  streams.add(stop);
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || res.destroyed) break;
        res.write(value);
      }
    } catch {
      // The client went away, or the stream failed: either way this response is over.
    } finally {
      req.socket.off('close', stop);
      streams.delete(stop);
      res.end();
    }
  })();
}

async function respond(
  handlers: readonly RequestHandler[],
  options: ServeHandlersOptions,
  req: IncomingMessage,
  method: string,
  target: string,
  requestId: string,
  origin: string | undefined,
): Promise<Response> {
  const url = requestUrl(req, target, options);
  if (!url) {
    return problemResponse({
      status: 400,
      code: 'MALFORMED_REQUEST',
      detail: 'The request target or Host header does not form a valid URL.',
      requestId,
    });
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);

  if (isPreflight(method, headers)) {
    if (isAllowedOrigin(origin)) {
      return new Response(null, { status: 204, headers: { ...preflightHeaders(origin), 'X-Request-Id': requestId } });
    }
    return problemResponse({
      status: 403,
      code: 'CORS_ORIGIN_NOT_ALLOWED',
      detail: `Origin ${JSON.stringify(origin)} may not call the mock from a browser; only http(s)://localhost, 127.0.0.1 and [::1] origins (any port) may.`,
      requestId,
      instance: url.pathname,
    });
  }

  const body = await readBody(req, method);
  if (body === 'too-large') {
    return problemResponse({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      detail: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
      requestId,
      instance: url.pathname,
    });
  }
  const request = new Request(url, { method, headers, body: body ?? null });
  const response = await getResponse(handlers as RequestHandler[], request);
  if (!response || isPassthroughResponse(response)) {
    return problemResponse({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
      detail: `No route ${method} ${url.pathname}.`,
      requestId,
      instance: url.pathname,
    });
  }
  return response;
}

/**
 * The URL the client signed: `http://<Host header><request target>`, byte for byte (no normalisation, so a
 * signature over the URL as sent verifies). A proxy-style absolute target is taken as it is.
 */
function requestUrl(req: IncomingMessage, target: string, options: ServeHandlersOptions): URL | undefined {
  let text: string;
  if (target.startsWith('/')) {
    const host = firstHeader(req.headers.host) ?? `${reachableHost(options.host)}:${req.socket.localPort ?? options.port}`;
    text = `http://${host}${target}`;
  } else if (/^https?:\/\//i.test(target)) {
    text = target;
  } else {
    return undefined;
  }
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage, method: string): Promise<Uint8Array<ArrayBuffer> | undefined | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    // Keep draining after the limit so that the client gets the 413 instead of a reset connection.
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  if (tooLarge) return 'too-large';
  // A fetch Request cannot carry a GET or HEAD body; such a body is not part of any operation anyway.
  if (method === 'GET' || method === 'HEAD' || size === 0) return undefined;
  // Copied into a fresh ArrayBuffer: a Buffer may be a view into Node's shared pool.
  return new Uint8Array(Buffer.concat(chunks));
}

function internalError(requestId: string, instance: string): Response {
  return problemResponse({
    status: 500,
    code: 'INTERNAL_ERROR',
    detail: 'The mock failed unexpectedly while handling this request; its log has the details.',
    requestId,
    instance,
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(new Error(`Port ${port} on ${host} is already in use; choose another port (0 picks a free one).`));
      } else if (error.code === 'EACCES') {
        reject(new Error(`No permission to listen on ${host}:${port}; choose a port above 1023.`));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(new Error(`Cannot listen on host ${host}: it is not an address of this machine.`));
      } else {
        reject(error);
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
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
