#!/usr/bin/env node
/**
 * The `card-issuing-contract` command: `run` (the contract suite and the conformance checker against a server) and
 * `proxy` (a re-signing, validating proxy in front of a sandbox that reports drift from the spec). Bad input is one
 * readable line and exit code 2, never a stack trace.
 * @module
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { startProxy } from './proxy/proxy';
import { CannotRun } from './run/probe';
import { runContract } from './run/run';
import { writeUsage } from './usage/command';
import { type DiffFormat, runDiff } from './diff/command';
import { applyOverlay } from './proxy/apply-overlay';

const USAGE = `Usage:
  card-issuing-contract run --base-url URL [--api-key K --api-secret S] [--junit FILE] [--json FILE]
                            [--details FILE] [--verbose] [--wait SECONDS]
                            [--secret-encoding utf8|base64] [--sign-body] [--corporate UUID [--corporate-currency EUR]]
                            [--spec FILE] [--concurrency N] [suite file names...]
  card-issuing-contract usage --from FILE|URL --out usage.json [--pact pact.json] [--consumer NAME] [--spec FILE]
  card-issuing-contract diff --base A.yaml --revision B.yaml [--usage usage.json] [--format text|json|github|sarif]
  card-issuing-contract proxy --target URL --api-key K --api-secret S [--port 4020] [--host 127.0.0.1]
                            [--report FILE] [--public-url URL] [--allowed-host NAME...] [--secret-encoding utf8|base64]
                            [--sign-body] [--spec FILE]

run    The contract suite and the independent conformance checker (Ajv on the spec this package carries) against
       any server: the standalone mock (full suite, through its control API under /__mock) or a sandbox of the real
       service (the tests that need the control API are skipped, and the summary says so). It ends with one line
       per mismatch, by operation, one per failed test, and the counts; the assertions in full go to --details FILE
       or, with --verbose, before the summary. --corporate is ignored (with a warning) against the mock. --wait N asks
       the server again for up to N seconds while it does not answer (one started in the background).
       Exit 0: all that ran passed; 1: a failure or a mismatch with the spec; 2: could not run.
usage  What an app's tests exercised, from a running mock (GET /__mock/usage), a saved usage document or a saved
       journal (GET /__mock/requests): a usage file (--out; its JSON Schema is usage.schema.json in this package)
       and, with --pact, a Pact v4 consumer contract (one interaction per operation and status).
diff   Every change from --base to --revision (an OpenAPI document, or an Overlay such as the proxy proposes,
       applied to the base), classified by the usual compatibility rules. Exit 1 only when a breaking change
       touches what --usage lists (any breaking change without it), 0 otherwise, 2 when it cannot run. Under
       GitHub Actions: ::error annotations at the revision's lines, and a table in $GITHUB_STEP_SUMMARY.
proxy  Point your app or the SDK at it (signing for the proxy's URL with the same credentials): it verifies the
       signature, signs again for --target, checks every request and answer against the spec, prints one line per
       drift, serves GET /__drift, and on SIGINT/SIGTERM writes --report (.json and .md) and an OpenAPI Overlay.
       It answers only its own names as Host (localhost, the listen address, --public-url's, --allowed-host) and
       local pages as Origin; it forwards paths only, bodies up to 64 KiB, and no cookies or proxy credentials.
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  target: { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  details: { type: 'string' },
  verbose: { type: 'boolean' },
  wait: { type: 'string' },
  'secret-encoding': { type: 'string' },
  'sign-body': { type: 'boolean' },
  corporate: { type: 'string' },
  'corporate-currency': { type: 'string' },
  spec: { type: 'string' },
  concurrency: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  report: { type: 'string' },
  'public-url': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  from: { type: 'string' },
  out: { type: 'string' },
  pact: { type: 'string' },
  consumer: { type: 'string' },
  base: { type: 'string' },
  revision: { type: 'string' },
  usage: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

/** A usage error: one line, exit code 2. */
class UsageError extends Error {}

