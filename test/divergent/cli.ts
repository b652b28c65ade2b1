/**
 * Starts the divergent server and prints its URL and credentials as one JSON line, then waits for SIGINT/SIGTERM:
 * for .ci/run and for trying `card-issuing-contract` against a server that differs from the spec by hand.
 */
import { startDivergentServer } from './server';

const server = await startDivergentServer();
process.stdout.write(
  `${JSON.stringify({ url: server.url, apiKey: server.apiKey, apiSecret: server.apiSecret, corporate: server.corporate })}\n`,
);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
