import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build, createServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceChecker, type ConformanceChecker, type Exchange } from 'card-issuing-contract/conformance';
import { CHROMIUM_ARGS, chromePath } from '../helpers/chromium';
import { luhnValid } from '../helpers/luhn';
import { repoPath } from '../helpers/spec';

// The front-end example (examples/browser), served by Vite on a free localhost port (the dev server, then the
// production build), driven in Debian's Chromium through playwright-core: the SDK in the page, the mock in a service
// worker, every API exchange checked against the spec by the independent conformance checker.

/** Where the screenshot of the page with the card details is left (test-results/ is ignored by git). */
const screenshotPath = repoPath('test-results/browser-card-details.png');

/** A running site: its base URL and how to stop it. */
interface Site {
  url: string;
  close(): Promise<void>;
}

const configFile = repoPath('examples/browser/vite.config.ts');
const server = { port: 0, strictPort: false, host: '127.0.0.1' };

/** Vite's dev server, as a developer runs the example (`npx vite examples/browser`). */
async function startDevServer(): Promise<Site> {
  const dev = await createServer({ configFile, server, clearScreen: false });
  await dev.listen();
  const url = dev.resolvedUrls?.local[0];
  if (!url) throw new Error('Vite did not report a local URL');
  return { url, close: () => dev.close() };
}

/** The production build (`vite build`) served by `vite preview`: the bundle an app would ship. */
async function startProductionBuild(): Promise<Site> {
  const outDir = repoPath('.tmp/browser-example-dist');
  await build({ configFile, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  const site = await preview({ configFile, build: { outDir }, preview: server });
  const url = site.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  return { url, close: () => site.close() };
}

let context: BrowserContext;
let userDataDir: string;
const consoleLines: string[] = [];

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'card-issuing-chromium-'));
  // Flags from the machine notes: without the background-networking ones Chromium keeps dialling Google's hosts,
  // which a closed network refuses. --no-sandbox because CI runs as root. A fresh profile each run (Playwright
  // takes it as the persistent context's directory rather than as --user-data-dir).
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    viewport: { width: 900, height: 1000 },
    headless: true,
    args: ['--headless', ...CHROMIUM_ARGS],
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/**
 * The API exchanges the page made, as the browser saw them. Chromium does not report the body of a request whose body
 * is a stream (ky sends those), so an init script keeps each request body in the page, keyed by its Authorization
 * header (unique: a fresh nonce per request); the page's own code is untouched.
 */
interface Observed {
  /** Checks every exchange seen against the spec with the independent checker. */
  check(checker: ConformanceChecker): Promise<void>;
  /** `METHOD /path` of the API requests the service worker answered, in order. */
  fromServiceWorker: string[];
}

const RECORD_REQUEST_BODIES = `
  (() => {
    const original = window.fetch;
    const bodies = (window.__requestBodies = {});
    window.fetch = async function (input, init) {
      const request = new Request(input, init);
      if (request.body) bodies[request.headers.get('authorization') || request.url] = await request.clone().text();
      return original.call(this, request);
    };
  })();
`;

async function observe(page: Page): Promise<Observed> {
  await page.addInitScript(RECORD_REQUEST_BODIES);
  const seen: Promise<Exchange>[] = [];
  const fromServiceWorker: string[] = [];
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    if (!/^\/(s2s|app|corporates)\//.test(path)) return;
    seen.push(
      (async () => {
        const response = await request.response();
        if (!response) throw new Error(`${request.method()} ${path} finished without a response`);
        if (response.fromServiceWorker()) fromServiceWorker.push(`${request.method()} ${path}`);
        return {
          method: request.method(),
          url: request.url(),
          requestHeaders: await request.allHeaders(),
          status: response.status(),
          responseHeaders: await response.allHeaders(),
          responseBody: (await response.body()).toString('utf8'),
        };
      })(),
    );
  });
  return {
    fromServiceWorker,
    async check(checker) {
      const exchanges = await Promise.all(seen);
      const bodies = await page.evaluate(
        () => (window as unknown as { __requestBodies: Record<string, string> }).__requestBodies,
      );
      for (const exchange of exchanges) {
        const headers = exchange.requestHeaders as Record<string, string>;
        checker.check({ ...exchange, requestBody: bodies[headers.authorization ?? exchange.url] });
      }
    },
  };
}

