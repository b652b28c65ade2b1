/**
 * The `card-issuing-mock` command: starts the standalone mock server, or (`init`) copies the service worker
 * script for the browser mock. Contract section 1.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isBase64Secret } from 'card-issuing-sdk/server';
import { startMockServer, type MockServer, type StartMockServerOptions } from './start.js';
import { copyInspectorPage, copyWorkerScript } from './init.js';
import { batchedLines } from './log.js';
import { serveMcpStdio, type McpStdioOptions } from './mcp-stdio.js';
import { loadScenarioFile } from './scenario-file.js';

/** What the command prints for --help and after a bad flag. */
export const USAGE = `Usage:
  card-issuing-mock [options]           start the mock server
  card-issuing-mock init <publicDir>    copy msw's mockServiceWorker.js into publicDir (for card-issuing-mock/browser)
      --inspector                       also the inspector page, into publicDir/__mock/ui/ (startBrowserMock({ inspector: true }))
  card-issuing-mock mcp --url <url>     the mock's MCP tools over stdio, for a running mock at <url> (signed with
                                        --api-key/--api-secret, default test_key/test_secret; also --sign-body,
                                        --secret-encoding)

Options:
  --port <n>           port to listen on (default 4010; 0 picks a free one)
  --host <address>     address to listen on (default 127.0.0.1)
  --api-key <key>      api key of the default tenant (default test_key; give --api-secret with it)
  --api-secret <s>     api secret of the default tenant (default test_secret)
  --state-file <file>  keep the whole state in this file (SQLite, Node 22.13+): every change is on disk before
                       its answer; a JSON state file of an earlier version is converted once (kept as
                       <file>.json-backup); a damaged, foreign or newer file is refused and left untouched
  --latency <ms>       milliseconds added to every API response
  --strict-captures    refuse the captures card networks force on an issuer (above the hold + 15 %, above the
                       remaining budget, after a reversal or an expiry); by default they are accepted as forced
  --no-auth            accept requests without checking their signature
  --sign-body          require the body hash in signatures (+ base64(SHA-256(body)); off: the five published parts)
  --secret-encoding <e>  how a secret becomes the HMAC key: utf8 (its bytes, the default) or base64 (the bytes
                       it encodes; the default secret is then dGVzdF9zZWNyZXQ=)
  --public-url <url>   the URL clients reach the mock at through a proxy or tunnel: signatures are verified on
                       it, and its host is allowed
  --allowed-host <h>   another name the mock may be reached by (repeatable); any other Host is refused (403)
  --cors-origin <o>    another origin browser pages may call from (repeatable); any other Origin is refused (403)
  --seed <seed>        seed of the fixtures and ids (same seed, same fixtures)
  --scenario <file>    a scenario (JSON or YAML: builders in order) applied to every tenant's fresh state and
                       again on reset; a wrong one is refused whole, every error listed
  --docs <dir>         serve the API reference built by \`npm run docs\` (docs/api in a clone) at /__mock/docs
  -h, --help           show this help

Stop with Ctrl+C (SIGINT) or SIGTERM; with --state-file the state is saved first.`;

/** Where the command writes; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** A wrong command line: the message is for the person who typed it. */
class UsageError extends Error {}

/**
 * Runs the command. Resolves an exit code when the command is done (help, init, an error), or `undefined` once
 * the server listens: the process then lives until SIGINT or SIGTERM, which stop the server and exit 0.
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number | undefined> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`card-issuing-mock: ${errorMessage(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.kind === 'help') {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'mcp') return runMcp(parsed.options, io);
  if (parsed.kind === 'init') return runInit(parsed, io);
  return serve(parsed.options, io);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `mcp`: serves the tools over stdio until stdin closes. */
async function runMcp(options: McpStdioOptions, io: CliIo): Promise<number | undefined> {
  try {
    await serveMcpStdio(options);
    return undefined;
  } catch (error) {
    io.err(`card-issuing-mock mcp: ${errorMessage(error)}\n`);
    return 1;
  }
}

