/**
 * The `diff` command: reads the two versions and the usage file, classifies the changes, reports them as text,
 * JSON, GitHub Actions annotations (with a table in the job's step summary) or SARIF 2.1.0, and gives the exit
 * code: 1 when a breaking change touches what the usage lists (any breaking change without a usage file), 0
 * otherwise; a file that cannot be read is a {@link CannotRun} (exit 2).
 * @module
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CannotRun } from '../run/probe';
import type { UsageFile } from '../usage/usage';
import { classifyChanges, type SpecChange } from './classify';
import { createLocator } from './locate';

/** The report formats. */
export type DiffFormat = 'text' | 'json' | 'github' | 'sarif';

/** Options of {@link runDiff}. */
export interface DiffOptions {
  base: string;
  revision: string;
  usage?: string;
  format: DiffFormat;
  /** The environment (GITHUB_ACTIONS, GITHUB_STEP_SUMMARY). */
  env: Record<string, string | undefined>;
  write: (text: string) => void;
  /** Applies an OpenAPI Overlay to the base, when the revision is one (the proxy's proposal). */
  applyOverlay?: (doc: unknown, overlay: never) => object;
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CannotRun(
      `cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function document(text: string, path: string, what: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new CannotRun(`the ${what} ${path} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null) throw new CannotRun(`the ${what} ${path} is not an OpenAPI document`);
  return doc as Record<string, unknown>;
}

const isOpenApi = (doc: Record<string, unknown>) => typeof doc.openapi === 'string' && typeof doc.paths === 'object';

/** One change as a line: where, what, and why it blocks or not. */
function lineOf(change: SpecChange & { line: number }): string {
  const where = change.operation
    ? `${change.operation.method} ${change.operation.path}`
    : change.path.slice(0, 2).join(' ');
  const subject = change.subject ? ` ${change.subject}` : '';
  const reason = change.reason ? ` (${change.reason})` : '';
  return `${where}${subject}: ${change.description}${reason}`;
}

/** The revision to compare, as a document, its text and its file: an Overlay is applied to the base first. */
function readRevision(options: DiffOptions, base: Record<string, unknown>, baseText: string) {
  const revisionText = read(options.revision, 'revision');
  const revision = document(revisionText, options.revision, 'revision');
  if (typeof revision.overlay !== 'string' || !Array.isArray(revision.actions)) {
    if (!isOpenApi(revision)) throw new CannotRun(`the revision ${options.revision} is not an OpenAPI document`);
    return { revision, revisionText, revisionFile: options.revision };
  }
  if (!options.applyOverlay) throw new CannotRun('an Overlay revision needs the overlay applier');
  try {
    const applied = options.applyOverlay(base, revision as never) as Record<string, unknown>;
    // Lines then point into the base the overlay changes.
    return { revision: applied, revisionText: baseText, revisionFile: options.base };
  } catch (error) {
    throw new CannotRun(
      `the overlay ${options.revision} does not apply to ${options.base}: ${(error as Error).message}`,
    );
  }
}

/** The usage file, when one is given. */
function readUsageFile(options: DiffOptions): UsageFile | undefined {
  if (options.usage === undefined) return undefined;
  const parsed = document(read(options.usage, 'usage file'), options.usage, 'usage file') as Partial<UsageFile>;
  if (parsed.usageVersion !== 1 || !Array.isArray(parsed.operations))
    throw new CannotRun(`${options.usage} is not a usage file (card-issuing-contract usage writes one)`);
  return parsed as UsageFile;
}

type Located = SpecChange & { line: number };

/** What the comparison found, for the reports. */
interface Outcome {
  changes: Located[];
  breaking: Located[];
  blocking: Located[];
  code: number;
  revisionFile: string;
  usage: UsageFile | undefined;
}

