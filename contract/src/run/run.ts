/**
 * `card-issuing-contract run`: the contract suite and the independent conformance checker against one server,
 * through node:test's `run()` (each suite file in a process of its own, a few at a time), then the reports: the
 * readable summary, `--junit` (node:test's own JUnit reporter) and `--json`.
 * @module
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run as runTests } from 'node:test';
import { junit } from 'node:test/reporters';
import { createConformanceChecker } from '../conformance/validator';
import {
  NEEDS_CONTROL,
  TARGET_ENV,
  type ContractTarget,
  type FileConformance,
  type SigningOptions,
} from '../suite/support/target';
import { CannotRun, probeControlApi, probeSigning } from './probe';
import { buildReport, formatDetails, formatSummary, type RunReport, type TestResult } from './report';

/** Options of {@link runContract}, as the command line gives them. */
export interface RunOptions {
  baseUrl: string;
  credentials?: { apiKey: string; apiSecret: string };
  corporate?: { corporateUuid: string; currency: string };
  signing: SigningOptions;
  specPath: string;
  /** Suite files to run by name (`signing`, `approvals`, ...); all when empty. */
  only: string[];
  junitPath?: string;
  jsonPath?: string;
  /** Where the failed tests' assertions in full and the skipped tests' names go; with `verbose`, to `write` too. */
  detailsPath?: string;
  verbose?: boolean;
  /** Seconds to wait for the server to answer at all (a server a CI step started in the background). */
  waitSeconds?: number;
  /** Suite files run at once (each in its own process). */
  concurrency: number;
  /** Where the summary goes. */
  write: (text: string) => void;
}

/** The suite files the package carries (dist/suite/*.test.js beside the CLI's chunks). */
function suiteFiles(only: string[]): string[] {
  const dir = fileURLToPath(new URL('./suite/', import.meta.url));
  const all = readdirSync(dir)
    .filter((name) => /\.test\.js$/.test(name))
    .sort();
  const names = all.map((name) => name.replace(/\.test\.js$/, ''));
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length > 0)
    throw new CannotRun(`no suite file named ${unknown.join(', ')} (there are: ${names.join(', ')})`);
  return all
    .filter((name) => only.length === 0 || only.includes(name.replace(/\.test\.js$/, '')))
    .map((name) => join(dir, name));
}

interface RawEvent {
  type: string;
  data: {
    name: string;
    nesting: number;
    file?: string;
    skip?: string | boolean;
    todo?: string | boolean;
    details?: { type?: string; duration_ms?: number; error?: unknown };
  };
}

/** The failure of a test as a reader needs it: the assertion's message, not node:test's wrapper. */
function failureText(error: unknown): string {
  const e = error as { cause?: unknown; message?: string; failureType?: string } | undefined;
  const inner = (e?.cause ?? e) as { message?: string; code?: string } | undefined;
  const text = inner?.message ?? e?.message ?? String(error);
  return e?.failureType === 'hookFailed' ? `a hook failed: ${text}` : text;
}

/**
 * Whether a finished test is left out: a suite's own result repeats its tests', except when it failed outside them
 * (a hook, a crash on import).
 */
function repeatsItsTests(type: string, data: RawEvent['data']): boolean {
  if (data.details?.type !== 'suite') return false;
  if (type === 'test:pass') return true;
  return (data.details?.error as { failureType?: string } | undefined)?.failureType === 'subtestsFailed';
}

/** A finished test's status: failed, skipped (a skip reason or `skip: true`) or passed. */
function statusOf(type: string, data: RawEvent['data']): TestResult['status'] {
  if (type === 'test:fail') return 'failed';
  return data.skip !== undefined && data.skip !== false ? 'skipped' : 'passed';
}

/** One finished leaf test as a result, named after its suites (`ancestors`). */
function testResult(type: string, data: RawEvent['data'], file: string, ancestors: string[]): TestResult {
  return {
    file: file.replace(/^.*[\\/]/, '').replace(/\.test\.js$/, ''),
    name: data.name,
    fullName: [...ancestors, data.name].join(' '),
    status: statusOf(type, data),
    durationMs: Math.round(data.details?.duration_ms ?? 0),
    ...(typeof data.skip === 'string' ? { skipReason: data.skip } : {}),
    ...(type === 'test:fail' ? { failure: failureText(data.details?.error) } : {}),
  };
}

