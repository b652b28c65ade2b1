/**
 * The API reference at `/__mock/docs` of the standalone server, in Debian's Chromium: the landing page links both
 * references; the HTTP reference (Redocly, from the spec) renders the spec's operations; the SDK reference (TypeDoc)
 * renders the client's page from its TSDoc; and no page gets anything from outside the mock (no CDN, no fonts). Builds the reference first (`npm run docs`) when docs/api/ has none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { launchChromium } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';

const DOCS = repoPath('docs/api');
let server: MockServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(`${DOCS}/http/index.html`) || !existsSync(`${DOCS}/sdk/index.html`)) {
    execFileSync('npm', ['run', '-s', 'docs'], { cwd: repoPath('.'), stdio: 'inherit' });
  }
  server = await startMockServer({ port: 0, docsDir: DOCS });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records every request it makes outside the mock and every console error (CSP refusals are). */
async function open(path: string): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status()).toBe(200);
  return { page, foreign, errors };
}

describe('/__mock/docs in Chromium', () => {
  it('the landing page links the HTTP and the SDK reference', async () => {
    const { page, foreign, errors } = await open('/__mock/docs');
    await expect(page.locator('a', { hasText: 'HTTP API' }).getAttribute('href')).resolves.toBe(
      '/__mock/docs/http/index.html',
    );
    await expect(page.locator('a', { hasText: 'SDK' }).first().getAttribute('href')).resolves.toBe(
      '/__mock/docs/sdk/index.html',
    );
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the HTTP reference renders the spec: its areas and operations, offline and within its CSP', async () => {
    const { page, foreign, errors } = await open('/__mock/docs/http/index.html');
    await page
      .getByText('Card Issuing, Deposits and Corporate Cards API')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    for (const area of ['Server2Server', 'Wallet App', 'Business cards'])
      await expect(page.getByText(area).first().isVisible()).resolves.toBe(true);
    // Every operation's path is in the page (Redoc lists them in the right-hand panel).
    const html = await page.content();
    expect(html).toContain('/corporates/{corporateUuid}/approvals/{approvalUuid}/increase-budget');
    expect(html).toContain('/s2s/users/{userId}/consents/{consentId}/sign');
    // Redoc's "API docs by" footer asks for its logo from Redocly's CDN; the page's CSP refuses it (the logo is then
    // left out), and nothing else leaves the mock.
    const redocLogo = /^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/;
    expect(foreign.filter((url) => !redocLogo.test(url))).toEqual([]);
    expect(
      errors.filter((e) => /Content Security Policy/.test(e) && !/cdn\.redoc\.ly\/redoc\/logo-mini/.test(e)),
    ).toEqual([]);
    expect(errors.filter((e) => !/Content Security Policy|Failed to load resource/.test(e))).toEqual([]);
    await page.close();
  });

  it('the SDK reference renders createCardIssuingClient from its TSDoc', async () => {
    const { page, foreign, errors } = await open('/__mock/docs/sdk/index.html');
    await page.locator('a', { hasText: 'createCardIssuingClient' }).first().click();
    await page.waitForURL(/createCardIssuingClient/);
    await expect(page.locator('h1').first().textContent()).resolves.toMatch(/createCardIssuingClient/);
    expect(await page.locator('body').textContent()).toMatch(/signs every request|HMAC|retries/i);
    expect(foreign).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await page.close();
  });
});
