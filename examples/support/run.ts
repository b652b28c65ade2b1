/**
 * The demo runner: runs examples against an in-process mock (msw's `setupServer` over `createMock()`: no port, no
 * network) or against a running `card-issuing-mock` (`--base-url`), prints one line per step as it goes, stops at
 * the first failure with a readable message, and ends with the independent conformance report: every exchange was
 * checked against `spec/openapi.yaml` by a validator that shares no code with the SDK or the mock.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setupServer } from 'msw/node';
import { CardIssuingError, FlowError, createCardIssuingClient } from 'card-issuing-sdk';
import { createMock } from 'card-issuing-mock';
import { recordMswExchanges, type Recorder } from './recorders';
import { createConformanceChecker, createRecordingFetch, type Finding } from 'card-issuing-contract/conformance';
import {
  ControlError,
  createMockControl,
  createTenant,
  freshCredentials,
  hasControlApi,
} from 'card-issuing-mock/control';
import { DemoCheckError, Progress, type Example, type ExampleContext, type ProgressLine } from './example';

/** The spec every exchange is checked against. */
const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
/** Where the in-process mock answers: msw intercepts every request to it, so the name never reaches DNS. */
const IN_PROCESS_URL = 'https://mock.card-issuing.test';

const USAGE = `Usage: npm run demo [-- [--base-url URL [--api-key KEY --api-secret SECRET]] [--only NAME]]

Runs every flow of the interface document through the SDK and checks every request and response against
spec/openapi.yaml with an independent validator.

  (no flags)                  against an in-process mock: msw intercepts fetch (no port, no network)
  --base-url URL              against a running card-issuing-mock (npx card-issuing-mock), in a fresh tenant
  --api-key K --api-secret S  in this tenant of that server instead of a fresh one
  --only NAME                 run one flow only
  --help                      this text`;

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** The flows to run, in order. */
  examples: readonly Example[];
  /** Command-line arguments (without `node` and the script). */
  argv: readonly string[];
  /** Receives the output one line at a time (default: `console.log`). */
  write?: (line: string) => void;
}

/** Exit codes of the demo. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

interface Target {
  mode: 'in-process' | 'remote';
  baseUrl: string;
  credentials: { apiKey: string; apiSecret: string } | undefined;
  only: string | undefined;
}

/** The command line's flags; throws on an unknown or malformed one. */
function flagsOf(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'api-secret': { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}

function parseTarget(argv: readonly string[]): Target | { help: true } | { error: string } {
  let values: ReturnType<typeof flagsOf>;
  try {
    values = flagsOf(argv);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const apiKey = values['api-key'];
  const apiSecret = values['api-secret'];
  if ((apiKey === undefined) !== (apiSecret === undefined)) return { error: '--api-key and --api-secret go together.' };
  const baseUrl = values['base-url'];
  if (baseUrl === undefined && apiKey !== undefined) return { error: '--api-key and --api-secret need --base-url.' };
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl))
    return { error: `--base-url must be an http(s) URL, got ${baseUrl}.` };
  return {
    mode: baseUrl === undefined ? 'in-process' : 'remote',
    baseUrl: (baseUrl ?? IN_PROCESS_URL).replace(/\/+$/, ''),
    credentials: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined,
    only: values.only,
  };
}

