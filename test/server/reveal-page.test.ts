/**
 * `GET /__mock/reveal`: the SDK's reveal frame as the package ships it, under a CSP that allows exactly its inline
 * script and style (by hash), no connection, sandboxes the document, and lets local pages (and the origins the
 * server was told of) frame it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 'reveal-page', corsOrigins: ['https://app.example.test'] });
});
afterAll(async () => {
  await server?.close();
});

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('GET /__mock/reveal', () => {
  it("serves the package's frame.html under a CSP of its own hashes, sandboxed, framable by local pages", async () => {
    const response = await fetch(`${server.url}/__mock/reveal`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const shipped = readFileSync(createRequire(import.meta.url).resolve('card-issuing-sdk/reveal/frame.html'), 'utf8');
    expect(html).toBe(shipped);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = (response.headers.get('content-security-policy') ?? '').split('; ');
    expect(csp).toEqual([
      "default-src 'none'",
      `script-src ${hash(script)}`,
      `style-src ${hash(style)}`,
      "connect-src 'none'",
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'self' http://localhost:* http://127.0.0.1:* http://[::1]:* https://localhost:* https://app.example.test",
      'sandbox allow-scripts',
    ]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves only GET: another method goes on to the control routes (404)', async () => {
    const response = await fetch(`${server.url}/__mock/reveal`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});
