/**
 * The consumer matrix: both packages as their users get them (npm pack tarballs, tools from the npm registry), each in
 * a fresh project outside the repository, each running a signed flow and a typed 404, not only an import.
 *
 * | row | project | runs |
 * | --- | --- | --- |
 * | npx | an empty folder, only the two tarballs installed | `npx card-issuing-mock --port 0`; every entry by require and import |
 * | esm-ts | ESM TypeScript, moduleResolution bundler, only the SDK | tsc (bundler and node16), `node main.ts` |
 * | cjs-ts | CommonJS TypeScript, module nodenext, only the SDK | tsc, `node out/main.js` (require), ESM copy beside it |
 * | jest-cjs / jest-esm | Jest 30, CommonJS and ESM projects | node and jsdom test files, one line of setup (jest-cjs: a logger test) |
 * | vitest | vitest | node, jsdom and happy-dom test files, one line of setup, a logger test |
 * | vite-browser | a Vite production build | the page in Chromium, the mock in its service worker, the browser guard |
 * | quickstart | `npm init -y`, the README's install commands | the README's quickstart, extracted from the tarball |
 *
 * The integrator rows (esm-ts, cjs-ts) and the quickstart talk to the mock command over HTTP.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { codeBlockOf } from '../helpers/markdown';
import { launchChromiumProfile, serveStatic } from './browser-support';
import { createProject, lastJson, MockCommand, npmInstall, ok, TOOLS, type Project } from './support';

const tarballs = inject('tarballs');

/** What the shared integrator flow (fixtures/consumer/shared/flow.ts) reports when everything works. */
const FLOW_OK = {
  registrationStatus: 'COMPLETED',
  consentsSigned: expect.any(Number),
  notFound: { guard: true, code: 'NOT_FOUND', status: 404, instanceofNotFoundError: true, hasRequestId: true },
  refused: { guard: true, code: 'AUTH_SIGNATURE_MISMATCH', instanceofAuthenticationError: true },
};

/** What a browser or runner flow reports when everything works (fixtures/consumer/runners/flow.cjs). */
const NOT_FOUND_OK = { guard: true, code: 'NOT_FOUND', instanceofNotFoundError: true };