/** Leaf tests with their full names (their suites' names before theirs), from the event stream. */
function collectTests(events: RawEvent[]): TestResult[] {
  const stacks = new Map<string, string[]>();
  const results: TestResult[] = [];
  for (const { type, data } of events) {
    const file = data.file ?? '(run)';
    const stack = stacks.get(file) ?? [];
    stacks.set(file, stack);
    if (type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (repeatsItsTests(type, data)) continue;
    results.push(testResult(type, data, file, stack.slice(0, data.nesting)));
  }
  return results;
}

/**
 * node:test's JUnit root carries no counts; CI systems that read only the root (and people) want them: the totals
 * of the run on `<testsuites>`.
 */
function withTotals(xml: string, report: RunReport): string {
  const { tests } = report;
  const totals = `tests="${tests.total}" failures="${tests.failed}" errors="0" skipped="${tests.skipped}" time="${(report.durationMs / 1000).toFixed(3)}"`;
  return xml.replace(/<testsuites(\s[^>]*)?>/, (root) =>
    root.replace(/^<testsuites/, `<testsuites name="card-issuing-contract run" ${totals}`),
  );
}

/** The events of a run that the reports read: tests started, passed and failed. */
async function runSuiteFiles(files: string[], concurrency: number): Promise<RawEvent[]> {
  const events: RawEvent[] = [];
  const stream = runTests({ files, concurrency, isolation: 'process' });
  for await (const event of stream as AsyncIterable<RawEvent>) {
    if (event.type === 'test:start' || event.type === 'test:pass' || event.type === 'test:fail') events.push(event);
  }
  return events;
}

/** The conformance each suite file left in `resultsDir`. */
function readConformance(resultsDir: string): FileConformance[] {
  return readdirSync(resultsDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as FileConformance);
}

/** Writes the JUnit report: node:test's own JUnit reporter, fed the events of this run, with the run's totals. */
async function writeJunit(path: string, events: RawEvent[], report: RunReport): Promise<void> {
  let xml = '';
  async function* replay() {
    yield* events as unknown as Parameters<typeof junit>[0] extends AsyncIterable<infer E> ? E[] : never;
  }
  for await (const chunk of junit(replay())) xml += String(chunk);
  writeFileSync(path, withTotals(xml, report));
}

/** Writes the summary and the reports the options ask for (details, `--json`, `--junit`). */
async function writeReports(options: RunOptions, report: RunReport, events: RawEvent[]): Promise<void> {
  const details = formatDetails(report);
  if (options.verbose) options.write(`\n${details}`);
  options.write(formatSummary(report));
  for (const path of [options.jsonPath, options.junitPath, options.detailsPath])
    if (path) mkdirSync(dirname(path), { recursive: true });
  if (options.detailsPath) {
    writeFileSync(options.detailsPath, details);
    options.write(`The failed tests' assertions in full and the skipped tests: ${options.detailsPath}\n`);
  } else if (!options.verbose && report.failures.length + report.skipped.length > 0) {
    options.write(`The failed tests' assertions in full and the skipped tests: --verbose, or --details FILE\n`);
  }
  if (options.jsonPath) writeFileSync(options.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  if (options.junitPath) await writeJunit(options.junitPath, events, report);
}

/** Says what the run is against: the mock with its control API, or a service where the mock's tests are skipped. */
function writeRunHeader(options: RunOptions, files: string[], control: boolean): void {
  options.write(`card-issuing-contract: ${files.length} suite file(s) against ${options.baseUrl}\n`);
  options.write(
    control
      ? '  the mock (its control API answers GET /__mock/fixtures): the full suite, every file in a tenant of its own\n'
      : `  no mock control API (GET /__mock/fixtures): running as api key ${options.credentials?.apiKey}; tests that drive the mock are skipped\n`,
  );
}

/**
 * Runs the suite against `options.baseUrl` and writes the reports. Returns the exit code: 0 when every test that
 * ran passed and no exchange broke the spec, 1 otherwise. Throws {@link CannotRun} when it cannot run at all.
 */
export async function runContract(options: RunOptions): Promise<{ code: number; report: RunReport }> {
  const started = Date.now();
  const files = suiteFiles(options.only);
  const control = await probeControlApi(options.baseUrl, options.waitSeconds);
  // The mock gives every suite file a tenant and corporates of its own: a corporate of another tenant would only
  // make the business tests fail.
  const corporate = control ? undefined : options.corporate;
  if (control && options.corporate)
    options.write(
      `card-issuing-contract: warning: --corporate is ignored against the mock (every suite file gets a tenant and corporates of its own)\n`,
    );
  await probeSigning(options.baseUrl, control, options.credentials, options.signing);

  const resultsDir = mkdtempSync(join(tmpdir(), 'card-issuing-contract-'));
  try {
    const target: ContractTarget = {
      baseUrl: options.baseUrl,
      control,
      credentials: options.credentials,
      corporate,
      signing: options.signing,
      specPath: options.specPath,
      resultsDir,
    };
    process.env[TARGET_ENV] = JSON.stringify(target);
    writeRunHeader(options, files, control);
    const events = await runSuiteFiles(files, options.concurrency);
    const coverage = createConformanceChecker({ specPath: options.specPath }).coverage();
    const report = buildReport({
      baseUrl: options.baseUrl,
      control,
      signing: options.signing,
      tests: collectTests(events),
      conformance: readConformance(resultsDir),
      allOperations: coverage.missing,
      durationMs: Date.now() - started,
      needsControl: NEEDS_CONTROL,
    });
    await writeReports(options, report, events);
    return { code: report.exitCode, report };
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
}
