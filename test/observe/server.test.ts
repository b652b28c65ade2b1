/**
 * The standalone server's side of the inspector: the page and its assets from the package (built by `npm run
 * build`, as `npm test` does first), nothing loaded from elsewhere, a strict Content-Security-Policy, and the
 * event stream over real HTTP, ended when the server closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 'inspector-server' });
});
afterAll(async () => {
  await server?.close();
});

describe('GET /__mock/ui', () => {
  it('serves the page, its script and its stylesheet from this origin only, under a strict CSP', async () => {
    const page = await fetch(`${server.url}/__mock/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    // Every script and stylesheet the page loads is a path of this origin.
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(['data:,', '/__mock/ui/app.css', '/__mock/ui/app.js']);

    const script = await fetch(`${server.url}/__mock/ui/app.js`);
    expect(
      script.status,
      await script
        .clone()
        .text()
        .then((t) => t.slice(0, 200)),
    ).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const js = await script.text();
    expect(js.length).toBeGreaterThan(10_000);
    // Bundled, not fetched: no module import, no CDN.
    expect(js).not.toMatch(/\bimport\s*\(|from\s*["']|unpkg|jsdelivr|cdnjs|esm\.sh/);
    const style = await fetch(`${server.url}/__mock/ui/app.css`);
    expect(style.status).toBe(200);
    expect(await style.text()).not.toMatch(/@import|url\(\s*["']?https?:/);
  });
});

describe('GET /__mock/events/stream over HTTP', () => {
  it('streams as things happen (not buffered), and the server closes without waiting for the stream', async () => {
    const local = await startMockServer({ port: 0, seed: 'stream' });
    const response = await fetch(`${local.url}/__mock/events/stream`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
    await fetch(`${local.url}/__mock/kyc/00000000-0000-4000-8000-000000000000`, {
      method: 'POST',
      body: '{"status":"PASSED"}',
    });
    while (!text.includes('"operationId":"mock.kyc"')) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/event: request\ndata: \{[^\n]*"status":404,"code":"NOT_FOUND"/);

    // Closing the server ends the stream cleanly (the reader sees its end), instead of the server waiting for the
    // connection and then cutting it, which the reader would see as an error.
    const drained = (async () => {
      while (!(await reader.read()).done);
      return 'ended';
    })();
    await local.close();
    await expect(drained).resolves.toBe('ended');
  });
});
