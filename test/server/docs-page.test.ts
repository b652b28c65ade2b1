/**
 * `/__mock/docs` of the standalone server: the API reference from a folder (`docsDir`, CLI `--docs`), a page that
 * says how to build it when it is missing, and nothing outside the folder. The reference itself is checked in
 * Chromium (test/browser/docs.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';

const root = mkdtempSync(join(tmpdir(), 'mock-docs-'));
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function get(path: string): Promise<{ status: number; type: string | null; csp: string | null; text: string }> {
  const response = await fetch(`${server!.url}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    csp: response.headers.get('content-security-policy'),
    text: await response.text(),
  };
}

describe('/__mock/docs', () => {
  it('without a docs folder: a page that says to run `npm run docs` and `npm run mock`; the API still answers', async () => {
    server = await startMockServer({ port: 0 });
    const page = await get('/__mock/docs');
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.text).toContain('npm run docs');
    expect(page.text).toContain('npm run mock');
    expect(page.text).toContain('HTTP API: not built');
    expect((await get('/__mock/docs/http/index.html')).status).toBe(404);
    expect((await get('/__mock/fixtures')).status).toBe(200);
  });

  it('with a folder not built yet: says to run `npm run docs`, and serves what is built without a restart', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    server = await startMockServer({ port: 0, docsDir: dir });
    const before = await get('/__mock/docs/');
    expect(before.text).toContain('Run <code>npm run docs</code>');
    expect(before.text).toContain('SDK: not built');
    mkdirSync(join(dir, 'sdk'));
    writeFileSync(join(dir, 'sdk/index.html'), '<h1>sdk</h1>');
    const after = await get('/__mock/docs');
    expect(after.text).toContain('<a href="/__mock/docs/sdk/index.html">SDK</a>');
    expect(after.text).toContain('HTTP API: not built');
  });

  it('serves the files of the folder with their types and a CSP, and nothing outside it', async () => {
    const dir = join(root, 'built');
    mkdirSync(join(dir, 'http'), { recursive: true });
    mkdirSync(join(dir, 'sdk/assets'), { recursive: true });
    writeFileSync(join(dir, 'http/index.html'), '<title>http</title>');
    writeFileSync(join(dir, 'sdk/index.html'), '<title>sdk</title>');
    writeFileSync(join(dir, 'sdk/assets/main.js'), 'console.log(1)');
    writeFileSync(join(root, 'secret.txt'), 'outside');
    server = await startMockServer({ port: 0, docsDir: dir });
    expect(await get('/__mock/docs/http/index.html')).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      text: '<title>http</title>',
    });
    expect(await get('/__mock/docs/sdk/')).toMatchObject({ status: 200, text: '<title>sdk</title>' });
    const script = await get('/__mock/docs/sdk/assets/main.js');
    expect(script).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    expect(script.csp).toContain("frame-ancestors 'none'");
    for (const path of [
      '/__mock/docs/..%2fsecret.txt',
      '/__mock/docs/%2e%2e/secret.txt',
      '/__mock/docs/sdk/..%2f..%2fsecret.txt',
      '/__mock/docs/nothing.html',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain('outside');
    }
    // Only GET and HEAD: a POST there is the pipeline's (an unknown control route).
    expect((await fetch(`${server.url}/__mock/docs`, { method: 'POST' })).status).toBe(404);
  });
});
