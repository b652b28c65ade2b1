/**
 * Global setup of the contract suite (`npm run test:contract`). Decides what the suite checks:
 *
 * - `CONTRACT_BASE_URL` unset: starts the standalone mock (`startMockServer({ port: 0 })`) and runs against it over
 *   real HTTP, then stops it.
 * - `CONTRACT_BASE_URL` set: runs against that server. If it has the mock's control API, each test file makes its own
 *   tenant there; otherwise `CONTRACT_API_KEY` and `CONTRACT_API_SECRET` are required, and the tests that drive the
 *   mock are skipped with the reason printed.
 *
 * At the end it prints the conformance report of the whole run: how many of the spec's operations the independent
 * checker validated, and every mismatch (each test file also fails on its own mismatches).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { hasControlApi } from '../../examples/support/control';
import { createConformanceChecker } from '../conformance/validator';
import { repoPath } from '../helpers/spec';
import { NEEDS_CONTROL, type ContractTarget, type FileConformance } from './support/target';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const apiKey = env.CONTRACT_API_KEY || undefined;
  const apiSecret = env.CONTRACT_API_SECRET || undefined;
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    throw new Error('CONTRACT_API_KEY and CONTRACT_API_SECRET go together: set both or neither.');
  }

  let server: MockServer | undefined;
  let baseUrl: string;
  if (env.CONTRACT_BASE_URL) {
    baseUrl = env.CONTRACT_BASE_URL.replace(/\/+$/, '');
  } else {
    server = await startMockServer({ port: 0, ...(apiKey && apiSecret ? { apiKey, apiSecret } : {}) });
    baseUrl = server.url;
  }

  let control: boolean;
  try {
    control = await hasControlApi(baseUrl);
  } catch (error) {
    await server?.close();
    throw new Error(`The contract suite cannot reach ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!control && apiKey === undefined) {
    throw new Error(
      `${baseUrl} has no mock control API, so the suite cannot make a tenant there: set CONTRACT_API_KEY and CONTRACT_API_SECRET to the sandbox's credentials.`,
    );
  }

  const resultsDir = mkdtempSync(join(tmpdir(), 'contract-conformance-'));
  const target: ContractTarget = {
    baseUrl,
    control,
    credentials: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined,
    corporateUuid: env.CONTRACT_CORPORATE_UUID || undefined,
    resultsDir,
  };
  project.provide('contract', target);

  const where = server ? `the standalone mock started for this run (${baseUrl})` : baseUrl;
  console.log(`Contract suite against ${where}`);
  console.log(
    control
      ? '  mock control API found: every test file runs in a tenant of its own (POST /__mock/credentials)'
      : `  no mock control API: running as api key ${apiKey}; tests that drive the mock are skipped (${NEEDS_CONTROL})`,
  );

  return async () => {
    try {
      printReport(resultsDir);
    } finally {
      rmSync(resultsDir, { recursive: true, force: true });
      await server?.close();
    }
  };
}

/** The whole run's conformance: the union of the operations each file's checker validated, and every mismatch. */
function printReport(resultsDir: string): void {
  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as FileConformance);
  if (results.length === 0) return;
  const all = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml') }).coverage().missing;
  const covered = new Set(results.flatMap((r) => r.operations));
  const findings = results.flatMap((r) => r.findings.map((f) => `${r.file}: ${f}`));
  const skipped = results.reduce((n, r) => n + r.skippedForControl, 0);
  const checked = results.reduce((n, r) => n + r.checked, 0);
  console.log('');
  console.log(
    `Conformance: ${checked} exchanges checked against spec/openapi.yaml by the independent validator; ` +
      `${covered.size} of ${all.length} operations validated, ${findings.length} mismatch(es).`,
  );
  const missing = all.filter((id) => !covered.has(id));
  if (missing.length > 0) console.log(`Not exercised: ${missing.join(', ')}`);
  for (const finding of findings) console.log(`  mismatch: ${finding}`);
  if (skipped > 0) console.log(`${skipped} test(s) skipped: ${NEEDS_CONTROL}.`);
}
