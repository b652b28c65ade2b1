/**
 * Card details only the cardholder's screen reads (issue 26), in Debian's Chromium: a host page and its backend
 * (node:http on 127.0.0.1) that relays with `getEncryptedDetails`, and the standalone mock (its API on 127.0.0.1,
 * its reveal frame `/__mock/reveal` reached as localhost: another origin). The page is the docs' page block bundled
 * with esbuild from the built package; the backend runs the docs' relay block. The frame shows the card; the card
 * is nowhere in the host page's DOM, in any message the host window receives, or in anything the backend logged or
 * answered; and the frame's private key cannot be exported.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as esbuild from 'esbuild';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encryptCardDetails } from 'card-issuing-sdk/server';
import {
  createCardIssuingClient,
  exportPublicKey,
  generateCardKeyPair,
  issueCard,
  registerUser,
  type CardDetails,
} from 'card-issuing-sdk';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { launchChromium } from '../helpers/chromium';
import { luhnValid } from '../helpers/luhn';
import { codeBlockOf, ownBlock } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

/** Every way a text could carry the card: its number (bare or grouped), any Luhn-valid number, CVV, expiry. */
function cardIn(text: string, card: CardDetails): string[] {
  const found: string[] = [];
  const mm = String(card.expiryMonth).padStart(2, '0');
  const yy = String(card.expiryYear % 100).padStart(2, '0');
  if (text.includes(card.pan)) found.push('the card number');
  if (text.replace(/[\s-]/g, '').includes(card.pan)) found.push('the card number, grouped');
  for (const [run] of text.matchAll(/(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g)) {
    const digits = run.replace(/\D/g, '');
    if (digits.length >= 12 && luhnValid(digits)) found.push(`a Luhn-valid number (${digits.length} digits)`);
  }
  // Three digits stand alone in a page by chance (a time's milliseconds, 16:31:23.427; a duration, 427 ms): the CVV
  // counts where nothing makes it part of a number, a time or a duration.
  if (new RegExp(`(?<![A-Za-z0-9_.:,-])${card.cvv}(?![A-Za-z0-9_.:,-]|\\s?ms\\b)`).test(text)) found.push('the CVV');
  for (const expiry of [
    `${mm}/${yy}`,
    `${mm}/${card.expiryYear}`,
    `${mm}-${card.expiryYear}`,
    `${card.expiryYear}-${mm}`,
  ])
    if (text.includes(expiry)) found.push(`the expiry (${expiry})`);
  if (/"(pan|cvv|expiryMonth|expiryYear|cardholderName)"\s*:/.test(text)) found.push('a card-details member');
  return found;
}

let mock: MockServer;
let backend: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let card: CardDetails;
let cardId: string;
let frameUrl: string;
/** What the backend logged (its own log, and everything written to the console meanwhile) and answered. */
const backendLog: string[] = [];
const backendAnswers: string[] = [];
const pageErrors: string[] = [];

/**
 * A script bundled from the built package (tsconfig paths off), as an app's bundler would: the docs' page block, or
 * the probe that puts the reveal entry on `window.reveal` to try mountCardReveal's refusals.
 */
async function bundle(input: { entryPoints: string[] } | { stdin: esbuild.StdinOptions }): Promise<string> {
  const result = await esbuild.build({
    ...input,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    tsconfigRaw: {},
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Records every chunk a response writes. */
function recordAnswer(res: ServerResponse): void {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const keep = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) backendAnswers.push(Buffer.from(chunk).toString());
  };
  res.write = ((chunk: unknown, ...rest: never[]) => {
    keep(chunk);
    return write(chunk as string, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: never[]) => {
    keep(chunk);
    return end(chunk as string, ...rest);
  }) as typeof res.end;
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 'reveal-browser-test' });
  const port = new URL(mock.url).port;
  // The frame from the mock under the other loopback name: another origin (and site) than the page's 127.0.0.1.
  frameUrl = `http://localhost:${port}/__mock/reveal`;

  // A user with an ACTIVE virtual card, and the card as the test knows it (decrypted here, with its own key).
  const client = createCardIssuingClient({ baseUrl: mock.url, apiKey: 'test_key', apiSecret: 'test_secret' });
  const { user } = await registerUser(client, {
    registration: {
      email: 'reveal@example.org',
      firstName: 'Mary',
      lastName: 'Jackson',
      phone: '+447700900124',
      dateOfBirth: '1991-04-09',
      country: 'GB',
    },
    acceptConsents: () => true,
  });
  const config = mock.mock.fixtures().cardConfigs.find((c) => c.type === 'VIRTUAL' && c.price === null)!;
  const issued = await issueCard(client, {
    userId: user.id,
    configId: config.configId,
    getOtpCode: () => mock.mock.outbox(user.id).at(-1)!.code!,
    completeKyc: async () => void mock.mock.kyc(user.id, 'PASSED'),
    acceptConsents: () => true,
  });
  cardId = issued.card.id;
  card = await client.s2s.cards.getDetails(cardId, { keyPair: await generateCardKeyPair() });

  // The backend: the host page, its script, and the docs' relay route.
  Object.assign(process.env, { API_URL: mock.url, API_KEY: 'test_key', API_SECRET: 'test_secret' });
  const { revealRoute } = await import('./fixtures/reveal/relay');
  const script = await bundle({ entryPoints: [repoPath('test/browser/fixtures/reveal/main.ts')] });
  const probe = await bundle({
    stdin: {
      contents: "import * as reveal from 'card-issuing-sdk/reveal'; Object.assign(window, { reveal });",
      resolveDir: repoPath('.'),
      loader: 'ts',
    },
  });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>
<h1>Your card</h1><div id="card"></div>
<script>var cardId = ${JSON.stringify(cardId)}; var frameUrl = ${JSON.stringify(frameUrl)};</script>
<script type="module" src="/page.js"></script></body></html>`;
  backend = createServer((req: IncomingMessage, res: ServerResponse) => {
    recordAnswer(res);
    backendLog.push(`${req.method} ${req.url}`);
    const relay = /^\/cards\/([\w-]+)\/reveal$/.exec(req.url ?? '');
    if (req.method === 'POST' && relay) {
      revealRoute(req, res, relay[1]!).then(
        () => backendLog.push(`${req.url} ${res.statusCode}`),
        (error: unknown) => {
          backendLog.push(`${req.url} failed: ${String(error)}`);
          res.writeHead(502).end();
        },
      );
      return;
    }
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    if (req.url === '/page.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url === '/probe')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Probe</title><div id="card"></div><script type="module" src="/probe.js"></script>');
    if (req.url === '/probe.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(probe);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));

  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // Every message the host window receives, as it received it.
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const seen: { origin: string; data: string }[] = [];
    Object.assign(window, { __messages: seen });
    window.addEventListener('message', (e) => seen.push({ origin: e.origin, data: JSON.stringify(e.data) }));
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (backend ? backend.close(resolve) : resolve(undefined)));
  await mock?.close();
});

/** The reveal frame of the page. */
function revealFrame(): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(frameUrl));
  if (!frame) throw new Error(`no frame at ${frameUrl}`);
  return frame;
}

describe('the reveal, end to end', () => {
  it('the frame on the other origin shows number, expiry, CVV and cardholder', async () => {
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        backendLog.push(args.map(String).join(' '));
      }),
    );
    try {
      const { port } = backend.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      const frame = page.frameLocator('iframe');
      await frame.locator('[data-field="cvv"] dd').first().waitFor({ timeout: 20_000 });
      const shown = await frame
        .locator('.row')
        .evaluateAll((rows) =>
          rows.map((row) => [(row as HTMLElement).dataset.field, row.querySelector('dt + dd')?.textContent]),
        );
      const mm = String(card.expiryMonth).padStart(2, '0');
      expect(shown).toEqual([
        ['number', card.pan.replace(/(\d{4})(?=\d)/g, '$1 ')],
        ['expiry', `${mm}/${String(card.expiryYear % 100).padStart(2, '0')}`],
        ['cvv', card.cvv],
        ['cardholder', card.cardholderName],
      ]);
      expect(luhnValid(card.pan)).toBe(true);
      // The detector of the checks below finds the card where it is.
      expect(cardIn(JSON.stringify(card), card)).toEqual(expect.arrayContaining(['the card number', 'the CVV']));
      expect(cardIn(shown.flat().join(' '), card).length).toBeGreaterThanOrEqual(3);
      expect(new URL(revealFrame().url()).origin).not.toBe(new URL(page.url()).origin);
      await expect(page.locator('iframe').getAttribute('sandbox')).resolves.toBe('allow-scripts');
      expect(pageErrors).toEqual([]);
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });

  it("no card number, CVV or expiry in the host page's DOM", async () => {
    const dom = await page.evaluate(
      () => `${document.documentElement.outerHTML}\n${document.documentElement.textContent}`,
    );
    expect(dom).toContain('Your card'); // the page is there
    expect(cardIn(dom, card)).toEqual([]);
  });

  it('no card number, CVV or expiry in any message the host window received', async () => {
    const messages = await page.evaluate(
      () => (window as unknown as { __messages: { origin: string; data: string }[] }).__messages,
    );
    // What it did receive: the frame's public key, its report of what it shows, its height; from the sandbox.
    const types = messages.map((m) => (JSON.parse(m.data) as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['card-reveal:ready', 'card-reveal:revealed', 'card-reveal:resize']));
    expect(new Set(messages.map((m) => m.origin))).toEqual(new Set(['null']));
    expect(cardIn(messages.map((m) => m.data).join('\n'), card)).toEqual([]);
  });

  it('no card number, CVV or expiry in anything the backend logged or answered; it answered the JWE', async () => {
    expect(backendLog).toContain(`/cards/${cardId}/reveal 200`);
    const relayed = backendAnswers.find((a) => /^eyJ[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/.test(a));
    expect(relayed, 'the JWE the backend answered').toBeDefined();
    expect(cardIn(backendLog.join('\n'), card)).toEqual([]);
    expect(cardIn(backendAnswers.join('\n'), card)).toEqual([]);
  });

  it("crypto.subtle.exportKey on the frame's private key throws", async () => {
    // The frame's keys, found in its heap through the DevTools protocol (the frame's script exposes none).
    const cdp = await context.newCDPSession(revealFrame());
    const { result: proto } = await cdp.send('Runtime.evaluate', { expression: 'CryptoKey.prototype' });
    const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.objectId! });
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      objectId: objects.objectId!,
      functionDeclaration: `async function () {
        return Promise.all(this.map(async (key) => {
          const format = key.type === 'private' ? 'pkcs8' : 'spki';
          try { await crypto.subtle.exportKey(format, key); return key.type + ': exported'; }
          catch (error) { return key.type + ': ' + error.name; }
        }));
      }`,
      awaitPromise: true,
      returnByValue: true,
    });
    const outcomes = result.value as string[];
    expect(outcomes).toContain('private: InvalidAccessError');
    expect(outcomes.filter((o) => o.startsWith('private:'))).not.toContain('private: exported');
  });

  it('copies a field from inside the frame, and the host learns only which field', async () => {
    const button = page.frameLocator('iframe').getByRole('button', { name: 'Copy card number' });
    await button.click();
    // The label changes once the clipboard write has settled: wait for it, and for the frame's message.
    await page
      .frameLocator('iframe')
      .getByRole('button', { name: 'Copy card number' })
      .filter({ hasText: 'Copied' })
      .waitFor();
    const copied = JSON.stringify({ type: 'card-reveal:copied', field: 'number' });
    await page.waitForFunction(
      (want) => (window as unknown as { __messages: { data: string }[] }).__messages.some((m) => m.data === want),
      copied,
    );
    const messages = await page.evaluate(() =>
      (window as unknown as { __messages: { data: string }[] }).__messages.map((m) => m.data),
    );
    expect(messages).toContain(copied);
  });
});

describe('what mountCardReveal and the frame refuse', () => {
  type Reveal = typeof import('card-issuing-sdk/reveal');
  let probe: Page;
  beforeAll(async () => {
    probe = await context.newPage();
    const { port } = backend.address() as AddressInfo;
    await probe.goto(`http://127.0.0.1:${port}/probe`);
    await probe.waitForFunction(() => 'reveal' in window);
  });

  it("a frame on the page's own origin (REVEAL_FRAME_SAME_ORIGIN)", async () => {
    const code = await probe.evaluate(() => {
      const { mountCardReveal } = (window as unknown as { reveal: Reveal }).reveal;
      try {
        mountCardReveal(document.body, { frameUrl: '/frame.html', fetchEncrypted: async () => '' });
        return 'mounted';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    });
    expect(code).toBe('REVEAL_FRAME_SAME_ORIGIN');
  });

  it('messages from any window but its frame; a JWE for another key (CARD_DETAILS_DECRYPTION_FAILED)', async () => {
    const otherKey = await exportPublicKey(await generateCardKeyPair());
    const forOtherKey = await encryptCardDetails(card, otherKey);
    const outcome = await probe.evaluate(
      async ([url, jwe]) => {
        const { mountCardReveal } = (window as unknown as { reveal: Reveal }).reveal;
        const asked: string[] = [];
        const reveal = mountCardReveal(document.querySelector<HTMLElement>('#card')!, {
          frameUrl: url,
          fetchEncrypted: async (publicKey) => {
            asked.push(publicKey);
            return jwe;
          },
        });
        // The page's own window, not the frame: both must be ignored.
        window.postMessage({ type: 'card-reveal:ready', publicKey: 'A'.repeat(400) }, '*');
        window.postMessage({ type: 'card-reveal:revealed', fields: ['number'] }, '*');
        const settled = await reveal.revealed.then(
          (fields) => `revealed ${fields.join()}`,
          (error: { code?: string }) => error.code,
        );
        return { asked, settled };
      },
      [frameUrl, forOtherKey] as const,
    );
    expect(outcome.settled).toBe('CARD_DETAILS_DECRYPTION_FAILED');
    expect(outcome.asked).toHaveLength(1);
    expect(outcome.asked[0]).not.toBe('A'.repeat(400));
    await expect(probe.frameLocator('#card iframe').locator('.status').textContent()).resolves.toBe(
      'The card details could not be shown.',
    );
  });

  it('the frame opened on its own shows nothing and makes no key', async () => {
    const alone = await context.newPage();
    await alone.goto(frameUrl);
    await expect(alone.locator('.status').textContent()).resolves.toMatch(/only inside mountCardReveal/);
    await alone.close();
  });
});

