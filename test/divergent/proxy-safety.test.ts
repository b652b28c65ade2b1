/**
 * `card-issuing-contract proxy` tried as an attacker would, against a target that records what reaches it: a page's
 * unsigned 300 MB body (streamed, made on the fly) leaves the proxy process's memory flat and gets 401, a signed one
 * 413; a foreign Host or Origin gets 403 on /__drift and on API routes; the caller's local credentials and hop
 * headers never reach the target; an absolute-form or `//` request target never reaches another origin; and the
 * target's answer is bounded in size and time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from 'card-issuing-sdk';
import { startProxy, type RunningProxy } from '../../contract/src/proxy/proxy';
import { repoPath } from '../helpers/spec';

const credentials = { apiKey: 'proxy_key', apiSecret: 'proxy_secret' };

/** What reached a server: method, target and headers of each request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A node:http server on a free port that records what reaches it; `/slow` never answers, `/endless` never ends. */
async function recordingServer(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    if (req.url?.startsWith('/slow')) return;
    if (req.url?.startsWith('/endless')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=1' });
    res.end('{}');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One raw HTTP/1.1 exchange (node:http, so Host, Origin and the request target go out exactly as given). */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Readable; untilClosed?: boolean },
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      method: options.method ?? 'GET',
      path: options.path,
      headers: options.headers,
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      const done = () => resolve({ status: res.statusCode ?? 0, body });
      // untilClosed: also until the upload is over (all sent, or cut by the server).
      res.on('end', () => (options.untilClosed && !req.destroyed ? req.once('close', done) : done()));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The proxy cuts a body it refused once it has answered; the upload then fails, which is the point.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (options.body) options.body.pipe(req);
    else req.end();
  });
}

/** `total` bytes of JSON-ish text, made as they are read (never held in this process either). */
function generated(total: number): Readable {
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const part = chunk.subarray(0, Math.min(chunk.byteLength, total - sent));
      sent += part.byteLength;
      this.push(part);
    },
  });
}

/** The resident set of a process, from /proc (Linux), in bytes. */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

let target: Awaited<ReturnType<typeof recordingServer>>;
let proxy: RunningProxy;
beforeAll(async () => {
  target = await recordingServer();
  proxy = await startProxy({
    target: target.url,
    credentials,
    signing: { secretEncoding: 'utf8', bodyHash: false },
    port: 0,
    host: '127.0.0.1',
    specPath: repoPath('spec/openapi.yaml'),
    answerLimits: { timeoutMs: 1_000, maxBytes: 1024 * 1024 },
    log: () => {},
  });
});
afterAll(async () => {
  await proxy?.close();
  await target?.close();
});

const signedHeaders = async (method: string, path: string, body?: string) => ({
  authorization: (await signRequest({ method, url: `${proxy.url}${path}`, ...(body ? { body } : {}), ...credentials }))
    .authorization,
});

