import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

// The browser mock as a front-end app meets it, in Vite's dev server and Debian's Chromium: the snippet of
// docs/mock.md as written, quiet in the console.

const root = repoPath('test/browser/fixtures/front-end');

/** msw's worker script at /mockServiceWorker.js, and the docs block as the page's `./api` module. */
function frontEndPlugin(): Plugin {
  const apiModule = `${root}/api.ts`;
  return {
    name: 'front-end-fixture',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8'));
      });
    },
    resolveId(source, importer) {
      if (source === './api' && importer?.startsWith(root)) return apiModule;
      return null;
    },
    load(id) {
      if (id === apiModule) return codeBlockOf(repoPath('docs/mock.md'), 'In the browser');
      return null;
    },
  };
}

let vite: ViteDevServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  vite = await createServer({
    configFile: false,
    root,
    resolve: { tsconfigPaths: true },
    // The scan cannot follow `./api` (the plugin serves it); the pages load msw's ES modules as they are.
    optimizeDeps: { noDiscovery: true },
    server: { host: '127.0.0.1', port: 0 },
    logLevel: 'warn',
    clearScreen: false,
    plugins: [frontEndPlugin()],
  });
  await vite.listen();
  base = vite.resolvedUrls!.local[0]!;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
});

/** Opens `path` and waits until its script says done (or failed); returns the console lines it printed. */
async function open(page: Page, path: string): Promise<string[]> {
  const lines: string[] = [];
  page.on('console', (m: ConsoleMessage) => lines.push(m.text()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(path, base).href);
  await page.locator('body[data-state="done"], body[data-state="error"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('body').getAttribute('data-error')).toBeNull();
  expect(errors).toEqual([]);
  return lines;
}

describe('the browser snippet of docs/mock.md', () => {
  it('runs as written: the client it exports creates a user through the service worker, and the console stays quiet', async () => {
    const page = await browser.newPage();
    const served: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith('https://api.example.test/') && r.fromServiceWorker()) served.push(r.url());
    });
    const console = await open(page, 'docs.html');
    await expect(page.locator('#result').textContent()).resolves.toMatch(/^[0-9a-f-]{36} [A-Z_]+$/);
    expect(served).toEqual(['https://api.example.test/s2s/users']);
    // msw prints "[MSW] Mocking enabled." and a group per request unless told to be quiet.
    expect(console.filter((line) => line.includes('[MSW]'))).toEqual([]);
    await page.close();
  });
});
