/**
 * `startMockServer`: the mock of `createMock` behind the node:http front, with its state file (when asked for) as
 * the write-ahead log of its changes, and the inspector page.
 * @module
 */
import { createMock } from '../mock/create-mock.js';
import { mockInternals, type MockInternals } from '../mock/internals.js';
import type { CardIssuingMock, CreateMockOptions } from '../mock/options.js';
import type { Scenario } from '../control/index.js';
import { createGuard } from './guard.js';
import { withDocsPage } from './docs-page.js';
import { withInspectorPage } from './inspector-page.js';
import { withRevealPage } from './reveal-page.js';
import { servePipeline } from './server.js';
import { withMcp } from './mcp-endpoint.js';
import { errnoText, openStateFile, StateFileError, type StateFile } from './state-file/index.js';
import { requestIds } from '../pipeline/runtime.js';

/** Options of {@link startMockServer}. */
export interface StartMockServerOptions {
  /** The port to listen on; 0 picks a free one (read it from the result). Default 4010. */
  port?: number;
  /** Record what consumers used, for `GET /__mock/usage` (see `createMock`'s `recordUsage`). Default true. */
  recordUsage?: boolean;
  /** The address to listen on. Default `127.0.0.1` (this machine only); `0.0.0.0` opens it to the network. */
  host?: string;
  /** The default tenant's api key (with `apiSecret`). Default `test_key`. */
  apiKey?: string;
  /** The default tenant's api secret (with `apiKey`). Default `test_secret`. */
  apiSecret?: string;
  /**
   * A file that keeps the whole state (every tenant) across restarts, durable as a database's: a snapshot plus an
   * fsynced write-ahead log of changes (`<file>.journal-<n>`), so that a change is answered only once it is on disk and a
   * killed server loses nothing it answered; a write that fails is answered 503. One server per file (`<file>.lock`):
   * a second is refused. A file that is not a readable state file of this mock is refused with a
   * {@link StateFileError} and left untouched.
   */
  stateFile?: string;
  /** Milliseconds added to every API response. */
  latencyMs?: number;
  /** Refuse the captures card networks force on an issuer (CLI `--strict-captures`); see `createMock`'s option. */
  strictCaptures?: boolean;
  /** Check request signatures (default true); false accepts unsigned requests. */
  verifySignatures?: boolean;
  /** Require the body hash in signatures (CLI `--sign-body`); default false, the five published parts. */
  bodyHash?: boolean;
  /** How secrets become HMAC keys (CLI `--secret-encoding`): `'utf8'` (default) or `'base64'`. */
  secretEncoding?: 'utf8' | 'base64';
  /**
   * The URL clients reach the server at through a proxy or tunnel that rewrites `Host` (CLI `--public-url`):
   * signatures are verified on it plus the target as received, and its host and origin are allowed.
   */
  publicUrl?: string;
  /** More names the server may be reached by (CLI `--allowed-host`); any other `Host` is 403 HOST_NOT_ALLOWED. */
  allowedHosts?: readonly string[];
  /** More origins browser pages may call from (CLI `--cors-origin`); any other `Origin` is 403 ORIGIN_NOT_ALLOWED. */
  corsOrigins?: readonly string[];
  /** Seed of the fixtures and generated ids (default as `createMock`'s). */
  seed?: number | string;
  /** Builders applied to every tenant's fresh state and again on reset (CLI `--scenario FILE`; see `loadScenarioFile`). */
  scenario?: Scenario;
  /** Receives one line per request, and the server's own notices (a failed save). Silent without it. */
  log?: (line: string) => void;
  /**
   * A folder with the API reference that `npm run docs` builds (`docs/api` in a clone; CLI `--docs`), served at
   * `/__mock/docs`. Without it that page says how to build and serve the reference.
   */
  docsDir?: string;
}

/** A running mock server. */
export interface MockServer {
  /** The base URL to give the SDK, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The port it listens on (useful with `port: 0`). */
  port: number;
  /** Every address it can be reached at (all of this machine's on `0.0.0.0`), for the warning the CLI prints. */
  reachableAt: readonly string[];
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
  const mock = createMock(mockOptions(options));
  const internals = mockInternals(mock);
  const file = options.stateFile;
  const stateFile = file === undefined ? undefined : await attachStateFile(mock, internals, file, options);