/** `init`: copies the service worker (and with --inspector the inspector page) into the app's public folder. */
async function runInit(parsed: Extract<Parsed, { kind: 'init' }>, io: CliIo): Promise<number> {
  try {
    const target = await copyWorkerScript(parsed.publicDir, import.meta.url);
    io.out(
      `Copied the mock service worker to ${target}.\n` +
        `Start it in the app with startBrowserMock() from 'card-issuing-mock/browser' ` +
        `(it loads /mockServiceWorker.js; pass serviceWorker.url if the folder is served elsewhere).\n`,
    );
    if (parsed.inspector) {
      const folder = await copyInspectorPage(parsed.publicDir);
      io.out(
        `Copied the inspector page to ${folder}.\n` +
          `Open it over the app with startBrowserMock({ inspector: true }) and then openInspector().\n`,
      );
    }
    return 0;
  } catch (error) {
    io.err(`card-issuing-mock init: ${errorMessage(error)}\n`);
    return 1;
  }
}

type ServeOptions = Extract<Parsed, { kind: 'serve' }>['options'];

/** Starts the server; resolves `undefined` once it listens (or 1 when it cannot start). */
async function serve(options: ServeOptions, io: CliIo): Promise<number | undefined> {
  // The request log is written in batches; whatever else the command says goes after the lines kept so far.
  const requestLog = batchedLines(io.out);
  const say = (text: string) => {
    requestLog.flush();
    io.out(text);
  };
  const signals = handleSignals(options, io, requestLog.flush, say);
  let server: MockServer;
  try {
    server = await startMockServer({ ...options, log: requestLog.line });
  } catch (error) {
    signals.release();
    // A readable reason, never a stack: the usual causes are a taken port and an unusable state file.
    io.err(`card-issuing-mock: ${errorMessage(error)}\n`);
    return 1;
  }
  // Lines kept when the process ends (an exit from elsewhere, a second signal) are written first.
  process.on('exit', requestLog.flush);
  if (signals.started(server)) return undefined;
  say(banner(server, options));
  return undefined;
}

/**
 * Signals are handled from before the server starts: a SIGTERM that arrives while it starts, or just after the
 * banner reached a supervisor, still stops it cleanly. `started` says whether a signal already asked to stop.
 */
