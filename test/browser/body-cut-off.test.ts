import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePageScript, launchChromium } from '../helpers/chromium';
import { repoPath, specExample } from '../helpers/spec';

// A response whose connection is reset while its body arrives, met by the SDK in Chromium (Debian's, through
// playwright-core), whose fetch fails such a body its own way: the page is the SDK's root entry bundled for the
// browser, served by the same node:http server as the API it calls.

const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`);

const PAGE_SCRIPT = `
  import { createCardIssuingClient } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
  (window as any).getUser = async (retry: boolean) => {
    const client = createCardIssuingClient({
      baseUrl: location.origin, apiKey: 'test_key', apiSecret: 'test_secret', dangerouslyAllowBrowser: true,
      retry: retry ? { limit: 2, initialDelayMs: 1, maxDelayMs: 1 } : false,
    });
    try {
      return { data: await client.s2s.users.get(${JSON.stringify(USER_ID)}) };
    } catch (error: any) {
      return { name: error.name, code: error.code, requestId: error.requestId, message: error.message };
    }
  };
`;

let server: Server;
let browser: Browser;
let page: Page;
/** API requests seen, and how many of the next ones are cut off halfway through their body. */
let seen = 0;
let cutOff = 0;

beforeAll(async () => {
  const script = await bundlePageScript(PAGE_SCRIPT);
  server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else if (request.url?.startsWith('/s2s/')) {
      seen++;
      const body = JSON.stringify(user);
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': `req_${seen}`,
      });
      if (cutOff > 0) {
        cutOff--;
        response.write(body.slice(0, body.length / 2), () => response.socket?.resetAndDestroy());
      } else {
        response.end(body);
      }
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>body cut off</title><script src="/app.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  await page.waitForFunction(() => typeof (window as { getUser?: unknown }).getUser === 'function');
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const getUser = (retry: boolean) =>
  page.evaluate((r) => (window as unknown as { getUser: (r: boolean) => Promise<unknown> }).getUser(r), retry);

describe('a body cut off in Chromium', () => {
  it('is a NetworkError with the response request id, not a validation failure', async () => {
    seen = 0;
    cutOff = 1;
    expect(await getUser(false)).toMatchObject({ name: 'NetworkError', code: 'NETWORK_ERROR', requestId: 'req_1' });
    expect(seen).toBe(1);
  });

  it('is retried: the GET gets its answer from the next attempt', async () => {
    seen = 0;
    cutOff = 1;
    expect(await getUser(true)).toEqual({ data: user });
    expect(seen).toBe(2);
  });
});
