/**
 * `npm run demo`, run as a user runs it: every flow prints its steps and the run exits 0 with the conformance report;
 * a failure stops it with exit 1 and a readable line (the typed error's code, no stack trace, no secret); and a
 * response that breaks the spec, which the SDK itself would let through, fails it naming the operation and the path.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { getResponse, http } from 'msw';
import { startMockServer, type MockServer } from '../../mock-server/src/node';
import { repoPath } from '../helpers/spec';
import { startPatchedMock, type PatchedServer } from './servers';

/** Runs `npm run demo -- <args>` from the repository; resolves with the exit code and everything printed. */
function demo(args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', 'demo', '--', ...args], {
    cwd: repoPath('.'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The progress lines: `  <flow>  <step>  <done|skipped|failed>  <detail>`. */
function steps(output: string): { flow: string; step: string; status: string; detail: string }[] {
  return [...output.matchAll(/^ {2}(\S+) +(\S+) +(done|skipped|failed)\b *(.*)$/gm)].map(
    ([, flow, step, status, detail]) => ({ flow: flow!, step: step!, status: status!, detail: detail ?? '' }),
  );
}

/** What each flow must show, in order: the document's steps and the results that prove them. */
const EXPECTED: Record<string, [step: string, result?: RegExp][]> = {
  registration: [
    ['createUser', /^user [0-9a-f-]{36}$/],
    ['signRegistrationConsents', /^signed /],
    ['getUser', /registration COMPLETED/],
    ['reviewConsents'],
  ],
  'card-issuing': [
    ['registerUser/createUser'],
    ['listConfigs', /KYC NOT_STARTED/],
    ['verifyEmail/readEmail', /code e-mailed to/],
    ['verifyEmail', /e-mail verified/],
    ['kyc/providerResult', /KYC PASSED/],
    ['kyc'],
    ['signCardConsents'],
    ['createCard', /^draft /],
    ['topUp/depositAddress/createAddress'],
    ['topUp/incomingDeposit', /CREDITED/],
    ['topUp', /topped up/],
    ['chargeDraft', /CHARGED/],
    ['completeDraft', /ORDERED/],
    ['waitForOrder/advanceClock', /AWAITING_ACTIVATION/],
    ['waitForOrder'],
    ['activateCard', /ACTIVE/],
    ['listCards', /PHYSICAL .* ACTIVE/],
  ],
  'card-details': [
    ['issueCard/createCard', /ACTIVE/],
    ['generateCardKeyPair', /RSA 2048 bits/],
    ['getCardDetails', /•••• \d{4}, expires/],
    ['getCardDetails/newKeyPair'],
  ],
  's2s-deposit': [
    ['listTypes'],
    ['signDepositConsents'],
    ['listAddresses', /^0 addresses/],
    ['createAddress', /on POLYGON/],
    ['incomingDeposit', /PENDING_APPROVAL/],
    ['listVerifications'],
    ['approveVerification', /CREDITED/],
    ['listBalances', /credited 230\.00 EUR/],
  ],
  'wallet-app-deposit': [
    ['listTypes'],
    ['createAddress'],
    ['again/createAddress', /exists/],
    ['incomingDeposit', /PENDING_APPROVAL/],
    ['approveVerification', /CREDITED/],
    ['listBalances', /credited/],
  ],
  'business-lifecycle': [
    ['listCorporateDepositAddresses'],
    ['incomingDeposit', /top-up/],
    ['listTopUps', /COMPLETED/],
    ['createBusinessUser', /PENDING/],
    ['createApproval', /ACCEPTED/],
    ['completeRegistration', /COMPLETED/],
    ['getApproval', /DELIVERED/],
    ['getApprovalCardDetails'],
    ['increaseApprovalBudget', /DELIVERED, budget 750\.00 EUR/],
    ['getApproval/previous', /REAPPROVED/],
    ['authorize', /APPROVED/],
    ['authorize/overBudget', /DECLINED BUDGET_EXCEEDED/],
    ['getApproval/spent', /spent 120\.00 EUR, remaining 630\.00 EUR/],
    ['requestChange', /CREATED: \+250\.00 EUR, new PIN/],
    ['acceptChange', /DELIVERED, budget 1000\.00 EUR, spent 120\.00 EUR/],
    ['getApproval/replaced', /REAPPROVED \(REPLACED\)/],
    ['createApproval/nextWeek'],
    ['getApproval/nextWeek', /PREPARED/],
    ['cancelApproval', /CANCELED/],
    ['advanceClock'],
    ['getApproval/accepted', /FINISHED/],
    ['listUserApprovals', /REAPPROVED, .* REAPPROVED, .* FINISHED, .* CANCELED/],
    ['listUserApprovals/pages', /2 pages of at most 3: \[REAPPROVED, REAPPROVED, FINISHED\] \[CANCELED\]/],
  ],
};

let server: MockServer | PatchedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('npm run demo', () => {
  it('runs every flow against the in-process mock, printing each step as it goes, and exits 0 with 32 of 32 operations validated', async () => {
    const { code, output } = await demo();
    expect(code, output).toBe(0);
    expect(output).toContain('against the in-process mock');
    const printed = steps(output);
    expect(printed.filter((line) => line.status === 'failed')).toEqual([]);
    for (const [flow, expected] of Object.entries(EXPECTED)) {
      const ofFlow = printed.filter((line) => line.flow === flow);
      let from = 0;
      for (const [step, result] of expected) {
        const index = ofFlow.findIndex((line, i) => i >= from && line.step === step);
        expect(index, `${flow}: no progress line for ${step} (after line ${from})\n${output}`).toBeGreaterThanOrEqual(
          0,
        );
        if (result) expect(ofFlow[index]!.detail, `${flow} ${step}`).toMatch(result);
        from = index + 1;
      }
    }
    expect(output).toMatch(/32 of 32 operations validated, 0 mismatches\./);
    expect(output).toMatch(/All 6 flows passed/);
  });

  it('stops at the first failure with exit 1 and a readable line: flow, step, typed error code; no stack trace, no secret', async () => {
    server = await startMockServer({ port: 0 });
    const secret = 'not-the-secret-9f3a1c';
    const { code, output } = await demo(['--base-url', server.url, '--api-key', 'test_key', '--api-secret', secret]);
    expect(code, output).toBe(1);
    // The first signed request is the control API's (its tenant is named by a signature, contract section 7).
    expect(output).toMatch(
      /^FAILED {2}before the flows: ControlError AUTH_SIGNATURE_MISMATCH, HTTP 401: GET \/__mock\/fixtures/m,
    );
    expect(steps(output)).toEqual([]); // nothing ran after the failure
    expect(output).not.toContain(secret);
    expect(output).not.toContain('HMAC-SHA256');
    expect(output).not.toMatch(/^\s+at \S+/m);
  });

  it('fails, naming operation and path, when a response breaks the spec in a way the SDK lets through (no X-Request-Id)', async () => {
    server = await startPatchedMock((mock) => [
      http.get('*/s2s/users/:userId', async ({ request }) => {
        const response = await getResponse(mock.handlers, request);
        if (!response) return undefined;
        const headers = new Headers(response.headers);
        headers.delete('x-request-id');
        return new Response(await response.text(), { status: response.status, headers });
      }),
    ]);
    const { code, output } = await demo(['--base-url', server.url, '--only', 'registration']);
    expect(code, output).toBe(1);
    expect(output).toMatch(/^FAILED {2}registration: \d+ exchange\(s\) do not match spec\/openapi\.yaml$/m);
    expect(output).toMatch(
      /getUser GET \/s2s\/users\/\{userId\} \[\/s2s\/users\/[0-9a-f-]{36}\] response\.headers\.x-request-id: is required/,
    );
  });

  it('refuses a server without the mock control API, saying what it needs', async () => {
    server = await startPatchedMock(() => [http.all('*/__mock/*', () => new Response('Not here', { status: 404 }))]);
    const { code, output } = await demo(['--base-url', server.url]);
    expect(code, output).toBe(1);
    expect(output).toContain(`${server.url} has no mock control API (GET /__mock/fixtures)`);
  });
});
