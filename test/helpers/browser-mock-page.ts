/**
 * A Vite dev server for a fixture page that starts the browser mock (msw's worker script served at
 * /mockServiceWorker.js, the packages resolved to their sources), and Debian's Chromium to open it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { chromePath } from './chromium';
import { repoPath } from './spec';

/** Serves test/browser/fixtures/`fixture` and launches the browser; `close()` stops both. */
export async function browserMockPage(
  fixture: string,
): Promise<{ vite: ViteDevServer; browser: Browser; url: string; close(): Promise<void> }> {
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
  const browser = await chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    vite,
    browser,
    url: vite.resolvedUrls!.local[0]!,
    async close() {
      await browser.close();
      await vite.close();
    },
  };
}
