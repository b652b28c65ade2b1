/**
 * The contract suite checks servers, so it is checked against servers that are wrong on purpose: the real mock with
 * one rule broken by a handler placed before its own. The suite must fail, and fail exactly at the tests that state
 * the broken rule, while every other test still passes (so the failure is the rule's, not the harness's). And against
 * a server without the mock's control API (as a sandbox of the real service), the tests that drive the mock are
 * skipped with the reason printed, and the rest run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  increaseAllowedOnCanceled,
  reapprovedSkipped,
  startPatchedMock,
  withoutControlApi,
  type PatchedServer,
} from './servers';
import { runContractSuite } from './run-contract';

let server: PatchedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const failed = (tests: { fullName: string; status: string }[]) =>
  tests.filter((t) => t.status === 'failed').map((t) => t.fullName);

describe('the contract suite catches a broken server', () => {
  it('increase-budget allowed on a CANCELED approval: exactly the test of that rule fails, naming 409 INVALID_TRANSITION against the 201 received', async () => {
    server = await startPatchedMock(increaseAllowedOnCanceled);
    const run = await runContractSuite(['approvals'], server.url);
    expect(run.code, run.output).not.toBe(0);
    expect(failed(run.tests)).toEqual([
      'cancellation increase-budget on a CANCELED approval is 409 INVALID_TRANSITION naming CANCELED and increaseApprovalBudget',
    ]);
    const failure = run.tests.find((t) => t.status === 'failed')!.failure ?? '';
    expect(failure).toContain(
      'expected 409 INVALID_TRANSITION (currentStatus CANCELED, operation increaseApprovalBudget), but the server accepted the call with 201',
    );
    expect(run.tests.filter((t) => t.status === 'passed').length).toBe(run.tests.length - 1);
  });

  it('the old instance not marked REAPPROVED: only tests of the reapproval rule fail, each naming REAPPROVED', async () => {
    server = await startPatchedMock(reapprovedSkipped);
    const run = await runContractSuite(['approvals'], server.url);
    expect(run.code, run.output).not.toBe(0);
    const failures = run.tests.filter((t) => t.status === 'failed');
    expect(failures.length).toBeGreaterThan(0);
    for (const test of failures) {
      expect(test.fullName).toMatch(/REAPPROVED|reapproval/);
      expect(test.failure ?? '').toMatch(/REAPPROVED/);
    }
    expect(failed(run.tests)).toContain(
      'reapproval: increase-budget increase-budget on an ACCEPTED approval is 201: a reapproval on the same card with the summed budget; the old instance becomes REAPPROVED',
    );
    expect(run.tests.some((t) => t.status === 'passed')).toBe(true);
  });
});

describe('the contract suite against a server without the mock control API (a real service)', () => {
  it('skips the tests that drive the mock, says why, and passes the rest', async () => {
    server = await startPatchedMock(withoutControlApi);
    const corporate = server.mock.fixtures().corporates[0]!;
    const run = await runContractSuite(['signing', 'approvals'], server.url, [
      '--api-key',
      'test_key',
      '--api-secret',
      'test_secret',
      '--corporate',
      corporate.corporateUuid,
      '--corporate-currency',
      corporate.balance.currency,
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('no mock control API (GET /__mock/fixtures): running as api key test_key');
    expect(run.output).toMatch(/Skipped \d+ test\(s\): needs the mock's control API, which this server does not have/);
    expect(run.report?.target).toBe('server');
    const skipped = run.tests.filter((t) => t.status === 'skipped');
    const passed = run.tests.filter((t) => t.status === 'passed');
    expect(skipped.map((t) => t.fullName)).toEqual(
      expect.arrayContaining([expect.stringContaining('increase-budget on a CANCELED approval')]),
    );
    expect(passed.map((t) => t.fullName)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('AUTH_NONCE_REUSED'),
        expect.stringContaining('increase-budget on a REAPPROVED approval is 409 INVALID_TRANSITION'),
      ]),
    );
    expect(failed(run.tests)).toEqual([]);
  });
});