describe("the inspector's card view", () => {
  it('shows a card through the reveal frame (the mock under its other loopback name); the page gets only the JWE', async () => {
    const inspector = await context.newPage();
    const errors: string[] = [];
    inspector.on('pageerror', (e) => errors.push(e.message));
    const received: string[] = [];
    inspector.on('response', async (response) => {
      if (response.url().includes('/__mock/cards/')) received.push(await response.text());
    });
    const response = await inspector.goto(`${mock.url}/__mock/ui`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-src http://localhost:${new URL(mock.url).port}/__mock/reveal`);
    await inspector.getByRole('tab', { name: /^Server2Server/ }).click();
    // What the page shows before the reveal: a status or a count equal to the CVV is no leak of it.
    const before = cardIn(await inspector.evaluate(() => document.documentElement.outerHTML), card);
    const last4 = card.pan.slice(-4);
    await inspector.getByRole('button', { name: `Show details of card •••• ${last4}` }).click();
    const frame = inspector.frameLocator(`[data-reveal="${cardId}"] iframe`);
    await expect(frame.locator('[data-field="number"] dt + dd').textContent({ timeout: 20_000 })).resolves.toBe(
      card.pan.replace(/(\d{4})(?=\d)/g, '$1 '),
    );
    await expect(frame.locator('[data-field="cvv"] dt + dd').textContent()).resolves.toBe(card.cvv);
    // The inspector page itself never holds the card: its DOM, and what it fetched for the reveal (the JWE).
    const dom = await inspector.evaluate(() => document.documentElement.outerHTML);
    expect(before.filter((found) => found !== 'the CVV')).toEqual([]);
    expect(cardIn(dom, card).filter((found) => found !== 'the CVV' || !before.includes(found))).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^\{"encryptedDetails":"eyJ/);
    expect(cardIn(received.join('\n'), card)).toEqual([]);
    await inspector.getByRole('button', { name: `Hide details of card •••• ${last4}` }).click();
    await expect(inspector.locator(`[data-reveal="${cardId}"]`).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await inspector.close();
  });
});

describe('docs/sdk.md', () => {
  it.each(['relay', 'page'])('shows the %s block the test runs', (name) => {
    const fixture = repoPath(`test/browser/fixtures/reveal/${name === 'page' ? 'main' : name}.ts`);
    const here = ownBlock(`file://${fixture}`, `docs/sdk.md ${name}`);
    expect(here).toBeDefined();
    expect(
      codeBlockOf(repoPath('docs/sdk.md'), name === 'relay' ? 'Relaying card details' : 'Revealing in a page'),
    ).toBe(here);
    expect(readFileSync(fixture, 'utf8')).toContain(here!);
  });
});