/** The readable one-line account of what went wrong: the typed error's code, status, detail and request id. */
export function describeFailure(error: unknown): string {
  if (error instanceof CardIssuingError) {
    const facts = [
      error.code,
      error.status === undefined ? undefined : `HTTP ${error.status}`,
      error.requestId && `request ${error.requestId}`,
    ];
    const fields = error.errors.length > 0 ? ` [${error.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}]` : '';
    return `${error.name} ${facts.filter(Boolean).join(', ')}: ${error.detail}${fields}`;
  }
  if (error instanceof ControlError)
    return `${error.name} ${error.code}${error.status === undefined ? '' : `, HTTP ${error.status}`}: ${error.detail}`;
  if (error instanceof DemoCheckError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

const formatFinding = (f: Finding): string =>
  `${f.operationId ?? '(no operation)'} ${f.method} ${f.path} [${f.url}] ${f.location}: ${f.message}`;

/** Pads a column so that the progress lines read as a table. */
const pad = (text: string, width: number): string => (text.length >= width ? `${text} ` : text.padEnd(width));

/** `1 flow`, `6 flows`. */
const flows = (n: number): string => `${n} flow${n === 1 ? '' : 's'}`;

type Write = (line: string) => void;
type Checker = ReturnType<typeof createConformanceChecker>;

/** The target and the flows to run; an exit code when the arguments say to stop (help, a usage error). */
function planOf(options: RunDemoOptions, write: Write): { target: Target; examples: readonly Example[] } | number {
  const target = parseTarget(options.argv);
  if ('help' in target) {
    write(USAGE);
    return EXIT.ok;
  }
  if ('error' in target) {
    write(`${target.error}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const examples =
    target.only === undefined ? options.examples : options.examples.filter((e) => e.name === target.only);
  if (examples.length === 0) {
    write(`No flow named ${target.only}; the flows are ${options.examples.map((e) => e.name).join(', ')}.`);
    return EXIT.usage;
  }
  return { target, examples };
}

/** The in-process mock: msw intercepts fetch, and every exchange it answers goes to the checker. */
function startInProcess(checker: Checker): { server: ReturnType<typeof setupServer>; recorder: Recorder } {
  const server = setupServer(...createMock({ seed: 'demo' }).handlers);
  const recorder = recordMswExchanges(server, checker);
  server.listen({ onUnhandledFrame: 'error' });
  return { server, recorder };
}

/** The tenant the flows run in (a fresh one unless credentials were given), its control API and a client. */
async function openTenant(target: Target, checker: Checker) {
  const credentials = target.credentials ?? freshCredentials('demo');
  const fixtures =
    target.credentials === undefined
      ? await createTenant(target.baseUrl, credentials)
      : await createMockControl({ baseUrl: target.baseUrl, ...credentials }).fixtures();
  const control = createMockControl({ baseUrl: target.baseUrl, ...credentials });
  const client = createCardIssuingClient({
    baseUrl: target.baseUrl,
    ...credentials,
    ...(target.mode === 'remote' ? { fetch: createRecordingFetch(checker) } : {}),
  });
  return { credentials, fixtures, control, client };
}

/** What running the flows needs. */
interface Session {
  context: Omit<ExampleContext, 'progress'>;
  checker: Checker;
  recorder: Recorder | undefined;
  write: Write;
  /** Prints a progress line, keeping the last failed step. */
  printLine(line: ProgressLine): void;
  /** The last step printed as failed, in any flow of the run. */
  failedStep(): ProgressLine | undefined;
}

/**
 * Runs one flow, printing its steps; false once it failed (its error, or exchanges that do not match the spec,
 * printed).
 */
async function runFlow(session: Session, example: Example): Promise<boolean> {
  const { checker, recorder, write } = session;
  write('');
  write(`${example.name}: ${example.title}`);
  try {
    await example.run({ ...session.context, progress: new Progress(example.name, session.printLine) });
  } catch (error) {
    await recorder?.settled();
    const step = error instanceof FlowError ? `${error.flow}/${error.step}` : session.failedStep()?.step;
    write('');
    write(`FAILED  ${example.name}${step ? ` at ${step}` : ''}`);
    write(`        ${describeFailure(error)}`);
    for (const finding of checker.findings()) write(`        spec mismatch: ${formatFinding(finding)}`);
    return false;
  }
  await recorder?.settled();
  const findings = checker.findings();
  if (findings.length === 0) return true;
  write('');
  write(`FAILED  ${example.name}: ${findings.length} exchange(s) do not match spec/openapi.yaml`);
  for (const finding of findings) write(`        ${formatFinding(finding)}`);
  return false;
}

/** The closing lines: what the validator checked and covered, and the time taken. */
function writeConformance(write: Write, checker: Checker, examples: readonly Example[], started: number): void {
  const coverage = checker.coverage();
  write('');
  write(
    `Conformance: ${checker.checked()} exchanges checked against spec/openapi.yaml by the independent validator; ` +
      `${coverage.covered} of ${coverage.total} operations validated, 0 mismatches.`,
  );
  if (coverage.missing.length > 0) write(`Not exercised: ${coverage.missing.join(', ')}`);
  write(
    `${examples.length === 1 ? 'The flow' : `All ${flows(examples.length)}`} passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
}

/** Opens the tenant and runs the flows in it, stopping at the first failure; the exit code. */
async function runFlows(
  target: Target,
  examples: readonly Example[],
  session: Omit<Session, 'context'>,
  started: number,
): Promise<number> {
  const { write, checker } = session;
  // The same control routes in both modes: msw answers them in-process, the server over HTTP.
  if (target.mode === 'remote' && !(await hasControlApi(target.baseUrl))) {
    write(
      `${target.baseUrl} has no mock control API (GET /__mock/fixtures). The demo plays the user and the outside world ` +
        'through it (OTP e-mails, KYC, incoming deposits, registration, the clock): point --base-url at a card-issuing-mock ' +
        '(npx card-issuing-mock), or run `npm run test:contract` to check a real service.',
    );
    return EXIT.failed;
  }
  const { credentials, ...context } = await openTenant(target, checker);
  write(
    target.mode === 'in-process'
      ? `card-issuing-sdk demo: ${flows(examples.length)} against the in-process mock (msw intercepts fetch: no port, no network)`
      : `card-issuing-sdk demo: ${flows(examples.length)} against ${target.baseUrl}`,
  );
  write(`tenant ${credentials.apiKey}; every exchange is checked against spec/openapi.yaml`);
  for (const example of examples) if (!(await runFlow({ ...session, context }, example))) return EXIT.failed;
  writeConformance(write, checker, examples, started);
  return EXIT.ok;
}

/**
 * Runs the demo and resolves with its exit code (0 all flows passed and the spec was met, 1 a failure, 2 bad
 * arguments). Never throws for a failure of a flow: it prints it.
 */
export async function runDemo(options: RunDemoOptions): Promise<number> {
  const write = options.write ?? ((line: string) => console.log(line));
  const plan = planOf(options, write);
  if (typeof plan === 'number') return plan;
  const { target, examples } = plan;
  const started = performance.now();
  const checker = createConformanceChecker({ specPath: SPEC_PATH, strictRequests: true });
  const inProcess = target.mode === 'in-process' ? startInProcess(checker) : undefined;
  let failedStep: ProgressLine | undefined;
  const printLine = (line: ProgressLine) => {
    if (line.status === 'failed') failedStep = line;
    write(`  ${pad(line.flow, 20)}${pad(line.step, 44)}${pad(line.status, 9)}${line.detail ?? ''}`.trimEnd());
  };
  const session = { checker, recorder: inProcess?.recorder, write, printLine, failedStep: () => failedStep };
  try {
    return await runFlows(target, examples, session, started);
  } catch (error) {
    // Setting up failed (the server is unreachable, the tenant cannot be made): say so without a stack trace.
    write(`FAILED  before the flows: ${describeFailure(error)}`);
    return EXIT.failed;
  } finally {
    inProcess?.recorder.stop();
    inProcess?.server.close();
  }
}

/** Runs one example as a script (`npx tsx examples/registration.ts [--base-url URL]`), setting the exit code. */
export async function runStandalone(example: Example): Promise<void> {
  process.exitCode = await runDemo({ examples: [example], argv: process.argv.slice(2) });
}