describe('the proxy, safe to leave running', () => {
  it('a foreign Host or Origin gets 403 on /__drift and on API routes; the target sees nothing', async () => {
    const before = target.seen.length;
    const host = new URL(proxy.url).host;
    for (const path of ['/__drift', '/s2s/users']) {
      const rebound = await raw(proxy.url, {
        path,
        headers: { host: `rebind.evil.example:${new URL(proxy.url).port}` },
      });
      expect(rebound.status, path).toBe(403);
      expect(JSON.parse(rebound.body)).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
      const page = await raw(proxy.url, {
        path,
        headers: { host, origin: 'https://evil.example', ...(await signedHeaders('GET', path)) },
      });
      expect(page.status, path).toBe(403);
      expect(JSON.parse(page.body)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    }
    expect(target.seen.length).toBe(before);
    // Its own names and local pages still work.
    expect(
      (await raw(proxy.url, { path: '/__drift', headers: { host: `localhost:${new URL(proxy.url).port}` } })).status,
    ).toBe(200);
    expect((await raw(proxy.url, { path: '/__drift', headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
  });

  it("the caller's cookies, proxy credentials, origin, forwarding claims and hop headers never reach the target", async () => {
    const path = '/s2s/users?limit=1';
    const { status } = await raw(proxy.url, {
      path,
      headers: {
        ...(await signedHeaders('GET', path)),
        origin: 'http://localhost:3000',
        cookie: 'session=local-secret',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        'x-forwarded-for': '10.0.0.1',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'for=10.0.0.1',
        connection: 'keep-alive, x-hop-only',
        'x-hop-only': 'hop',
        'keep-alive': 'timeout=5',
        'x-app': 'kept',
      },
    });
    expect(status).toBe(200);
    const received = target.seen.at(-1)!;
    expect(received.url).toBe(path);
    for (const name of [
      'origin',
      'cookie',
      'proxy-authorization',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'forwarded',
      'x-hop-only',
      'keep-alive',
    ]) {
      expect(received.headers[name], name).toBeUndefined();
    }
    expect(received.headers['x-app']).toBe('kept');
    expect(received.headers.authorization).toMatch(/^HMAC-SHA256 proxy_key:/);
  });

  it('an absolute-form, `//` or `/\\` request target never reaches another origin', async () => {
    const before = target.seen.length;
    const elsewhere = await recordingServer();
    try {
      const other = new URL(elsewhere.url);
      for (const path of [
        `${elsewhere.url}/s2s/users`,
        `//${other.host}/s2s/users`,
        `/\\${other.host}/s2s/users`,
        'munity://x/s2s/users',
        '*',
      ]) {
        const { status, body } = await raw(proxy.url, { path, headers: await signedHeaders('GET', '/s2s/users') });
        expect(status, path).toBe(400);
        expect(JSON.parse(body), path).toMatchObject({ code: 'MALFORMED_REQUEST' });
      }
      expect(elsewhere.seen).toEqual([]);
      expect(target.seen.length).toBe(before);
    } finally {
      await elsewhere.close();
    }
  });

  it("the target's answer is bounded in time (504) and size (502)", async () => {
    const slow = await raw(proxy.url, { path: '/slow', headers: await signedHeaders('GET', '/slow') });
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.body)).toMatchObject({ code: 'TARGET_TIMEOUT' });
    const endless = await raw(proxy.url, { path: '/endless', headers: await signedHeaders('GET', '/endless') });
    expect(endless.status).toBe(502);
    expect(JSON.parse(endless.body)).toMatchObject({ code: 'TARGET_ANSWER_TOO_LARGE' });
  });

  it('a signed body over 64 KiB is 413, whether its length is declared or streamed', async () => {
    const before = target.seen.length;
    const path = '/s2s/users';
    const declared = await raw(proxy.url, {
      method: 'POST',
      path,
      headers: { ...(await signedHeaders('POST', path)), 'content-length': String(65 * 1024) },
      body: generated(65 * 1024),
    });
    expect(declared.status).toBe(413);
    const chunked = await raw(proxy.url, {
      method: 'POST',
      path,
      headers: { ...(await signedHeaders('POST', path)), 'transfer-encoding': 'chunked' },
      body: generated(1024 * 1024),
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(target.seen.length).toBe(before);
  });
});

describe('the proxy as a command, under a 300 MB body', () => {
  let child: ChildProcess;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it("an unsigned 300 MB body gets 401 and leaves the proxy process's memory flat", async () => {
    child = spawn(
      process.execPath,
      [
        repoPath('contract/dist/cli.js'),
        'proxy',
        '--target',
        target.url,
        '--api-key',
        credentials.apiKey,
        '--api-secret',
        credentials.apiSecret,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /proxy on (http:\/\/\S+)/.exec(output);
        if (found) resolve(found[1]!);
      });
      child.on('exit', (code) => reject(new Error(`the proxy exited (${code}): ${output}`)));
    });
    // Warm: one refused small request, so that the baseline includes what the first request loads.
    await raw(url, { method: 'POST', path: '/s2s/users', body: generated(1024) });
    const baseline = rssOf(child.pid!);
    // As a page's `fetch(..., { method: 'POST', mode: 'no-cors', body })` sends it: the length declared up front.
    const { status, body } = await raw(url, {
      method: 'POST',
      path: '/s2s/users',
      headers: { 'content-type': 'text/plain', 'content-length': String(300 * 1024 * 1024) },
      body: generated(300 * 1024 * 1024),
      untilClosed: true,
    });
    expect(status).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ code: 'AUTH_MISSING' });
    const grown = rssOf(child.pid!) - baseline;
    // Flat: well under one buffered copy of the body (300 MB); what it grows by is the allocator's noise.
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });
});
