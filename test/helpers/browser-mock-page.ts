/**
 * A Vite dev server for a fixture page that starts the browser mock (msw's worker script served at
 * /mockServiceWorker.js, the packages resolved to their sources), and Debian's Chromium to open it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { expect } from 'vitest';
import { launchChromium } from './chromium';
import { repoPath } from './spec';

/**
 * Serves test/browser/fixtures/`fixture` and launches the browser; `open()` is a new page of it once done (its
 * data-error and uncaught errors none); `close()` stops both.
 */
export async function browserMockPage(
  fixture: string,
): Promise<{ vite: ViteDevServer; browser: Browser; url: string; open(): Promise<Page>; close(): Promise<void> }> {
  const workerScript = () => readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
  const vite = await createServer({
    configFile: false,
    root: repoPath(`test/browser/fixtures/${fixture}`),
    resolve: { tsconfigPaths: true },
    server: { host: '127.0.0.1', port: 0, fs: { allow: [repoPath('.')] } },
    logLevel: 'warn',
    clearScreen: false,
    plugins: [
      {
        name: 'msw-worker-script',
        configureServer(server) {
          server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
            res.setHeader('content-type', 'text/javascript');
            res.end(workerScript());
          });
        },
      },
    ],
  });
  await vite.listen();
  const browser = await launchChromium();
  const url = vite.resolvedUrls!.local[0]!;
  return {
    vite,
    browser,
    url,
    async open() {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.locator('body[data-state="done"], body[data-state="error"]').waitFor({ timeout: 60_000 });
      expect(await page.locator('body').getAttribute('data-error')).toBeNull();
      expect(errors).toEqual([]);
      return page;
    },
    async close() {
      await browser.close();
      await vite.close();
    },
  };
}