function handleSignals(
  options: ServeOptions,
  io: CliIo,
  flush: () => void,
  say: (text: string) => void,
): { started: (server: MockServer) => boolean; release: () => void } {
  let server: MockServer | undefined;
  let stopping = false;
  const shutdown = (running: MockServer) => {
    running.close().then(
      () => {
        say(`card-issuing-mock: stopped${options.stateFile ? `, state saved to ${options.stateFile}` : ''}\n`);
        // Exit once the output is flushed and nothing is left to do; a timer the mock still holds does not keep
        // the process alive beyond a second.
        process.exitCode = 0;
        setTimeout(() => process.exit(0), 1000).unref();
      },
      (error: unknown) => {
        flush();
        io.err(`card-issuing-mock: could not stop cleanly: ${errorMessage(error)}\n`);
        process.exit(1);
      },
    );
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl+C does not wait; the state file is still whole, as every write is atomic.
      flush();
      io.err(`card-issuing-mock: ${signal} again, exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    say(`card-issuing-mock: ${signal}, stopping\n`);
    if (server) shutdown(server);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    started: (running) => {
      server = running;
      if (stopping) shutdown(running);
      return stopping;
    },
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

type Parsed =
  | { kind: 'help' }
  | { kind: 'init'; publicDir: string; inspector: boolean }
  | { kind: 'mcp'; options: McpStdioOptions }
  | { kind: 'serve'; options: StartMockServerOptions & { stateFile?: string } };

function parse(argv: readonly string[]): Parsed {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: FLAGS });
  if (values.help) return { kind: 'help' };

  const [command, ...rest] = positionals;
  if (command === 'init') return parseInit(values, rest);
  if (command === 'mcp') return { kind: 'mcp', options: mcpOptions(values, rest) };
  if (command !== undefined) throw new UsageError(`Unknown command "${command}".`);
  if (values.url !== undefined) throw new UsageError('--url is an option of `card-issuing-mock mcp`.');
  if (values.inspector)
    throw new UsageError('--inspector is an option of init (the server has its page at /__mock/ui).');
  return { kind: 'serve', options: serveOptions(values) };
}

/** The server's options, checked in the order of the usage text. */
function serveOptions(values: Flags): StartMockServerOptions {
  const options: StartMockServerOptions = {};
  if (values.port !== undefined) options.port = integer('--port', values.port, 0, 65535);
  if (values.host !== undefined) {
    if (values.host.trim() === '') throw new UsageError('--host needs an address, e.g. 127.0.0.1 or 0.0.0.0.');
    options.host = values.host;
  }
  credentialOptions(values, options);
  if (values['state-file'] !== undefined) {
    if (values['state-file'].trim() === '') throw new UsageError('--state-file needs a file name.');
    options.stateFile = resolve(values['state-file']);
  }
  if (values.latency !== undefined) options.latencyMs = integer('--latency', values.latency, 0, 600_000);
  if (values['no-auth']) options.verifySignatures = false;
  if (values['sign-body']) options.bodyHash = true;
  if (values['strict-captures']) options.strictCaptures = true;
  secretEncodingOption(values, options);
  reachOptions(values, options);
  fileOptions(values, options);
  if (values.seed !== undefined) options.seed = values.seed;
  return options;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
  'state-file': { type: 'string' },
  latency: { type: 'string' },
  'no-auth': { type: 'boolean' },
  'sign-body': { type: 'boolean' },
  'strict-captures': { type: 'boolean' },
  'secret-encoding': { type: 'string' },
  'public-url': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  docs: { type: 'string' },
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  inspector: { type: 'boolean' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>['values'];

function parseInit(values: Flags, rest: readonly string[]): Parsed {
  const serveFlags = Object.keys(values).filter((flag) => flag !== 'inspector');
  if (serveFlags.length) throw new UsageError(`init takes no options (got --${serveFlags.join(', --')}).`);
  if (rest.length !== 1)
    throw new UsageError(
      'init needs exactly one argument: the folder the app serves static files from, e.g. `init public`.',
    );
  return { kind: 'init', publicDir: rest[0]!, inspector: values.inspector === true };
}

/** --api-key and --api-secret: the default tenant's credentials. */
function credentialOptions(values: Flags, options: StartMockServerOptions): void {
  if ((values['api-key'] === undefined) !== (values['api-secret'] === undefined)) {
    throw new UsageError('--api-key and --api-secret go together; give both or neither.');
  }
  if (values['api-key'] === undefined || values['api-secret'] === undefined) return;
  // The Authorization header separates its parts with ':', so a key with one could never be parsed back.
  if (!/^[^\s:]+$/.test(values['api-key'])) throw new UsageError('--api-key must be non-empty, without spaces or ":".');
  if (values['api-secret'] === '') throw new UsageError('--api-secret must not be empty.');
  options.apiKey = values['api-key'];
  options.apiSecret = values['api-secret'];
}

/** --secret-encoding: read after the credentials, whose secret it checks (or whose default it replaces). */
function secretEncodingOption(values: Flags, options: StartMockServerOptions): void {
  const encoding = values['secret-encoding'];
  if (encoding === undefined) return;
  if (encoding !== 'utf8' && encoding !== 'base64')
    throw new UsageError(`--secret-encoding is utf8 or base64 (got "${encoding}").`);
  options.secretEncoding = encoding;
  if (encoding !== 'base64') return;
  if (options.apiSecret !== undefined && !isBase64Secret(options.apiSecret)) {
    throw new UsageError(
      '--secret-encoding base64 needs a base64 --api-secret (e.g. one made by `openssl rand -base64 32`).',
    );
  }
  // The documented default secret is no base64: the same key bytes, test_secret, in base64.
  if (options.apiSecret === undefined) Object.assign(options, { apiKey: 'test_key', apiSecret: BASE64_DEFAULT_SECRET });
}

/** --public-url, --allowed-host and --cors-origin: the names and origins the mock may be reached from. */
function reachOptions(values: Flags, options: StartMockServerOptions): void {
  publicUrlOption(values, options);
  allowedHostsOption(values, options);
  corsOriginsOption(values, options);
}

function publicUrlOption(values: Flags, options: StartMockServerOptions): void {
  if (values['public-url'] !== undefined) {
    const url = URL.parse(values['public-url']);
    if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
      throw new UsageError(
        `--public-url must be an absolute http(s) URL without query, e.g. https://mock.example.test (got "${values['public-url']}").`,
      );
    }
    options.publicUrl = values['public-url'];
  }
}

