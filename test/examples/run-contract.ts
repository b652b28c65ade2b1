/**
 * Runs the contract suite (`vitest.contract.config.ts`) in a child process against a server, the way CI or an
 * integrator would, and reads its per-test results from vitest's JSON reporter.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../helpers/spec';

/** One test of the run, as vitest's JSON reporter gives it. */
export interface SuiteTest {
  fullName: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';
  failureMessages: string[];
}

/** What a run gave: the exit code, the console output and every test's result. */
export interface SuiteRun {
  code: number | null;
  output: string;
  tests: SuiteTest[];
}

/**
 * Runs `vitest run -c vitest.contract.config.ts <files>` with `env` added (CONTRACT_BASE_URL, ...). Asynchronous on
 * purpose: the server under test usually lives in this very process.
 */
export async function runContractSuite(files: string[], env: Record<string, string>): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-run-'));
  const json = join(dir, 'results.json');
  // The child is a vitest of its own: none of this run's VITEST_* variables, none of the caller's CONTRACT_* ones.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !name.startsWith('CONTRACT_')));
  const child = spawn(
    process.execPath,
    [repoPath('node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.contract.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...files],
    { cwd: repoPath('.'), env: { ...inherited, ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  try {
    const report = JSON.parse(readFileSync(json, 'utf8')) as { testResults: { assertionResults: SuiteTest[] }[] };
    return { code, output, tests: report.testResults.flatMap((file) => file.assertionResults) };
  } catch {
    throw new Error(`The contract suite left no JSON report (exit ${code}):\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
