/**
 * Real node:http servers on loopback that behave as the real service may (issue 18): each verifies the signature
 * with the shared verifySignature, sends `Date` from its own clock, and records what reached it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NonceCache, verifySignature, type SecretEncoding } from '../../../sdk/src/server';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  path: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The signature check's outcome: `ok`, or the AUTH_ code. */
  verdict: string;
}

export interface ServerOptions {
  apiKey: string;
  apiSecret: string;
  secretEncoding?: SecretEncoding;
  /** Milliseconds the server's clock is ahead of this host's. */
  clockAheadMs?: number;
  /** The answer to a request whose signature holds; `undefined` is a 404 problem. */
  answer: (
    seen: Seen,
    index: number,
  ) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;
}

export interface RunningServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A problem+json body. */
export function problem(
  status: number,
  code: string,
  detail: string,
): { status: number; body: unknown; headers: Record<string, string> } {
  return {
    status,
    body: { type: 'about:blank', title: code, status, code, detail },
    headers: { 'content-type': 'application/problem+json' },
  };
}

/** Starts a server; resolves once it listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const seen: Seen[] = [];
  const nonces = new NonceCache();
  const now = () => Date.now() + (options.clockAheadMs ?? 0);
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = `http://${req.headers.host}${req.url}`;
    const result = await verifySignature({
      method: req.method!,
      url,
      body,
      authorization: req.headers.authorization,
      nonces,
      now: Math.floor(now() / 1000),
      getSecret: (key) => (key === options.apiKey ? options.apiSecret : undefined),
      secretEncoding: options.secretEncoding ?? 'utf8',
    });
    const entry: Seen = {
      method: req.method!,
      path: req.url!.split('?')[0]!,
      url,
      headers: req.headers,
      body,
      verdict: result.ok ? 'ok' : result.code,
    };
    seen.push(entry);
    const reply = result.ok
      ? (options.answer(entry, seen.length - 1) ??
        problem(404, 'ROUTE_NOT_FOUND', `No route ${req.method} ${entry.path}.`))
      : problem(401, result.code, result.detail);
    // The server's own clock, as a real server with a clock ahead sends it.
    res.sendDate = false;
    res.writeHead(reply.status, {
      date: new Date(now()).toUTCString(),
      'content-type': 'application/json',
      'x-request-id': `req_${String(seen.length).padStart(4, '0')}`,
      ...reply.headers,
    });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