function allowedHostsOption(values: Flags, options: StartMockServerOptions): void {
  if (values['allowed-host'] !== undefined) {
    for (const host of values['allowed-host']) {
      if (!/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(host))
        throw new UsageError(`--allowed-host takes a host name or address without port (got "${host}").`);
    }
    options.allowedHosts = values['allowed-host'];
  }
}

function corsOriginsOption(values: Flags, options: StartMockServerOptions): void {
  if (values['cors-origin'] !== undefined) {
    for (const origin of values['cors-origin']) {
      const url = URL.parse(origin);
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/+$/, '')) {
        throw new UsageError(`--cors-origin takes an origin such as https://app.example.test (got "${origin}").`);
      }
    }
    options.corsOrigins = values['cors-origin'];
  }
}

/** --scenario and --docs: paths, resolved from the current directory. */
function fileOptions(values: Flags, options: StartMockServerOptions): void {
  if (values.scenario !== undefined) {
    if (values.scenario.trim() === '')
      throw new UsageError('--scenario needs a file, e.g. examples/scenarios/approvals.json.');
    options.scenario = loadScenarioFile(resolve(values.scenario));
  }
  if (values.docs !== undefined) {
    if (values.docs.trim() === '') throw new UsageError('--docs needs a folder, e.g. docs/api.');
    options.docsDir = resolve(values.docs);
  }
}

/** The options of `mcp`: the URL of a running mock and the credentials its tools sign with. */
function mcpOptions(values: Record<string, unknown>, rest: readonly string[]): McpStdioOptions {
  const allowed = new Set(['url', 'api-key', 'api-secret', 'sign-body', 'secret-encoding']);
  const others = Object.keys(values).filter((name) => !allowed.has(name));
  if (others.length > 0 || rest.length > 0)
    throw new UsageError(`mcp takes --url, --api-key, --api-secret, --sign-body and --secret-encoding only.`);
  const url = URL.parse(String(values.url ?? ''));
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new UsageError("mcp needs --url, the running mock's URL, e.g. --url http://127.0.0.1:4010.");
  if ((values['api-key'] === undefined) !== (values['api-secret'] === undefined))
    throw new UsageError('--api-key and --api-secret go together; give both or neither.');
  const encoding = values['secret-encoding'];
  if (encoding !== undefined && encoding !== 'utf8' && encoding !== 'base64')
    throw new UsageError(`--secret-encoding is utf8 or base64 (got "${String(encoding)}").`);
  return {
    url: url.href.replace(/\/+$/, ''),
    credentials: {
      apiKey: String(values['api-key'] ?? 'test_key'),
      apiSecret: String(values['api-secret'] ?? (encoding === 'base64' ? BASE64_DEFAULT_SECRET : 'test_secret')),
    },
    ...(values['sign-body'] ? { bodyHash: true } : {}),
    ...(encoding !== undefined ? { secretEncoding: encoding } : {}),
  };
}

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text}").`);
  }
  return Number(text);
}

const WILDCARD_HOSTS = ['0.0.0.0', '::'];
/** The default secret under `--secret-encoding base64`: base64 of `test_secret`, so the HMAC key is the same bytes. */
const BASE64_DEFAULT_SECRET = 'dGVzdF9zZWNyZXQ=';

/** What the command prints once the server listens: where it is, how to sign, and the seeded ids. */
function banner(server: MockServer, options: StartMockServerOptions): string {
  const lines = [
    ...listeningLines(server, options),
    ...credentialLines(server, options),
    ...settingLines(server, options),
    ...fixtureLines(server),
    '',
    'One line per request follows. Stop with Ctrl+C.',
    '',
  ];
  return `${lines.join('\n')}\n`;
}