/** The project has no msw anywhere in its tree: installing card-issuing-sdk alone pulls none in. */
function expectNoMsw(project: Project): void {
  const lock = JSON.parse(readFileSync(join(project.dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  expect(Object.keys(lock.packages).filter((path) => /(^|\/)node_modules\/(msw|@mswjs\/[^/]+)$/.test(path))).toEqual(
    [],
  );
  expect(existsSync(join(project.dir, 'node_modules/msw'))).toBe(false);
  expect(Object.keys(lock.packages)).toContain('node_modules/card-issuing-sdk');
}

// The `npx` row's folder and command; the integrator rows and the quickstart's base URL come from it.
let npxRow: Promise<{ dir: string; command: MockCommand; url: string }> | undefined;
function mockCommand() {
  npxRow ??= (async () => {
    const dir = join(tarballs.root, 'npx');
    emptyFolder(dir);
    // An empty folder: no package.json, only `npm install` of the two tarballs (the SDK is not on the registry yet).
    await npmInstall(dir, [tarballs.mock, tarballs.sdk]);
    const { command, url } = await MockCommand.start(dir, ['--port', '0']);
    return { dir, command, url };
  })();
  return npxRow;
}

afterAll(async () => {
  if (!npxRow) return;
  const { command } = await npxRow;
  await expectCleanStop(command);
});

/**
 * Ctrl+C stops the server cleanly: it says so and its whole process group ends. (npx itself reports the SIGINT as
 * its own end, as npm does for any command; the server's exit code 0 is checked by test/server/cli.test.ts.)
 */
async function expectCleanStop(command: MockCommand): Promise<void> {
  const { stdout } = await command.interrupt();
  expect(stdout).toMatch(/card-issuing-mock: SIGINT, stopping\ncard-issuing-mock: stopped\n?$/);
}

describe.concurrent('consumer matrix (npm pack tarballs in fresh projects)', () => {
  it('npx card-issuing-mock --port 0 starts from an empty folder with only the tarballs; every entry works by require and by import', async () => {
    const { dir, command, url } = await mockCommand();
    expect(readdirSync(dir).sort()).toEqual(['node_modules', 'package-lock.json', 'package.json']);
    expect(command.stdout).toMatch(/Credentials\s+apiKey test_key/);
    expect(command.stdout).toMatch(/Corporates\n\s+[0-9a-f-]{36}/);
    const fixtures = (await (await fetch(`${url}/__mock/fixtures`)).json()) as { corporates: unknown[] };
    expect(fixtures.corporates.length).toBeGreaterThan(0);

    for (const file of ['entries.cjs', 'entries.mjs', 'report.cjs'])
      writeFileSync(join(dir, file), readFileSync(fixture(`mock-cli/${file}`)));
    const required = lastJson((await ok('node', ['entries.cjs'], { cwd: dir })).stdout);
    const imported = lastJson((await ok('node', ['entries.mjs'], { cwd: dir })).stdout);
    const expected = {
      oneMockAcrossEntries: true,
      userMatchesSchema: true,
      luhn: true,
      notFound: NOT_FOUND_OK,
      rootMockCorporates: fixtures.corporates.length,
      revealRoundTrip: true,
      frameHtml: true,
      // In plain Node: the browser entry loads its inert server build, which refuses to start (msw gives Node no
      // msw/browser); the Jest setup asks for Jest's hooks.
      outsideTheirRunner: {
        browser: 'BROWSER_MOCK_ON_SERVER',
        jest: expect.stringContaining('needs the hooks Jest puts on the global object'),
      },
    };
    expect(required).toMatchObject({ loadedFrom: 'node.cjs', ...expected });
    expect(imported).toMatchObject({ loadedFrom: 'node.js', ...expected });
    // The CommonJS and ESM builds export the same names from every entry.
    expect(required.exports).toEqual(imported.exports);
    expect((required.exports as { sdk: string[] }).sdk).toContain('isCardIssuingError');
    expect((required.exports as { reveal: string[] }).reveal).toContain('mountCardReveal');
  });

  it('the packed mock serves its MCP tools: Streamable HTTP at /__mock/mcp, and npx card-issuing-mock mcp --url over stdio', async () => {
    const { dir, url } = await mockCommand();
    const overHttp = new Client({ name: 'consumer', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(`${url}/__mock/mcp`)));
    const names = (await overHttp.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['call_api', 'given', 'override', 'inject_fault', 'journal']));
    const fixtures = await overHttp.callTool({ name: 'fixtures', arguments: {} });
    expect(JSON.parse((fixtures.content as { text: string }[])[0]!.text)).toMatchObject({ status: 200 });
    await overHttp.close();
    const overStdio = new Client({ name: 'consumer-stdio', version: '1.0.0' });
    await overStdio.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['card-issuing-mock', 'mcp', '--url', url],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    expect((await overStdio.listTools()).tools.map((t) => t.name)).toEqual(names);
    const clock = await overStdio.callTool({ name: 'get_clock', arguments: {} });
    expect(JSON.parse((clock.content as { text: string }[])[0]!.text)).toMatchObject({ status: 200 });
    await overStdio.close();
  });

  it('ESM TypeScript (moduleResolution bundler, and node16) with only card-issuing-sdk: import, a signed flow, a typed 404', async () => {
    const project = await createProject(tarballs, {
      name: 'esm-ts',
      type: 'module',
      packages: ['sdk'],
      tools: ['typescript', '@types/node'],
      files: {
        'main.ts': 'esm-ts/main.ts',
        'api-surface.ts': 'esm-ts/api-surface.ts',
        'flow.ts': 'shared/flow.ts',
        'tsconfig.json': 'esm-ts/tsconfig.json',
        'tsconfig.node16.json': 'esm-ts/tsconfig.node16.json',
      },
    });
    expectNoMsw(project);
    await project.ok('npx', ['tsc', '-p', 'tsconfig.json']);
    await project.ok('npx', ['tsc', '-p', 'tsconfig.node16.json']);
    const { url } = await mockCommand();
    const report = lastJson((await project.ok('node', ['main.ts'], { CARD_ISSUING_BASE_URL: url })).stdout);
    expect(report).toEqual({ loadedFrom: 'index.js', ...FLOW_OK });
    expect(report.consentsSigned).toBeGreaterThan(0);
  });

  it('CommonJS TypeScript (module nodenext) with only card-issuing-sdk: require, a signed flow, a typed 404, the ESM copy beside it', async () => {
    const project = await createProject(tarballs, {
      name: 'cjs-ts',
      packages: ['sdk'],
      tools: ['typescript', '@types/node'],
      files: {
        'main.ts': 'cjs-ts/main.ts',
        'api-surface.ts': 'cjs-ts/api-surface.ts',
        'flow.ts': 'shared/flow.ts',
        'tsconfig.json': 'cjs-ts/tsconfig.json',
      },
    });
    expectNoMsw(project);
    await project.ok('npx', ['tsc', '-p', 'tsconfig.json']);
    // tsc made CommonJS: the package is loaded by require().
    expect(readFileSync(join(project.dir, 'out/main.js'), 'utf8')).toMatch(/require\("card-issuing-sdk"\)/);
    const { url } = await mockCommand();
    const report = lastJson((await project.ok('node', ['out/main.js'], { CARD_ISSUING_BASE_URL: url })).stdout);
    expect(report).toEqual({
      loadedFrom: 'index.cjs',
      ...FLOW_OK,
      // Two copies of every class (the ESM and CJS builds); the guard recognises both, instanceof cannot.
      dual: { twoCopies: true, cjsErrorByEsmGuard: true, esmErrorByCjsGuard: true, cjsErrorInstanceofEsmClass: false },
      names: ['NotFoundError', 'ValidationError', 'NotFoundError'],
    });
  });

  it('Jest 30 in a CommonJS project: node and jsdom test files, one line of setup', async () => {
    const project = await createProject(tarballs, {
      name: 'jest-cjs',
      packages: ['sdk', 'mock'],
      tools: ['jest', 'jest-environment-jsdom'],
      files: {
        'jest.config.js': 'jest-cjs/jest.config.js',
        'node.test.js': 'jest-cjs/node.test.js',
        'jsdom.test.js': 'jest-cjs/jsdom.test.js',
        'logger.test.js': 'jest-cjs/logger.test.js',
        'flow.cjs': 'runners/flow.cjs',
      },
    });
    const result = await project.run('npx', ['jest', '--ci']);
    expect(result.code, result.output).toBe(0);
    expect(result.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
  });

  it('Jest 30 in an ESM project (node --experimental-vm-modules): node and jsdom test files, one line of setup', async () => {
    const project = await createProject(tarballs, {
      name: 'jest-esm',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['jest', 'jest-environment-jsdom'],
      files: {
        'jest.config.js': 'jest-esm/jest.config.js',
        'node.test.js': 'jest-esm/node.test.js',
        'jsdom.test.js': 'jest-esm/jsdom.test.js',
        'flow.cjs': 'runners/flow.cjs',
      },
    });
    const result = await project.run('npx', ['jest', '--ci'], { NODE_OPTIONS: '--experimental-vm-modules' });
    expect(result.code, result.output).toBe(0);
    expect(result.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
  });

  it('vitest: node, jsdom and happy-dom test files, one line of setup', async () => {
    const project = await createProject(tarballs, {
      name: 'vitest',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['vitest', 'jsdom', 'happy-dom'],
      files: {
        'vitest.config.js': 'vitest/vitest.config.js',
        'node.test.js': 'vitest/node.test.js',
        'jsdom.test.js': 'vitest/jsdom.test.js',
        'happy-dom.test.js': 'vitest/happy-dom.test.js',
        'logger.test.js': 'vitest/logger.test.js',
        'flow.cjs': 'runners/flow.cjs',
      },
    });
    const result = await project.run('npx', ['vitest', 'run']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+5 passed \(5\)/);
  });

  it('a Vite production build of a page with card-issuing-mock/browser, opened in Chromium', async () => {
    const project = await createProject(tarballs, {
      name: 'vite-browser',
      type: 'module',
      packages: ['sdk', 'mock'],
      tools: ['vite', 'typescript', '@types/node'],
      files: {
        'index.html': 'vite-browser/index.html',
        'src/main.ts': 'vite-browser/src/main.ts',
        'src/mock-surface.ts': 'vite-browser/src/mock-surface.ts',
        'tsconfig.json': 'vite-browser/tsconfig.json',
      },
    });
    await project.ok('npx', ['card-issuing-mock', 'init', 'public']);
    expect(existsSync(join(project.dir, 'public/mockServiceWorker.js'))).toBe(true);
    await project.ok('npx', ['tsc', '-p', 'tsconfig.json']);
    await project.ok('npx', ['vite', 'build']);
    const site = await serveStatic(join(project.dir, 'dist'));
    const chromium = await launchChromiumProfile();
    try {
      const page = await chromium.context.newPage();
      const fromServiceWorker: string[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith('https://api.example.test/') && response.fromServiceWorker())
          fromServiceWorker.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
      });
      await page.goto(site.url);
      await page.waitForSelector('#result:not([data-state="running"])', { timeout: 60_000 });
      const result = JSON.parse((await page.textContent('#result')) ?? '{}') as Record<string, unknown>;
      expect(result).toEqual({
        // Refused without the flag (a secret in a page is public), working with it: the flow below ran with it.
        browserGuard: {
          refusedWithoutFlag: true,
          message: expect.stringContaining('readable by everyone who opens the page'),
        },
        serviceWorker: true,
        registrationStatus: 'COMPLETED',
        kycStatus: 'PASSED',
        notFound: NOT_FOUND_OK,
      });
      expect(fromServiceWorker).toContain('POST /s2s/users');
      expect(fromServiceWorker).toContain('GET /s2s/users/00000000-0000-4000-8000-000000000000');
    } finally {
      await chromium.close();
      await site.close();
    }
  });

  it("the README quickstart runs as written in a default `npm init -y` project, from the SDK tarball's README", async () => {
    const dir = join(tarballs.root, 'quickstart');
    emptyFolder(dir);
    // The README's install path, with the tarballs in place of the registry names (what it says to do before release).
    await ok('npm', ['init', '-y'], { cwd: dir });
    await npmInstall(dir, [tarballs.sdk]);
    await npmInstall(dir, [tarballs.mock, `tsx@${TOOLS.tsx}`], { dev: true });
    // CommonJS, npm's default (npm 11 writes it out; older npm leaves "type" out).
    expect(['commonjs', undefined]).toContain(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type);
    const source = codeBlockOf(join(dir, 'node_modules/card-issuing-sdk/README.md'), 'Quickstart');
    writeFileSync(join(dir, 'quickstart.ts'), source);
    const { command, url } = await MockCommand.start(dir, ['--port', '0']);
    try {
      const result = await ok('npx', ['tsx', 'quickstart.ts'], { cwd: dir, env: { CARD_ISSUING_BASE_URL: url } });
      const lines = result.stdout.trim().split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^COMPLETED req_[0-9a-f]+$/));
      expect(lines).toContainEqual(expect.stringMatching(/^NOT_FOUND req_[0-9a-f]+$/));
      expect(lines).toContainEqual(expect.stringMatching(/Virtual Plus \(VIRTUAL\)/));
    } finally {
      await expectCleanStop(command);
    }
  });
});

function fixture(path: string): string {
  return join(import.meta.dirname, '../fixtures/consumer', path);
}

/** An empty folder at `dir` (a fresh one if an earlier run left it). */
function emptyFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
