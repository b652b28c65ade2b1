import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyInspectorPage } from '../../mock-server/src/node/init';
import { launchChromium } from '../helpers/chromium';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

// The browser mock as a front-end app meets it, in Vite's dev server and Debian's Chromium: the snippet of
// docs/mock.md as written, quiet in the console; with `persist` a user and the virtual clock survive a reload and
// `init` runs only on a fresh store; with `sync` a second tab shows a change made in the first within a second;
// `reset()` clears the saved state and the other tabs.

const root = repoPath('test/browser/fixtures/front-end');

/** The docs blocks the pages import, by the stand-in module each replaces (as an app's own src/ file). */
const DOCS_BLOCKS: Record<string, string> = {
  [`${root}/api.ts`]: 'In the browser',
  [`${root}/mock.ts`]: 'Across reloads and tabs',
};

/** msw's worker script at /mockServiceWorker.js, and the docs blocks in place of their stand-ins. */
function frontEndPlugin(): Plugin {
  return {
    name: 'front-end-fixture',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8'));
      });
    },
    load(id) {
      const section = DOCS_BLOCKS[id];
      return section === undefined ? null : codeBlockOf(repoPath('docs/mock.md'), section);
    },
  };
}

let vite: ViteDevServer;
let browser: Browser;
let base: string;
/** The app's public folder: the inspector page as `npx card-issuing-mock init public --inspector` writes it. */
const publicDir = mkdtempSync(join(tmpdir(), 'card-issuing-front-end-public-'));