/** The text report: GitHub annotations or one line per change, then the counts and the verdict. */
function textReport(options: DiffOptions, outcome: Outcome): string {
  const { changes, breaking, blocking, code, revisionFile, usage } = outcome;
  const lines: string[] = [];
  if (options.format === 'github') {
    // One annotation per breaking change, at its line in the revision: an error when it touches the app.
    for (const c of breaking)
      lines.push(
        `::${c.blocking ? 'error' : 'warning'} file=${revisionFile},line=${c.line}::${escapeAnnotation(lineOf(c))}`,
      );
  } else {
    const mark = (c: SpecChange) => (c.blocking ? '✗ BREAKING' : c.type === 'breaking' ? '! breaking' : `  ${c.type}`);
    for (const c of changes) lines.push(`${mark(c)}  ${lineOf(c)}  [${revisionFile}:${c.line}]`);
  }
  lines.push(
    `${changes.length} change(s), ${breaking.length} breaking, ${blocking.length} touching ${usage ? `what ${options.usage} lists` : 'the API (no usage file)'}: ${code === 0 ? 'PASS' : 'FAIL'}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report in the format asked for: JSON, SARIF or text. */
function reportOf(options: DiffOptions, outcome: Outcome): string {
  const { changes, breaking, blocking, code, revisionFile } = outcome;
  if (options.format === 'json')
    return `${JSON.stringify(
      {
        base: options.base,
        revision: options.revision,
        usage: options.usage ?? null,
        changes: changes.map(({ path, ...c }) => ({ ...c, path: path.join('.'), file: revisionFile })),
        breaking: breaking.length,
        blocking: blocking.length,
        exitCode: code,
      },
      null,
      2,
    )}\n`;
  if (options.format === 'sarif') return `${JSON.stringify(sarifOf(changes, revisionFile), null, 2)}\n`;
  return textReport(options, outcome);
}

/** Runs the comparison; returns the exit code. */
export function runDiff(options: DiffOptions): number {
  const baseText = read(options.base, 'base');
  const base = document(baseText, options.base, 'base');
  if (!isOpenApi(base)) throw new CannotRun(`the base ${options.base} is not an OpenAPI document`);
  const { revision, revisionText, revisionFile } = readRevision(options, base, baseText);
  const usage = readUsageFile(options);

  const locator = createLocator(revisionText);
  const changes = classifyChanges(base, revision, usage).map((c) => ({ ...c, line: locator.lineOf(c.path) }));
  const blocking = changes.filter((c) => c.blocking);
  const breaking = changes.filter((c) => c.type === 'breaking');
  const code = blocking.length > 0 ? 1 : 0;
  const github = options.env.GITHUB_ACTIONS === 'true';
  options.write(reportOf(options, { changes, breaking, blocking, code, revisionFile, usage }));
  if (github && options.env.GITHUB_STEP_SUMMARY)
    appendFileSync(options.env.GITHUB_STEP_SUMMARY, summaryTable(changes, code, revisionFile));
  return code;
}

/** GitHub's annotation text: `%`, CR and LF escaped. */
const escapeAnnotation = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The job's step summary: a Markdown table of the breaking changes (and the count of the others). */
function summaryTable(changes: (SpecChange & { line: number })[], code: number, file: string): string {
  const breaking = changes.filter((c) => c.type === 'breaking');
  const rows = breaking.map(
    (c) =>
      `| ${c.blocking ? '❌ blocks' : '⚠️ not used'} | ${cell(c.operation ? `${c.operation.method} ${c.operation.path}` : c.path.slice(0, 2).join(' '))} | ${cell(c.subject ?? '')} | ${cell(c.description)} | ${cell(c.reason)} | ${file}:${c.line} |`,
  );
  return [
    `### card-issuing-contract diff: ${code === 0 ? 'no breaking change touches the app' : `${breaking.filter((c) => c.blocking).length} breaking change(s) touch the app`}`,
    '',
    `${changes.length} change(s), ${breaking.length} breaking.`,
    '',
    ...(rows.length > 0
      ? ['| | Operation | Where | Change | Why | Line |', '| --- | --- | --- | --- | --- | --- |', ...rows]
      : []),
    '',
  ].join('\n');
}

/** A SARIF 2.1.0 log: one result per breaking change (an error when it touches the app), at its line. */
function sarifOf(changes: (SpecChange & { line: number })[], file: string): object {
  const results = changes
    .filter((c) => c.type === 'breaking')
    .map((c) => ({
      ruleId: c.blocking ? 'breaking-change-used' : 'breaking-change-unused',
      level: c.blocking ? 'error' : 'warning',
      message: { text: lineOf(c) },
      locations: [{ physicalLocation: { artifactLocation: { uri: file }, region: { startLine: c.line } } }],
    }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'card-issuing-contract diff',
            informationUri: 'https://github.com/card-issuing-sdk/card-issuing-sdk',
            rules: [
              {
                id: 'breaking-change-used',
                shortDescription: { text: 'A breaking change to what the app uses' },
                defaultConfiguration: { level: 'error' },
              },
              {
                id: 'breaking-change-unused',
                shortDescription: { text: 'A breaking change to what the app does not use' },
                defaultConfiguration: { level: 'warning' },
              },
            ],
          },
        },
        results,
      },
    ],
  };
}
