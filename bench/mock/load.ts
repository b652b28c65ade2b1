/**
 * The load generator of `npm run bench:mock`'s table: `connections` keep-alive sockets, each sending its next
 * request as soon as the answer to the last one has arrived, every request a ready-made buffer (signed and written
 * out before the round), so that making a request costs the generator one socket write. autocannon rebuilds each
 * request it did not build at start (its `setupRequest` path) and held a bare server at about 0.75× of its rate; the
 * table's check compares this load with one fixed request sent the same way.
 * @module
 */
import { connect, type Socket } from 'node:net';

/** What a load did. */
export interface LoadResult {
  total: number;
  non2xx: number;
  errors: number;
  /** Seconds from the first request to the end. */
  elapsed: number;
  statuses: Record<number, number>;
}

/** The raw HTTP/1.1 request of a method, path, headers and body (Host and keep-alive added). */
export function rawRequest(
  port: number,
  request: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Buffer {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: keep-alive'];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.byteLength}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  return body ? Buffer.concat([head, body]) : head;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

/** Runs the load for `seconds` against 127.0.0.1:`port`; `next()` gives each request's bytes. */
export function runLoad(port: number, connections: number, seconds: number, next: () => Buffer): Promise<LoadResult> {
  const result: LoadResult = { total: 0, non2xx: 0, errors: 0, elapsed: 0, statuses: {} };
  const started = performance.now();
  const endAt = started + seconds * 1000;
  return new Promise((resolve) => {
    let open = connections;
    const done = (socket: Socket) => {
      socket.destroy();
      if (--open === 0) {
        result.elapsed = (performance.now() - started) / 1000;
        resolve(result);
      }
    };
    for (let i = 0; i < connections; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      socket.on('connect', () => socket.write(next()));
      socket.on('error', () => {
        result.errors++;
        done(socket);
      });
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const end = responseEnd(pending);
        if (end < 0) return;
        count(result, Number(pending.subarray(9, 12).toString('latin1')));
        pending = pending.subarray(end);
        if (performance.now() >= endAt) done(socket);
        else socket.write(next());
      });
    }
  });
}

/** Counts one response of `status`. */
function count(result: LoadResult, status: number): void {
  result.total++;
  result.statuses[status] = (result.statuses[status] ?? 0) + 1;
  if (status < 200 || status >= 300) result.non2xx++;
}

/** The end of the first whole response in `data` (content-length or chunked), or -1 while it is incomplete. */
function responseEnd(data: Buffer): number {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) return -1;
  const head = data.subarray(0, headEnd).toString('latin1').toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return data.length >= end ? end : -1;
  }
  if (head.includes('\r\ntransfer-encoding: chunked')) {
    const end = data.indexOf(CHUNKED_END, headEnd);
    return end < 0 ? -1 : end + CHUNKED_END.length;
  }
  return headEnd + 4;
}
