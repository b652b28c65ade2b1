/**
 * `card-issuing-mock/node`: the mock as a real HTTP server, for front-end dev servers, other languages and
 * CI jobs that talk HTTP. It serves the request pipeline of {@link createMock} straight from node:http (no msw
 * routing on the way, HMAC with node:crypto), so the server, the in-process mock and the service worker share one
 * implementation.
 *
 * ```ts
 * import { startMockServer } from 'card-issuing-mock/node';
 * const server = await startMockServer({ port: 0, stateFile: '.mock-state.json' });
 * // server.url → 'http://127.0.0.1:53127'; server.mock is the control API
 * await server.close();
 * ```
 * @module
 */
import { createHmac } from 'node:crypto';
import { createMock, mockInternals, type CardIssuingMock } from './index.js';
import { withInspectorPage } from './node/inspector-page.js';
import { servePipeline } from './node/server.js';
import { readStateFile, removeStaleTempFiles, StateFileError, StateFileSaver } from './node/state-file.js';

export { StateFileError } from './node/state-file.js';

/** Options of {@link startMockServer}. */
export interface StartMockServerOptions {
  /** The port to listen on; 0 picks a free one (read it from the result). Default 4010. */
  port?: number;
  /** The address to listen on. Default `127.0.0.1` (this machine only); `0.0.0.0` opens it to the network. */
  host?: string;
  /** The default tenant's api key (with `apiSecret`). Default `test_key`. */
  apiKey?: string;
  /** The default tenant's api secret (with `apiKey`). Default `test_secret`. */
  apiSecret?: string;
  /**
   * A JSON file that keeps the whole state (every tenant) across restarts: loaded at start, saved after every
   * change and on close, always atomically. A file that exists but is not a readable state file of this mock is
   * refused with a {@link StateFileError} and left untouched.
   */
  stateFile?: string;
  /** Milliseconds added to every API response. */
  latencyMs?: number;
  /** Check request signatures (default true); false accepts unsigned requests. */
  verifySignatures?: boolean;
  /** Seed of the fixtures and generated ids (default as {@link createMock}). */
  seed?: number | string;
  /** Receives one line per request, and the server's own notices (a failed save). Silent without it. */
  log?: (line: string) => void;
}

/** A running mock server. */
export interface MockServer {
  /** The base URL to give the SDK, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The port it listens on (useful with `port: 0`). */
  port: number;
  /** The mock it serves: the same control API as `/__mock/` over HTTP, acting on the default tenant. */
  mock: CardIssuingMock;
  /** Stops the server; with a state file, resolves once the last state is on disk. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the mock as an HTTP server and resolves once it listens. Rejects with a readable error when the port
 * is taken or the state file cannot be used (nothing is listening then, and the file is untouched).
 */
export async function startMockServer(options: StartMockServerOptions = {}): Promise<MockServer> {
  if ((options.apiKey === undefined) !== (options.apiSecret === undefined)) {
    throw new TypeError('startMockServer: apiKey and apiSecret go together; give both or neither.');
  }
  const mock = createMock({
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.apiKey === undefined || options.apiSecret === undefined
      ? {}
      : { credentials: [{ apiKey: options.apiKey, apiSecret: options.apiSecret }] }),
    ...(options.verifySignatures === undefined ? {} : { verifySignatures: options.verifySignatures }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    hmac: (secret, message) => createHmac('sha256', secret).update(message).digest(),
  });
  const log = options.log;

  let saver: StateFileSaver | undefined;
  let unsubscribe: (() => void) | undefined;
  const file = options.stateFile;
  if (file !== undefined) {
    await removeStaleTempFiles(file);
    const loaded = await readStateFile(file);
    if (loaded) {
      try {
        mock.importState(loaded.state as Parameters<CardIssuingMock['importState']>[0]);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new StateFileError(file, `The state file ${file} holds a state this mock cannot load (${reason}). The file was left untouched; fix or remove it, or pass another --state-file.`);
      }
      // The file's tenants win; credentials given as options are added beside them, so that they still work.
      if (options.apiKey !== undefined && options.apiSecret !== undefined) {
        const { apiKey, apiSecret } = options;
        const saved = mock.exportState().tenants.find((t) => t.apiKey === apiKey);
        if (saved && saved.apiSecret !== apiSecret) {
          throw new StateFileError(file, `The state file ${file} already has the api key ${apiKey}, with another secret; give its saved secret, or another api key.`);
        }
        if (!saved) mock.addCredentials({ apiKey, apiSecret });
      }
    }
    saver = new StateFileSaver(file, {
      getState: () => mock.exportState(),
      onError: (error) => log?.(`state file: could not save ${file}: ${error instanceof Error ? error.message : String(error)}`),
    });
    // A new file is written at once, so that a folder the server cannot write to fails now, not at the first change.
    if (!loaded) {
      try {
        await saver.saveNow();
      } catch (error) {
        throw new StateFileError(file, `Cannot write the state file ${file}: ${error instanceof Error ? error.message : String(error)}.`);
      }
    }
    const pending = saver;
    unsubscribe = mock.onChange(() => pending.schedule());
  }

  let http;
  try {
    http = await servePipeline(withInspectorPage(mockInternals(mock).pipeline), {
      port: options.port ?? 4010,
      host: options.host ?? '127.0.0.1',
      ...(log ? { log } : {}),
      secrets: () => secretsOf(mock),
    });
  } catch (error) {
    unsubscribe?.();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const running = http;
  return {
    url: running.url,
    port: running.port,
    mock,
    close() {
      closing ??= (async () => {
        await running.close();
        unsubscribe?.();
        await saver?.flush();
      })();
      return closing;
    },
  };
}

/** The api secrets (of every tenant) a log line must never show. Read only when an error is logged. */
function secretsOf(mock: CardIssuingMock): string[] {
  try {
    return mock.exportState().tenants.map((t) => t.apiSecret);
  } catch {
    return [];
  }
}
