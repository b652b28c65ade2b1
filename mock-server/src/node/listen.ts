/**
 * Listening on a port, with a readable error when it cannot be bound, and the host a client reaches it by.
 * @module
 */
import type { Server } from 'node:http';

/** Listens on `host:port`; rejects with a sentence that says what to do when the port cannot be bound. */
export function listen(server: Server, port: number, host: string): Promise<void> {
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

/** The host a client reaches a server listening on `host` by (127.0.0.1 for 0.0.0.0, [::1] for ::). */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
