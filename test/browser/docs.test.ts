/**
 * The API reference at `/__mock/docs` of the standalone server, in Debian's Chromium: the landing page links both
 * references; the HTTP reference (Redocly, from the spec) renders the spec's operations, and asks nothing of any
 * other host, served by the mock or by a plain server with no CSP; the package reference (TypeDoc) has every entry
 * point of the packages and both CLIs' pages. Builds the reference first (`npm run docs`) when docs/api/ has none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { launchChromium } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';
import sdkPackage from '../../sdk/package.json' with { type: 'json' };
import mockPackage from '../../mock-server/package.json' with { type: 'json' };

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
async function open(path: string): Promise<{ page: Page; foreign: string[]; errors: string[]; missing: string[] }> {
  const page = await browser.newPage();
  const foreign: string[] = [];
  const errors: string[] = [];
  const missing: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (answer) => {
    if (answer.status() >= 400) missing.push(answer.url());
  });
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status()).toBe(200);
  return { page, foreign, errors, missing };
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
    const { page, foreign, errors, missing } = await open('/__mock/docs/http/index.html');
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
    // npm run docs inlines Redoc's logo (scripts/docs-reference.mjs): nothing leaves the mock, nothing is refused
    // (Chromium's own favicon request is the only miss).
    expect(foreign).toEqual([]);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    expect(missing.filter((url) => !url.endsWith('/favicon.ico'))).toEqual([]);
    await page.close();
  });

  it('the HTTP reference hosted anywhere (no CSP to stop it) asks nothing of any other host', async () => {
    const html = readFileSync(`${DOCS}/http/index.html`);
    const plain = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(html);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!/^(data|blob):/.test(request.url()) && !request.url().startsWith(origin)) foreign.push(request.url());
    });
    await page.goto(`${origin}/`);
    await page.getByText('Card Issuing, Deposits and Corporate Cards API').first().waitFor({ state: 'visible' });
    await page.getByText('Business cards').first().click();
    await page.waitForLoadState('networkidle');
    expect(foreign).toEqual([]);
    await page.close();
    await new Promise((resolve) => plain.close(resolve));
  });

  it('the package reference has every entry point of the three packages and both CLIs', async () => {
    const { page, foreign, errors } = await open('/__mock/docs/sdk/index.html');
    const body = (await page.locator('body').textContent()) ?? '';
    const entries = [
      ...Object.keys(sdkPackage.exports).map((key) => key.replace(/^\./, 'card-issuing-sdk')),
      ...Object.keys(mockPackage.exports).map((key) => key.replace(/^\./, 'card-issuing-mock')),
    ].filter((entry) => !/\.(json|html)$/.test(entry));
    for (const entry of entries) expect(body.replace(/\s+/g, '')).toContain(entry);
    for (const cli of ['card-issuing-mock CLI', 'card-issuing-contract CLI']) {
      await page.locator('a', { hasText: cli }).first().click();
      await expect(page.locator('pre').first().textContent()).resolves.toMatch(/Usage:/);
      await page.goBack();
    }
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the SDK reference renders createCardIssuingClient from its TSDoc', async () => {
    const { page, foreign, errors } = await open('/__mock/docs/sdk/modules/card-issuing-sdk.html');
    await page.locator('a', { hasText: 'createCardIssuingClient' }).first().click();
    await page.waitForURL(/createCardIssuingClient/);
    await expect(page.locator('h1').first().textContent()).resolves.toMatch(/createCardIssuingClient/);
    expect(await page.locator('body').textContent()).toMatch(/signs every request|HMAC|retries/i);
    expect(foreign).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await page.close();
  });
});