function listeningLines(server: MockServer, options: StartMockServerOptions): string[] {
  const lines = [`card-issuing-mock listening on ${server.url}`, ''];
  if (WILDCARD_HOSTS.includes(options.host ?? '')) {
    // Listening on every interface: say so, and where, so that no one leaves it open by accident.
    lines.push(`  WARNING: --host ${options.host} makes the mock reachable from other machines, at:`);
    for (const url of server.reachableAt) lines.push(`             ${url}`);
    lines.push('           Requests whose Host is not one of these (or an --allowed-host) are refused.', '');
  }
  lines.push(`  Base URL      ${server.url}`);
  if (options.publicUrl) lines.push(`  Public URL    ${options.publicUrl} (signatures are verified on it)`);
  return lines;
}

/**
 * Every tenant's api key (a state file may hold several), the default tenant's first. A secret is shown only
 * when it was given on this command line, or is the documented default; never one read from a state file.
 */
function credentialLines(server: MockServer, options: StartMockServerOptions): string[] {
  return server.mock
    .exportState()
    .tenants.map(
      (t, i) => `  ${i === 0 ? 'Credentials' : '           '}   apiKey ${t.apiKey}${shownSecret(t, options)}`,
    );
}

function shownSecret(t: { apiKey: string; apiSecret: string }, options: StartMockServerOptions): string {
  const given =
    options.apiSecret !== undefined && options.apiSecret !== BASE64_DEFAULT_SECRET && t.apiKey === options.apiKey;
  if (given) return `   apiSecret ${t.apiSecret}`;
  const documented = options.apiKey === undefined && t.apiKey === 'test_key' && t.apiSecret === 'test_secret';
  if (documented) return '   apiSecret test_secret (the default)';
  const base64Default = t.apiKey === 'test_key' && t.apiSecret === BASE64_DEFAULT_SECRET;
  if (base64Default) return `   apiSecret ${BASE64_DEFAULT_SECRET} (the default under --secret-encoding base64)`;
  return '';
}

function signatureLine(options: StartMockServerOptions): string {
  if (options.verifySignatures === false) return '  Signatures    not checked (--no-auth)';
  const parts = options.bodyHash ? 'body hash required: --sign-body' : 'the five published parts';
  const secret = options.secretEncoding === 'base64' ? 'base64-decoded: --secret-encoding base64' : 'as UTF-8';
  return `  Signatures    checked (HMAC-SHA256, ${parts}, secret ${secret})`;
}

function settingLines(server: MockServer, options: StartMockServerOptions): string[] {
  const lines = [signatureLine(options)];
  if (options.stateFile) lines.push(`  State file    ${options.stateFile}`);
  if (options.latencyMs) lines.push(`  Latency       ${options.latencyMs} ms`);
  if (options.strictCaptures) lines.push('  Captures      strict: forced captures refused (--strict-captures)');
  lines.push(`  Control API   ${server.url}/__mock/fixtures, /__mock/reset, /__mock/clock, ... (see the README)`);
  lines.push(
    `  Inspector     ${server.url}/__mock/ui   (the state, the clock, the request journal and every action, in a browser)`,
  );
  if (options.docsDir) lines.push(`  API docs      ${server.url}/__mock/docs (from ${options.docsDir})`);
  return lines;
}

function fixtureLines(server: MockServer): string[] {
  const fixtures = server.mock.fixtures();
  const lines = ['', '  Corporates'];
  for (const c of fixtures.corporates) {
    lines.push(`    ${c.corporateUuid}  ${c.name}  balanceId ${c.balanceId}  balance ${money(c.balance)}`);
  }
  lines.push('', '  Card configs');
  for (const c of fixtures.cardConfigs) {
    lines.push(`    ${c.configId}  ${c.name} (${c.type}, ${c.price ? money(c.price) : 'free'})`);
    lines.push(`      visuals ${c.visualIds.join(', ')}`);
  }
  lines.push('', '  Deposit types');
  for (const d of fixtures.depositTypes) lines.push(`    ${d.type}  ${d.name} (networks ${d.networks.join(', ')})`);
  return lines;
}

/** `€1,000.00 (100000)`: amounts travel in minor units; people read major ones. */
function money({ amount, currency }: { amount: number; currency: string }): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return `${format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2))} (${amount})`;
  } catch {
    return `${amount} ${currency} (minor units)`;
  }
}
