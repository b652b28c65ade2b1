/**
 * The consumer matrix's front-end rows: the packed tarballs in fresh projects, as a front-end team meets them.
 *
 * | row | project | runs |
 * | --- | --- | --- |
 * | vite-persist | a Vite production build with `startBrowserMock({ persist, sync })` | Chromium: a user kept across a reload, a change in one tab shown in another within a second |
 * | playwright | @playwright/test with `card-issuing-mock/playwright`, a Vite app | docs/mock.md's spec, 4 times over in 4 workers, each test seeing only its own data; the backend-for-frontend fixture (a tenant per worker on the standalone server) |
 * | nextjs | Next.js (app router, current major) with docs/mock.md's recipe | `next build`, `next start`: a page with data from the server's mock and from the browser's |
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { chromePath } from '../helpers/chromium';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';
import { freePort, launchChromiumProfile, serveStatic } from './browser-support';
import { createProject, MockCommand, npmInstall, type Project } from './support';

const tarballs = inject('tarballs');
const DOCS = repoPath('docs/mock.md');

/** Writes a docs block into the project, as the reader would save it. */
function writeBlock(project: Project, to: string, heading: string, lang = 'ts'): void {
  mkdirSync(dirname(join(project.dir, to)), { recursive: true });
  writeFileSync(join(project.dir, to), codeBlockOf(DOCS, heading, lang));
}

/** Versions of the rows' own tools, from the registry (the current majors). */
const NEXT = { next: '^16.0.0', react: '^19.2.0', 'react-dom': '^19.2.0', '@types/react': '^19.2.0' } as const;
const PLAYWRIGHT_TEST = '^1.65.1';