async function openPage(page: Page, url: string): Promise<Page> {
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
  await page.goto(url);
  return page;
}

describe.each([
  { served: 'Vite`s dev server', start: startDevServer, screenshot: screenshotPath },
  {
    served: 'the production build',
    start: startProductionBuild,
    screenshot: repoPath('test-results/browser-card-details-build.png'),
  },
])('the browser example (examples/browser) from $served', ({ start, screenshot }) => {
  let site: Site;
  beforeAll(async () => {
    site = await start();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('is served, with msw`s worker script beside it', async () => {
    const page = await openPage(await context.newPage(), site.url);
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe('Corporate card, in the browser');
      const worker = await page.request.get(new URL('/mockServiceWorker.js', site.url).href);
      expect(worker.status()).toBe(200);
      expect(await worker.text()).toContain('addEventListener');
    } finally {
      await page.close();
    }
  });

  it('creates a business user and an approval, shows it DELIVERED and the decrypted card details', async () => {
    const page = await context.newPage();
    const observed = await observe(page);
    try {
      await openPage(page, site.url);
      // The service worker is registered and the mock started before the button is enabled.
      await page.locator('body[data-state="ready"], body[data-state="error"]').waitFor({ timeout: 30_000 });
      const started = await page.locator('body').getAttribute('data-state');
      expect(started, `${await page.locator('#error').textContent()}\n${consoleLines.join('\n')}`).toBe('ready');
      await page.locator('#run').click();
      await page.locator('body[data-state="done"], body[data-state="error"]').waitFor({ timeout: 60_000 });
      const state = await page.locator('body').getAttribute('data-state');
      expect(state, `${await page.locator('#error').textContent()}\n${consoleLines.join('\n')}`).toBe('done');

      await expect(page.locator('#approval-status').textContent()).resolves.toBe('DELIVERED');
      const pan = ((await page.locator('#pan').textContent()) ?? '').replace(/\s/g, '');
      expect(pan).toMatch(/^\d{16}$/);
      expect(luhnValid(pan), `PAN ${pan} passes the Luhn check`).toBe(true);
      const expiry = (await page.locator('#expiry').textContent()) ?? '';
      expect(expiry).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
      await expect(page.locator('#cvv').textContent()).resolves.toMatch(/^\d{3,4}$/);
      await expect(page.locator('#cardholder').textContent()).resolves.toMatch(/GRACE HOPPER/i);
      const steps = await page.locator('#steps li').allTextContents();
      expect(steps).toHaveLength(7);
      expect(steps.some((s) => /failed/.test(s))).toBe(false);

      // Every API call was answered by the mock in the service worker, and each conforms to the spec.
      const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml'), strictRequests: true });
      await observed.check(checker);
      expect(checker.checked()).toBe(4);
      expect(observed.fromServiceWorker).toEqual([
        'POST /corporates/users',
        expect.stringMatching(/^POST \/corporates\/corporates\/[0-9a-f-]{36}\/approvals$/),
        expect.stringMatching(/^GET \/corporates\/[0-9a-f-]{36}\/approvals\/[0-9a-f-]{36}$/),
        expect.stringMatching(/^GET \/corporates\/[0-9a-f-]{36}\/approvals\/[0-9a-f-]{36}\/details$/),
      ]);
      expect(checker.findings(), checker.report()).toEqual([]);
      expect(checker.coverage().operations).toEqual([
        'createApproval',
        'createBusinessUser',
        'getApproval',
        'getApprovalCardDetails',
      ]);

      mkdirSync(repoPath('test-results'), { recursive: true });
      rmSync(screenshot, { force: true });
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(existsSync(screenshot)).toBe(true);
    } finally {
      await page.close();
    }
  });
});
