/**
 * The mock behind a real proxy that rewrites `Host` (as a dev-server proxy with `changeOrigin`, Prism's validation
 * proxy or a tunnel does): a small node:http reverse proxy forwards every request to the mock with `Host` set to the
 * mock's own address. The client signs the URL it uses, the proxy's. Without `publicUrl` the mock verifies against
 * its own origin and every signed request is AUTH_SIGNATURE_MISMATCH (so users turned signing off); with
 * `publicUrl` set to the proxy's URL, the SDK's calls verify.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, createCardIssuingClient } from '../../sdk/src/index';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { newUser } from './helpers.js';

/** A reverse proxy on its own port that forwards to `target`, rewriting Host to the target's. */
async function startProxy(target: () => URL): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const to = target();
    const upstream = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The name clients use for the proxy: `localhost`, not the address the mock sees.
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

let proxy: { url: string; server: Server };
let behind: MockServer | undefined;
let plain: MockServer | undefined;
let current: () => URL;

beforeAll(async () => {
  proxy = await startProxy(() => current());
  behind = await startMockServer({ port: 0, publicUrl: proxy.url });
  plain = await startMockServer({ port: 0 });
});
afterAll(async () => {
  proxy.server.closeAllConnections();
  await new Promise((resolve) => proxy.server.close(resolve));
  await behind?.close();
  await plain?.close();
});

const client = () =>
  createCardIssuingClient({ baseUrl: proxy.url, apiKey: 'test_key', apiSecret: 'test_secret', retry: false });

describe('a mock behind a proxy that rewrites Host', () => {
  it('without publicUrl, a request signed for the proxy URL is AUTH_SIGNATURE_MISMATCH, naming the URL the mock saw', async () => {
    current = () => new URL(plain!.url);
    const error = await client()
      .s2s.users.create(newUser('proxy-plain'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect((error as AuthenticationError).problem?.stringToSign).toContain(new URL(plain!.url).host);
  });

  it('with publicUrl set to the proxy URL, signed calls verify: create and read a user through the proxy', async () => {
    current = () => new URL(behind!.url);
    const user = await client().s2s.users.create(newUser('proxy'));
    expect((await client().s2s.users.get(user.id)).id).toBe(user.id);
    expect((await client().s2s.balances.list(user.id)).items.length).toBeGreaterThan(0);
  });
});
