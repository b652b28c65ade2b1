/**
 * The problems the standalone server answers itself, around the pipeline: a refused Host or Origin, a target that
 * is no URL, a body over the limit, no route, its own failure, and what Node refuses before a request exists.
 * @module
 */
import type { Duplex } from 'node:stream';
import { ProblemError, type StatusedProblemCode } from '../machines/problem-error.js';
import { problemReply, type Reply } from '../pipeline/reply.js';

/** A problem the server answers itself (around the pipeline), built by the mock's problem code. */
export function serverProblem(code: StatusedProblemCode, detail: string, instance: string): Reply {
  return problemReply(new ProblemError(code, detail), serverRequestId(), instance);
}

/** Same shape as the mock's own request ids, so that a log reads the same for every answer. */
export function serverRequestId(): string {
  return `req_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * What Node itself refuses before a request exists (headers over its 16 KiB, a request line it cannot parse): a
 * problem+json instead of Node's bare 400/431, then the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const reply = tooLarge
    ? serverProblem('HEADERS_TOO_LARGE', 'The request line and headers are larger than 16 KiB.', '')
    : serverProblem('MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.', '');
  // Node's own Date header is not written on a raw socket: add it, as on every other answer.
  const head = [
    `HTTP/1.1 ${reply.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}`,
    'connection: close',
    `date: ${new Date().toUTCString()}`,
  ];
  for (const [name, value] of Object.entries(reply.headers)) head.push(`${name}: ${value}`);
  head.push(`content-length: ${Buffer.byteLength(reply.body)}`);
  socket.end(`${head.join('\r\n')}\r\n\r\n${reply.body}`);
}
