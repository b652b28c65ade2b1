/**
 * A scenario picked in the inspector page (`/__mock/ui`) of the standalone server, in Debian's Chromium: the file
 * chosen with the page's own file input is applied to the tenant (an approval in every status shows on the Business
 * tab, as the API answers them), and a wrong file is refused with every error's path in the page's notice, nothing
 * applied. Saves test-results/inspector-scenario.png.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { chromePath } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';

let server: MockServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(repoPath('test-results'), { recursive: true });
  server = await startMockServer({ port: 0, seed: 'inspector-scenario' });
  browser = await chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${server.url}/__mock/ui`);
  await page.locator('[data-live="live"]').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Picks `file` with the page's scenario input and returns the notice the page then shows. */
async function pick(file: string): Promise<string> {
  const before = await page.locator('.notice[role="status"]').textContent();
  await page.locator('input[aria-label="Scenario file to load"]').setInputFiles(file);
  await page.waitForFunction((prev) => {
    const text = document.querySelector('.notice[role="status"]')?.textContent ?? '';
    return text !== '' && text !== prev;
  }, before);
  return (await page.locator('.notice[role="status"]').textContent()) ?? '';
}

describe('the inspector loads a scenario', () => {
  it('applies a picked file: every approval status on the page, as the API reads them', async () => {
    await expect(page.getByRole('button', { name: 'Load scenario…' }).isVisible()).resolves.toBe(true);
    const notice = await pick(repoPath('examples/scenarios/corporate-approvals.json'));
    expect(notice).toBe('Loaded corporate-approvals.json: 11 builder(s) applied');
    const client = createCardIssuingClient({ baseUrl: server.url, apiKey: 'test_key', apiSecret: 'test_secret' });
    const approvals = Object.values(server.mock.snapshot().approvals);
    for (const status of [
      'ACCEPTED',
      'PREPARED',
      'DELIVERED',
      'FINISHED',
      'CANCELED',
      'CREATED',
      'REJECTED',
      'EXPIRED',
      'REAPPROVED',
    ]) {
      const one = approvals.find((a) => a.status === status)!;
      await page
        .locator(`[data-approval="${one.approvalUuid}"][data-status="${status}"]`)
        .first()
        .waitFor({ state: 'visible' });
      expect((await client.corporates.approvals.get(one.corporateUuid, one.approvalUuid)).status).toBe(status);
    }
    await page.screenshot({ path: repoPath('test-results/inspector-scenario.png'), fullPage: true });
  });

  it('refuses a wrong file whole: each error with its path in the notice, nothing applied', async () => {
    const before = JSON.stringify(server.mock.snapshot());
    const file = join(mkdtempSync(join(tmpdir(), 'cim-page-')), 'wrong.json');
    writeFileSync(
      file,
      JSON.stringify({
        given: [
          { kind: 'businessUser', as: 'x' },
          { kind: 'approval', status: 'DONE', user: 'y' },
        ],
      }),
    );
    const notice = await pick(file);
    expect(notice).toMatch(
      /^Scenario refused: 400 VALIDATION_FAILED: The scenario is refused, nothing applied: body\.given\.1\.status: .*body\.given\.1\.user: No earlier entry is named y/,
    );
    expect(JSON.stringify(server.mock.snapshot())).toBe(before);
  });
});