  const host = options.host ?? '127.0.0.1';
  const guard = createGuard({
    host,
    publicUrl: options.publicUrl,
    allowedHosts: options.allowedHosts,
    corsOrigins: options.corsOrigins,
  });
  let http: Awaited<ReturnType<typeof servePipeline>>;
  try {
    http = await serveMock(mock, internals, host, guard, options);
  } catch (error) {
    internals.attachWal(undefined);
    await stateFile?.close().catch(() => undefined);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const running = http;
  return {
    url: running.url,
    port: running.port,
    reachableAt: guard.reachableAt.map((address) => `http://${address}:${running.port}`),
    mock,
    close() {
      closing ??= (async () => {
        await running.close();
        await stateFile?.close();
        internals.attachWal(undefined);
      })();
      return closing;
    },
  };
}

/** The options of the server's `createMock`: those given, the others left to its defaults. */
function mockOptions(options: StartMockServerOptions): CreateMockOptions {
  return {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    ...(options.apiKey === undefined || options.apiSecret === undefined
      ? {}
      : { credentials: [{ apiKey: options.apiKey, apiSecret: options.apiSecret }] }),
    ...(options.verifySignatures === undefined ? {} : { verifySignatures: options.verifySignatures }),
    ...(options.bodyHash === undefined ? {} : { bodyHash: options.bodyHash }),
    ...(options.secretEncoding === undefined ? {} : { secretEncoding: options.secretEncoding }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: checkedPublicUrl(options.publicUrl) }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    ...(options.strictCaptures === undefined ? {} : { strictCaptures: options.strictCaptures }),
    recordUsage: options.recordUsage ?? true,
  };
}

/** Opens the state file (loading what it keeps) and makes it the mock's write-ahead log. */
async function attachStateFile(
  mock: CardIssuingMock,
  internals: MockInternals,
  file: string,
  options: StartMockServerOptions,
): Promise<StateFile> {
  const log = options.log;
  const opened = await openStateFile(
    file,
    {
      registry: internals.runtime.tenants,
      storedState: () => internals.storedState(),
      load: (stored) => internals.load(stored),
      importState: (state) => mock.importState(state as Parameters<CardIssuingMock['importState']>[0]),
      replay: (command) => internals.replay(command as Parameters<typeof internals.replay>[0]),
    },
    {
      onError: (error) =>
        log?.(
          `state file: could not write ${file}: ${errnoText(error)}; the changes of the requests answered 503 are not confirmed`,
        ),
    },
  );
  const stateFile = opened.stateFile;
  try {
    if (stateFile.loaded) addGivenCredentials(mock, file, options);
    // Watch every tenant from now on; a first commit at once (a file the server cannot write to fails now, not at
    // the first change), then every change is committed before its reply.
    await stateFile.start(opened.writeAll);
  } catch (error) {
    await stateFile.close().catch(() => undefined);
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(
      file,
      `Cannot write the state file ${file}: ${errnoText(error)}. Nothing was changed in it; free space or fix its permissions, or pass another --state-file.`,
    );
  }
  // Each start on the file has its own request ids: a restart never answers with an id an earlier start gave.
  internals.runtime.nextRequestId = requestIds(internals.runtime.tenants.seed, stateFile.starts);
  internals.attachWal(stateFile);
  return stateFile;
}

/** The file's tenants win; credentials given as options are added beside them, so that they still work. */
function addGivenCredentials(mock: CardIssuingMock, file: string, options: StartMockServerOptions): void {
  const { apiKey, apiSecret } = options;
  if (apiKey === undefined || apiSecret === undefined) return;
  const saved = mock.exportState().tenants.find((t) => t.apiKey === apiKey);
  if (saved && saved.apiSecret !== apiSecret) {
    throw new StateFileError(
      file,
      `The state file ${file} already has the api key ${apiKey}, with another secret; give its saved secret, or another api key.`,
    );
  }
  if (!saved) mock.addCredentials({ apiKey, apiSecret });
}

/** The mock's pipeline with its pages and MCP endpoint, behind node:http. */
function serveMock(
  mock: CardIssuingMock,
  internals: MockInternals,
  host: string,
  guard: ReturnType<typeof createGuard>,
  options: StartMockServerOptions,
): ReturnType<typeof servePipeline> {
  // The reveal frame may be framed by the pages the guard lets call the mock (local ones, --cors-origin, public URL).
  const framers = [...(options.corsOrigins ?? []), ...(options.publicUrl ? [new URL(options.publicUrl).origin] : [])];
  const pages = withRevealPage(withInspectorPage(internals.pipeline), framers);
  const pipeline = withDocsPage(pages, options.docsDir);
  // The MCP endpoint's tools send their requests to the mock's own pipeline, in-process.
  return servePipeline(withMcp(pipeline, internals.pipeline, internals.runtime), {
    port: options.port ?? 4010,
    host,
    ...(options.log ? { log: options.log } : {}),
    secrets: () => secretsOf(mock),
    guard,
  });
}

/** A public URL as the mock uses it: an absolute http(s) URL without query or fragment. */
function checkedPublicUrl(text: string): string {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new TypeError(
      `publicUrl must be an absolute http(s) URL without query, e.g. https://mock.example.test (got ${JSON.stringify(text)}).`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** The api secrets (of every tenant) a log line must never show. Read only when an error is logged. */
function secretsOf(mock: CardIssuingMock): string[] {
  try {
    return mock.exportState().tenants.map((t) => t.apiSecret);
  } catch {
    return [];
  }
}