describe.concurrent('consumer matrix: front-end rows', () => {
  it('a Vite build with persist and sync: a user kept across a reload, a change in a second tab within a second', async () => {
    const project = await createProject(tarballs, {
      name: 'vite-persist',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['vite'],
      // The page of the repository's browser test (test/browser/fixtures/front-end), here from the tarballs.
      files: {
        'index.html': '../../browser/fixtures/front-end/persist.html',
        'persist.ts': '../../browser/fixtures/front-end/persist.ts',
      },
    });
    await project.ok('npx', ['card-issuing-mock', 'init', 'public']);
    await project.ok('npx', ['vite', 'build']);
    const site = await serveStatic(join(project.dir, 'dist'));
    const chromium = await launchChromiumProfile();
    const { context } = chromium;
    try {
      const first = await context.newPage();
      const ready = async (page: typeof first) => {
        await page.locator('body[data-state="done"], body[data-state="error"]').waitFor({ timeout: 60_000 });
        expect(await page.locator('body').getAttribute('data-error')).toBeNull();
      };
      const users = (page: typeof first) => page.locator('#users li').allTextContents();
      await first.goto(site.url);
      await ready(first);
      const id = await first.evaluate(async () => {
        const { app } = window as unknown as {
          app: { client: import('card-issuing-sdk').CardIssuingClient; registration(name: string): never };
        };
        return (await app.client.s2s.users.create(app.registration('Ada'))).id;
      });
      await first.locator('#users li', { hasText: 'Ada' }).waitFor();
      await first.reload();
      await ready(first);
      await expect(users(first)).resolves.toEqual(['Seeded NOT_STARTED', 'Ada NOT_STARTED']);

      const second = await context.newPage();
      await second.goto(site.url);
      await ready(second);
      await first.evaluate((userId) => {
        const { app } = window as unknown as { app: { started: import('card-issuing-mock/browser').BrowserMock } };
        app.started.mock.kyc(userId, 'PASSED');
      }, id);
      // Awaited, not slept for: the second tab redraws when the change arrives, within the second it is given.
      await second.locator('#users li', { hasText: 'Ada PASSED' }).waitFor({ timeout: 1_000 });
    } finally {
      await chromium.close();
      await site.close();
    }
  });

  it("Playwright with card-issuing-mock/playwright: docs/mock.md's spec in 4 workers at once, each test with only its own data", async () => {
    const project = await createProject(tarballs, {
      name: 'playwright',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['vite'],
      files: {
        'index.html': 'playwright/index.html',
        'src/main.ts': 'playwright/src/main.ts',
        'playwright.config.ts': 'playwright/playwright.config.ts',
        'e2e/bff.spec.ts': 'playwright/e2e/bff.spec.ts',
      },
    });
    // Playwright's test runner from the registry: it downloads no browser (Debian's Chromium is given to it).
    await npmInstall(project.dir, [`@playwright/test@${PLAYWRIGHT_TEST}`], { dev: true });
    writeBlock(project, 'e2e/signup.spec.ts', 'Playwright');
    writeBlock(project, 'e2e/fixtures.ts', 'With a backend-for-frontend');
    await project.ok('npx', ['vite', 'build']);
    const mockPort = await freePort();
    const result = await project.run('npx', ['playwright', 'test'], {
      PORT: String(await freePort()),
      MOCK_PORT: String(mockPort),
      CARD_ISSUING_MOCK_URL: `http://127.0.0.1:${mockPort}`,
      CHROME_PATH: chromePath(),
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    });
    expect(result.code, result.output).toBe(0);
    const report = JSON.parse(readFileSync(join(project.dir, 'results.json'), 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
      suites: unknown;
    };
    // The docs' spec and the backend-for-frontend spec, four times each.
    expect(report.stats).toMatchObject({ expected: 8, unexpected: 0, flaky: 0, skipped: 0 });
    // They ran in four workers at once (Playwright numbers its workers by parallel index).
    const workers = new Set(JSON.stringify(report.suites).match(/"parallelIndex":\d/g));
    expect(workers.size).toBe(4);
  });

  it("Next.js (app router) with docs/mock.md's recipe: next build passes; the page has data from the server's mock and the browser's", async () => {
    const project = await createProject(tarballs, {
      name: 'nextjs',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['typescript', '@types/node'],
      files: {
        'app/layout.tsx': 'nextjs/app/layout.tsx',
        'tsconfig.json': 'nextjs/tsconfig.json',
      },
    });
    await npmInstall(project.dir, [`next@${NEXT.next}`, `react@${NEXT.react}`, `react-dom@${NEXT['react-dom']}`]);
    await npmInstall(project.dir, [`@types/react@${NEXT['@types/react']}`], { dev: true });
    writeBlock(project, 'instrumentation.ts', '`instrumentation.ts`');
    writeBlock(project, 'app/browser-mock.ts', '`app/browser-mock.ts`');
    writeBlock(project, 'app/page.tsx', '`app/page.tsx`', 'tsx');
    writeBlock(project, 'app/new-user.tsx', '`app/new-user.tsx`', 'tsx');
    await project.ok('npx', ['card-issuing-mock', 'init', 'public']);
    const build = await project.run('npx', ['next', 'build'], {
      NEXT_PUBLIC_CARD_ISSUING_MOCK: '1',
      NEXT_TELEMETRY_DISABLED: '1',
    });
    expect(build.code, build.output).toBe(0);
    expect(existsSync(join(project.dir, '.next/BUILD_ID'))).toBe(true);

    const port = await freePort();
    const server = await MockCommand.startProgram(
      project.dir,
      'npx',
      ['next', 'start', '-p', String(port), '-H', '127.0.0.1'],
      {
        CARD_ISSUING_MOCK: '1',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      /Ready in|started server on/i,
    );
    const url = `http://127.0.0.1:${port}/`;
    const chromium = await launchChromiumProfile();
    const { context } = chromium;
    try {
      // Server-side: in the HTML as the server rendered it, before any script ran.
      const html = await (await fetch(url)).text();
      expect(html).toMatch(/<ul id="server-data"><li>[^<]+<\/li>/);
      const page = await context.newPage();
      const fromServiceWorker: string[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith('https://api.example.test/') && response.fromServiceWorker())
          fromServiceWorker.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.locator('#client-data', { hasText: 'Ada created in the browser' }).waitFor({ timeout: 60_000 });
      expect(await page.locator('#server-data li').count()).toBeGreaterThan(0);
      expect(fromServiceWorker).toContain('POST /s2s/users');
      expect(errors).toEqual([]);
    } finally {
      await chromium.close();
      await server.interrupt();
    }
  });
});