function url(name: string, value: string | undefined): string {
  if (!value) throw new UsageError(`--${name} is required`);
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

function signing(values: Record<string, unknown>) {
  const encoding = (values['secret-encoding'] as string | undefined) ?? 'utf8';
  if (encoding !== 'utf8' && encoding !== 'base64')
    throw new UsageError(`--secret-encoding must be utf8 or base64, got "${encoding}"`);
  return { secretEncoding: encoding, bodyHash: values['sign-body'] === true } as const;
}

function credentials(values: Record<string, unknown>, required: boolean) {
  const apiKey = values['api-key'] as string | undefined;
  const apiSecret = values['api-secret'] as string | undefined;
  if ((apiKey === undefined) !== (apiSecret === undefined))
    throw new UsageError('--api-key and --api-secret go together');
  if (required && apiKey === undefined) throw new UsageError('--api-key and --api-secret are required');
  return apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined;
}

const packagedSpec = (): string => fileURLToPath(new URL('./openapi.yaml', import.meta.url));

const parseCommandLine = (argv: string[]) =>
  parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
type Values = ReturnType<typeof parseCommandLine>['values'];

/** A command that takes no positional arguments refuses the first one. */
function noArguments(rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
}

/** `run`: the contract suite against a server; the suite files to run are the positional arguments. */
async function runCommand(values: Values, only: string[]): Promise<number> {
  const corporateUuid = values.corporate;
  const { code } = await runContract({
    baseUrl: url('base-url', values['base-url']),
    ...(credentials(values, false) ? { credentials: credentials(values, false)! } : {}),
    ...(corporateUuid ? { corporate: { corporateUuid, currency: values['corporate-currency'] ?? 'EUR' } } : {}),
    signing: signing(values),
    specPath: values.spec ?? packagedSpec(),
    only,
    ...(values.junit ? { junitPath: values.junit } : {}),
    ...(values.json ? { jsonPath: values.json } : {}),
    ...(values.details ? { detailsPath: values.details } : {}),
    verbose: values.verbose === true,
    waitSeconds: integer('wait', values.wait, 0, 0, 600),
    // The suite waits on the server, not on this machine's cores: a few files at once.
    concurrency: integer('concurrency', values.concurrency, Math.max(4, availableParallelism()), 1, 32),
    write: (text) => process.stdout.write(text),
  });
  return code;
}

/** `usage`: what an app used, from a mock or a saved file, as a usage file (and a Pact). */
async function usageCommand(values: Values, rest: string[]): Promise<number> {
  noArguments(rest);
  if (!values.from) throw new UsageError('--from is required (a usage or journal file, or a mock URL)');
  if (!values.out) throw new UsageError('--out is required (the usage file to write)');
  const summary = await writeUsage({
    from: values.from,
    out: values.out,
    ...(values.pact ? { pact: values.pact } : {}),
    consumer: values.consumer ?? 'app',
    specPath: values.spec ?? packagedSpec(),
  });
  process.stdout.write(`${summary}\n`);
  return 0;
}

/** `diff`: the changes between two versions of the spec, and which break what the usage file lists. */
function diffCommand(values: Values, rest: string[]): number {
  noArguments(rest);
  if (!values.base || !values.revision) throw new UsageError('--base and --revision are required');
  const github = process.env.GITHUB_ACTIONS === 'true';
  const format = values.format ?? (github ? 'github' : 'text');
  if (!['text', 'json', 'github', 'sarif'].includes(format))
    throw new UsageError(`--format must be text, json, github or sarif, got "${format}"`);
  return runDiff({
    base: values.base,
    revision: values.revision,
    ...(values.usage ? { usage: values.usage } : {}),
    format: format as DiffFormat,
    env: process.env,
    write: (text) => process.stdout.write(text),
    applyOverlay: applyOverlay as never,
  });
}

/** `proxy`: the drift proxy, until SIGINT or SIGTERM (then it writes its report). */
async function proxyCommand(values: Values, rest: string[]): Promise<number> {
  noArguments(rest);
  const proxy = await startProxy({
    target: url('target', values.target),
    credentials: credentials(values, true)!,
    signing: signing(values),
    port: integer('port', values.port, 4020, 0, 65535),
    host: values.host ?? '127.0.0.1',
    ...(values['public-url'] ? { publicUrl: url('public-url', values['public-url']) } : {}),
    ...(values['allowed-host'] ? { allowedHosts: values['allowed-host'] } : {}),
    ...(values.report ? { reportPath: values.report } : {}),
    specPath: values.spec ?? packagedSpec(),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void proxy.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) throw new UsageError(`needs Node.js 22 or newer; this is Node.js ${process.versions.node}`);
  const { values, positionals } = parseCommandLine(argv);
  const [command, ...rest] = positionals;
  if (values.version) {
    const { createRequire } = await import('node:module');
    process.stdout.write(`${(createRequire(import.meta.url)('../package.json') as { version: string }).version}\n`);
    return 0;
  }
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (command === 'run') return runCommand(values, rest);
  if (command === 'usage') return usageCommand(values, rest);
  if (command === 'diff') return diffCommand(values, rest);
  if (command === 'proxy') return proxyCommand(values, rest);
  throw new UsageError(`unknown command "${command}" (run, usage, diff or proxy; --help for usage)`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Expected refusals are one line; anything else is still one line (the message), never a stack.
    const known =
      error instanceof UsageError ||
      error instanceof CannotRun ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`card-issuing-contract: ${known ? '' : 'error: '}${message}\n`);
    process.exitCode = 2;
  },
);
