/**
 * Runs the contract suite as CI pipelines do, `card-issuing-contract run` (the built bin, contract/dist/cli.js), in
 * a child process against a server, and reads its per-test results from the bin's `--json` report.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport, TestResult } from '../../contract/src/run/report';
import { repoPath } from '../helpers/spec';

/** One test of the run, as the `--json` report gives it. */
export type SuiteTest = TestResult;

/** What a run gave: the exit code, the console output, every test's result and the report. */
export interface SuiteRun {
  code: number | null;
  output: string;
  tests: SuiteTest[];
  report: RunReport | undefined;
}

/**
 * Runs `card-issuing-contract run --base-url <baseUrl> <args> <files>` (files by name: `approvals`, `signing`).
 * Asynchronous on purpose: the server under test usually lives in this very process.
 */
export async function runContractSuite(files: string[], baseUrl: string, args: string[] = []): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-run-'));
  const json = join(dir, 'results.json');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const child = spawn(
    process.execPath,
    [repoPath('contract/dist/cli.js'), 'run', '--base-url', baseUrl, '--json', json, ...args, ...files],
    {
      env: { ...inherited, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  try {
    const report = code === 2 ? undefined : (JSON.parse(readFileSync(json, 'utf8')) as RunReport);
    return { code, output, tests: report?.results ?? [], report };
  } catch {
    throw new Error(`card-issuing-contract run left no JSON report (exit ${code}):\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
