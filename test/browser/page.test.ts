import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

// The front-end example (examples/browser) served by Vite's dev server on a free localhost port and driven in
// Debian's Chromium through playwright-core: the SDK in the page, the mock in a service worker.

/** Debian's Chromium, or the one CHROME_PATH names (scripts/ensure-chromium.sh installs it). */
function chromePath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`No Chromium at ${candidates.join(' or ')}: run scripts/ensure-chromium.sh or set CHROME_PATH`);
  return found;
}

let server: ViteDevServer;
let context: BrowserContext;
let userDataDir: string;
let baseUrl: string;
const consoleLines: string[] = [];

beforeAll(async () => {
  server = await createServer({
    configFile: repoPath('examples/browser/vite.config.ts'),
    server: { port: 0, strictPort: false, host: '127.0.0.1' },
    clearScreen: false,
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('Vite did not report a local URL');
  baseUrl = url;

  userDataDir = mkdtempSync(join(tmpdir(), 'card-issuing-chromium-'));
  // Flags from the machine notes: without the background-networking ones Chromium keeps dialling Google's hosts,
  // which a closed network refuses. --no-sandbox because CI runs as root. A fresh profile each run (Playwright
  // takes it as the persistent context's directory rather than as --user-data-dir).
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    viewport: { width: 900, height: 1000 },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function openPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
  await page.goto(baseUrl);
  return page;
}

describe('the browser example (examples/browser)', () => {
  it('is served by Vite, with msw`s worker script beside it', async () => {
    const page = await openPage();
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe('Corporate card, in the browser');
      const worker = await page.request.get(new URL('/mockServiceWorker.js', baseUrl).href);
      expect(worker.status()).toBe(200);
      expect(await worker.text()).toContain('addEventListener');
      mkdirSync(repoPath('test-results'), { recursive: true });
      await page.screenshot({ path: repoPath('test-results/browser-page.png'), fullPage: true });
      expect(existsSync(repoPath('test-results/browser-page.png'))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
