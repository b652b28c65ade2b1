/**
 * The facts of a run, once: the JSON report (`--json`) is this object, and the readable summary is printed from it.
 * @module
 */
import type { Finding } from '../conformance/validator';
import type { FileConformance, SigningOptions } from '../suite/support/target';

/** One test as it ended. */
export interface TestResult {
  /** The suite file, by name (`signing`, `approvals`, ...). */
  file: string;
  name: string;
  /** Its suites' names, then its own. */
  fullName: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  skipReason?: string;
  failure?: string;
}

/** One way the server's answers (or the suite's requests) departed from the spec, with how often it was seen. */
export interface Mismatch {
  operationId: string | null;
  method: string;
  /** The spec's path template. */
  path: string;
  /** The first request that showed it (path and query as sent). */
  request: string;
  /** Where: `response.status`, `response.body/items/0/code`, `response.headers.x-request-id`, ... */
  location: string;
  /** What the spec says. */
  spec: string;
  /** What the server did, when it is a value. */
  server?: unknown;
  /** What in the first request led to it, when it is about the answer to a request that broke the spec. */
  cause?: string;
  /** How many exchanges showed it. */
  count: number;
}

/** The JSON report of `card-issuing-contract run --json`. */
export interface RunReport {
  tool: 'card-issuing-contract run';
  baseUrl: string;
  /** `mock` when the control API answered (the full suite ran), `server` otherwise. */
  target: 'mock' | 'server';
  signing: SigningOptions;
  durationMs: number;
  tests: { passed: number; failed: number; skipped: number; total: number };
  operations: { covered: number; total: number; missing: string[] };
  exchangesChecked: number;
  mismatches: Mismatch[];
  /** Skipped tests by reason. */
  skipped: { reason: string; count: number }[];
  failures: TestResult[];
  results: TestResult[];
  /** 0: all that ran passed and no mismatch; 1: a failure or a mismatch. */
  exitCode: 0 | 1;
}

/** A finding as a mismatch: a missing or an extra field is named in the path, as the other findings are. */
function mismatchOf(finding: Finding): Mismatch {
  // response.body/dateOfBirth, not response.body with the name in the message only.
  const field =
    finding.keyword === 'required' || finding.keyword === 'additionalProperties'
      ? /'([^']+)'/.exec(finding.message)?.[1]
      : undefined;
  const server = finding.keyword === 'required' ? '(absent)' : finding.actual;
  return {
    operationId: finding.operationId,
    method: finding.method,
    path: finding.path,
    request: `${finding.method} ${finding.url}`,
    location: field === undefined ? finding.location : `${finding.location}/${field}`,
    spec: finding.message,
    ...(server === undefined ? {} : { server }),
    ...(finding.cause === undefined ? {} : { cause: finding.cause }),
    count: 1,
  };
}

/** The files' findings as mismatches, each once with its count (array indexes in the location count as one). */
function mismatchesOf(conformance: FileConformance[]): Mismatch[] {
  const byKey = new Map<string, Mismatch>();
  for (const finding of conformance.flatMap((c) => c.findings) as Finding[]) {
    const key = `${finding.operationId} ${finding.method} ${finding.path} ${finding.location.replace(/\/\d+(?=\/|$)/g, '/*')} ${finding.message}`;
    const seen = byKey.get(key);
    if (seen) seen.count++;
    else byKey.set(key, mismatchOf(finding));
  }
  return [...byKey.values()];
}

/** Assembles the report from the tests' results and each file's conformance. */
export function buildReport(input: {
  baseUrl: string;
  control: boolean;
  signing: SigningOptions;
  tests: TestResult[];
  conformance: FileConformance[];
  /** Every operationId of the spec. */
  allOperations: string[];
  durationMs: number;
  needsControl: string;
}): RunReport {
  const covered = new Set(input.conformance.flatMap((c) => c.operations));
  const skippedBy = new Map<string, number>();
  for (const t of input.tests.filter((x) => x.status === 'skipped')) {
    const reason = t.skipReason ?? '(no reason given)';
    skippedBy.set(reason, (skippedBy.get(reason) ?? 0) + 1);
  }
  const count = (status: TestResult['status']) => input.tests.filter((t) => t.status === status).length;
  const mismatches = mismatchesOf(input.conformance);
  const failed = count('failed');
  return {
    tool: 'card-issuing-contract run',
    baseUrl: input.baseUrl,
    target: input.control ? 'mock' : 'server',
    signing: input.signing,
    durationMs: input.durationMs,
    tests: { passed: count('passed'), failed, skipped: count('skipped'), total: input.tests.length },
    operations: {
      covered: covered.size,
      total: input.allOperations.length,
      missing: input.allOperations.filter((id) => !covered.has(id)),
    },
    exchangesChecked: input.conformance.reduce((n, c) => n + c.checked, 0),
    mismatches,
    skipped: [...skippedBy].map(([reason, n]) => ({ reason, count: n })),
    failures: input.tests.filter((t) => t.status === 'failed'),
    results: input.tests,
    exitCode: failed > 0 || mismatches.length > 0 ? 1 : 0,
  };
}

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return cut(text, 120);
};

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The per-file conformance test: its failure is the mismatches, listed once above it. */
const isConformanceTest = (t: TestResult): boolean => t.fullName.startsWith(`conformance of ${t.file} `);