beforeAll(async () => {
  await copyInspectorPage(publicDir);
  vite = await createServer({
    configFile: false,
    root,
    publicDir,
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
  rmSync(publicDir, { recursive: true, force: true });
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

/** What the persist page (fixtures/front-end/persist.ts) puts on `window.app`. */
interface PersistApp {
  client: import('card-issuing-sdk').CardIssuingClient;
  started: import('card-issuing-mock/browser').BrowserMock;
  registration(
    firstName: string,
  ): Parameters<import('card-issuing-sdk').CardIssuingClient['s2s']['users']['create']>[0];
}
declare const app: PersistApp;

/** The page's list of users, as it shows them. */
const users = (page: Page) => page.locator('#users li').allTextContents();

describe('startBrowserMock({ persist: true, sync: true })', () => {
  it('keeps a user and the virtual clock across a reload, runs init only on a fresh store, shows a change in a second tab within a second, and reset() clears both', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await open(first, 'persist.html');
    await expect(users(first)).resolves.toEqual(['Seeded NOT_STARTED']);
    const { id, clock } = await first.evaluate(async () => {
      const user = await app.client.s2s.users.create(app.registration('Ada'));
      app.started.mock.clock.advance(2 * 86_400);
      return { id: user.id, clock: app.started.mock.clock.now().toISOString() };
    });
    await first.locator('#users li', { hasText: 'Ada' }).waitFor();

    // A reload: the same users (init did not make a second Seeded), the user readable through the API, the clock on.
    await first.reload();
    await first.locator('body[data-state="done"]').waitFor();
    await expect(users(first)).resolves.toEqual(['Seeded NOT_STARTED', 'Ada NOT_STARTED']);
    await expect(
      first.evaluate((userId) => app.client.s2s.users.get(userId).then((u) => u.firstName), id),
    ).resolves.toBe('Ada');
    const after = Date.parse((await first.locator('body').getAttribute('data-clock'))!);
    expect(after).toBeGreaterThanOrEqual(Date.parse(clock));

    // A second tab starts from the saved state; a change in the first shows there (awaited, at most one second).
    const second = await context.newPage();
    await open(second, 'persist.html');
    await expect(users(second)).resolves.toEqual(['Seeded NOT_STARTED', 'Ada NOT_STARTED']);
    await first.evaluate((userId) => app.started.mock.kyc(userId, 'PASSED'), id);
    await second.locator('#users li', { hasText: 'Ada PASSED' }).waitFor({ timeout: 1_000 });
    await second.evaluate(() => app.client.s2s.users.create(app.registration('Grace')));
    await first.locator('#users li', { hasText: 'Grace' }).waitFor({ timeout: 1_000 });

    // reset(): both tabs back to the seeded state with init's user, and so is the next load.
    await first.evaluate(() => app.started.reset());
    await expect(users(first)).resolves.toEqual(['Seeded NOT_STARTED']);
    await second.waitForFunction(() => document.querySelectorAll('#users li').length === 1, undefined, {
      timeout: 1_000,
    });
    await expect(users(second)).resolves.toEqual(['Seeded NOT_STARTED']);
    await second.reload();
    await second.locator('body[data-state="done"]').waitFor();
    await expect(users(second)).resolves.toEqual(['Seeded NOT_STARTED']);
    await context.close();
  });
});

describe('startBrowserMock({ sync: true }) without persist', () => {
  it("a tab opened later takes the open tab's state before it answers, without running init", async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await open(first, 'persist.html?persist=0');
    await first.evaluate(() => app.client.s2s.users.create(app.registration('Ada')));
    await first.locator('#users li', { hasText: 'Ada' }).waitFor();
    const second = await context.newPage();
    await open(second, 'persist.html?persist=0');
    await expect(users(second)).resolves.toEqual(['Seeded NOT_STARTED', 'Ada NOT_STARTED']);
    await expect(users(first)).resolves.toEqual(['Seeded NOT_STARTED', 'Ada NOT_STARTED']);
    // And from then on they are in step both ways.
    await second.evaluate(() => app.client.s2s.users.create(app.registration('Grace')));
    await first.locator('#users li', { hasText: 'Grace' }).waitFor({ timeout: 1_000 });
    await context.close();
  });
});

describe('the persist snippet of docs/mock.md', () => {
  it('runs as written: init on a fresh store only, the clock kept across a reload, "start over" back to init', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    /** How far the mock's virtual clock is ahead of the wall clock, in whole hours. */
    const ahead = () =>
      page.evaluate(() => {
        const { mock } = (window as unknown as { browserMock: import('card-issuing-mock/browser').BrowserMock })
          .browserMock;
        return Math.round((mock.clock.now().getTime() - Date.now()) / 3_600_000);
      });
    await open(page, 'persist-docs.html');
    await expect(ahead()).resolves.toBe(1); // init's hour
    await page.evaluate(() =>
      (
        window as unknown as { browserMock: import('card-issuing-mock/browser').BrowserMock }
      ).browserMock.mock.clock.advance(24 * 3600),
    );
    await page.reload();
    await page.locator('body[data-state="done"]').waitFor();
    await expect(ahead()).resolves.toBe(25); // kept, and init did not add another hour
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.waitForFunction(
      () =>
        Math.round(
          ((
            window as unknown as { browserMock: import('card-issuing-mock/browser').BrowserMock }
          ).browserMock.mock.clock
            .now()
            .getTime() -
            Date.now()) /
            3_600_000,
        ) === 1,
    );
    await context.close();
  });
});

describe('startBrowserMock({ inspector: true })', () => {
  it("opens the inspector over the app: the page's own mock seen and steered without a server", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await open(page, 'inspector.html');
    const userId = await page.evaluate(() => {
      const w = window as unknown as { browserMock: import('card-issuing-mock/browser').BrowserMock; userId: string };
      w.browserMock.openInspector();
      return w.userId;
    });
    const panel = page.getByRole('region', { name: 'Mock inspector' });
    const inspector = page.frameLocator('iframe[title="Mock inspector"]');
    await inspector.locator('[data-live="live"]').waitFor({ timeout: 30_000 });
    await inspector.getByRole('tab', { name: /^Server2Server/ }).click();
    await inspector.locator(`[data-user="${userId}"]`).waitFor();
    await inspector.getByRole('button', { name: 'KYC passed for Ada Lovelace' }).click();
    await inspector.locator(`[data-user="${userId}"] [data-status="PASSED"]`).waitFor();
    // The change is the page's own mock's: the app reads it back through the API.
    await expect(
      page.evaluate(() => {
        const w = window as unknown as { browserMock: import('card-issuing-mock/browser').BrowserMock; userId: string };
        return w.browserMock.mock.snapshot().users[w.userId]?.kycStatus;
      }),
    ).resolves.toBe('PASSED');
    await page.screenshot({ path: repoPath('test-results/browser-mock-inspector-1280x800.png') });
    await panel.getByRole('button', { name: 'Close mock inspector' }).click();
    await panel.waitFor({ state: 'detached' });
    await page.close();
  });
});
