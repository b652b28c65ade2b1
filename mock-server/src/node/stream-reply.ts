/**
 * A streamed reply (the event stream of `/__mock/events/stream`) written to node:http as it comes, never buffered.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from '../pipeline/reply.js';
import { corsHeaders } from './cors.js';

/** Writes a streamed reply chunk by chunk; the stream is cancelled when the client goes or the server closes. */
export function streamReply(
  reply: Reply,
  stream: ReadableStream<Uint8Array>,
  allowedOrigin: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  streams: Set<() => void>,
): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (allowedOrigin !== undefined) Object.assign(headers, corsHeaders(allowedOrigin));
  // The connection ends with the stream, so that closing the server does not wait for it to become idle.
  headers.connection = 'close';
  res.writeHead(reply.status, headers);
  res.flushHeaders();
  const reader = stream.getReader();
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