/** What a failed test's assertion says, on one line: its message before the runner's diff, whitespace collapsed. */
const oneLine = (failure: string | undefined): string =>
  (failure ?? '')
    .split(/\n\s*\n|\n\+ actual - expected/)[0]!
    .replace(/\s+/g, ' ')
    .trim();

/** One mismatch on a line: where, what the spec says, what came and how often. */
function mismatchLine(m: Mismatch): string {
  const came = m.server === undefined ? '' : `  came ${m.server === '(absent)' ? '(absent)' : show(m.server)}`;
  const cause = m.cause === undefined ? '' : ` to ${cut(m.cause, 120)}`;
  const times = m.count > 1 ? `  (${m.count}×)` : '';
  return `    ✗ ${m.location}  spec: ${cut(m.spec, 160)}${came}${cause}${times}`;
}

/** The mismatches grouped by operation, with a blank line after; none when there are none. */
function mismatchLines(report: RunReport): string[] {
  if (report.mismatches.length === 0) return [];
  const byOperation = new Map<string, Mismatch[]>();
  for (const m of report.mismatches) {
    const key = `${m.operationId ?? '(no operation)'}  ${m.method} ${m.path}`;
    byOperation.set(key, [...(byOperation.get(key) ?? []), m]);
  }
  const lines = [`Mismatches with the spec (${report.mismatches.length}, in ${byOperation.size} operation(s)):`];
  for (const [operation, list] of byOperation) lines.push(`  ${operation}`, ...list.map(mismatchLine));
  lines.push('');
  return lines;
}

/** The failed tests but the conformance ones (their mismatches are listed above) and the skips by reason. */
function failureAndSkipLines(report: RunReport): string[] {
  const lines: string[] = [];
  const failures = report.failures.filter((t) => !isConformanceTest(t));
  if (failures.length > 0) {
    lines.push(`Failed tests (${failures.length}):`);
    for (const t of failures) lines.push(cut(`  ✗ [${t.file}] ${t.fullName}: ${oneLine(t.failure)}`, 220));
    lines.push('');
  }
  for (const s of report.skipped) lines.push(cut(`Skipped ${s.count} test(s): ${s.reason}`, 220));
  if (report.skipped.length > 0) lines.push('');
  return lines;
}

/**
 * The readable summary, a screen for a person: one line per mismatch grouped by operation (where, what the spec says,
 * what came), one line per failed test, the skips by reason, then the counts. The assertions' diffs and the skipped
 * tests' names are in {@link formatDetails}.
 */
export function formatSummary(report: RunReport): string {
  const { tests, operations } = report;
  const lines: string[] = ['', ...mismatchLines(report), ...failureAndSkipLines(report)];
  lines.push(
    `Tests: ${tests.passed} passed, ${tests.failed} failed, ${tests.skipped} skipped (${tests.total}) in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push(
    `Operations covered: ${operations.covered} of ${operations.total}; ${report.exchangesChecked} exchanges checked against the spec, ${report.mismatches.length} mismatch(es)`,
  );
  if (operations.missing.length > 0) lines.push(`Not exercised: ${operations.missing.join(', ')}`);
  lines.push(report.exitCode === 0 ? 'Result: PASS' : 'Result: FAIL');
  return `${lines.join('\n')}\n`;
}

/** What the summary leaves out: each failed test's assertion in full (the runner's diff), each skipped test by name. */
export function formatDetails(report: RunReport): string {
  const lines: string[] = [];
  for (const t of report.failures) {
    lines.push(`✗ [${t.file}] ${t.fullName}`);
    for (const line of (t.failure ?? '').split('\n')) lines.push(`    ${line}`);
    lines.push('');
  }
  for (const s of report.skipped) {
    lines.push(`Skipped ${s.count} test(s): ${s.reason}`);
    for (const t of report.results.filter(
      (r) => r.status === 'skipped' && (r.skipReason ?? '(no reason given)') === s.reason,
    ))
      lines.push(`  - [${t.file}] ${t.fullName}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
