import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as jose from 'jose';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, bundlePageScript, chromePath } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';

// Card key pairs in Chromium (Debian's, through playwright-core): made by Web Crypto natively, and, for comparison,
// by the node-forge path the SDK takes where crypto.subtle is absent. The page is the SDK's root entry bundled for
// the browser, served from 127.0.0.1 (a secure context, so crypto.subtle exists). The test checks what each path
// makes and that its JWEs cross over to Node (jose); it prints the times and asserts none of them (no test passes or
// fails by timing; `npm run bench:sdk` is where speed is compared).

const details = {
  pan: '4000123412344246',
  expiryMonth: 11,
  expiryYear: 2029,
  cvv: '123',
  cardholderName: 'ADA LOVELACE',
};

const PAGE_SCRIPT = `
  import { cardKeyBits, decryptCardDetails, exportPublicKey, generateCardKeyPair } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
  import { encryptCardDetails } from ${JSON.stringify(repoPath('sdk/src/server.ts'))};
  const details = ${JSON.stringify(details)};
  /** Makes \`count\` key pairs and times each; then a round trip with the last one. */
  (window as any).keys = async (count: number) => {
    const times: number[] = [];
    let pair;
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      pair = await generateCardKeyPair();
      times.push(performance.now() - started);
    }
    const spki = await exportPublicKey(pair!);
    const native = pair!.privateKey instanceof CryptoKey;
    const roundTrip = await decryptCardDetails(await encryptCardDetails(details, spki), pair!);
    return {
      times, native, bits: cardKeyBits(pair!), spki, same: JSON.stringify(roundTrip) === JSON.stringify(details),
      extractable: native ? (pair!.privateKey as CryptoKey).extractable : undefined,
      usages: native ? (pair!.privateKey as CryptoKey).usages : undefined,
    };
  };
  /** The same without Web Crypto, as in jsdom or React Native: the node-forge path. */
  (window as any).forgeKeys = async (count: number) => {
    const real = window.crypto;
    Object.defineProperty(window, 'crypto', { value: { getRandomValues: (a: Uint8Array) => real.getRandomValues(a) }, configurable: true });
    try {
      return { ...(await (window as any).keys(count)), subtleWasHidden: window.crypto.subtle === undefined };
    } finally {
      Object.defineProperty(window, 'crypto', { value: real, configurable: true });
    }
  };
  /** Decrypts a JWE made elsewhere (by jose in Node) with a fresh native pair's private key. */
  (window as any).pairForNode = async () => {
    const pair = await generateCardKeyPair();
    (window as any).pair = pair;
    return exportPublicKey(pair);
  };
  (window as any).decryptHere = (jwe: string) => decryptCardDetails(jwe, (window as any).pair);
`;

let server: Server;
let origin: string;
let context: BrowserContext;
let page: Page;
let userDataDir: string;

beforeAll(async () => {
  const script = await bundlePageScript(PAGE_SCRIPT);
  server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>card keys</title><script src="/app.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  userDataDir = mkdtempSync(join(tmpdir(), 'card-keys-chromium-'));
  // Flags as in page.test.ts: no background networking (a closed network refuses it), no sandbox (CI runs as root).
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    headless: true,
    args: ['--headless', ...CHROMIUM_ARGS],
  });
  page = await context.newPage();
  await page.goto(origin);
  await page.waitForFunction(() => typeof (window as { keys?: unknown }).keys === 'function');
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await new Promise((resolve) => server?.close(resolve));
});

type KeysResult = {
  times: number[];
  native: boolean;
  bits: number;
  spki: string;
  same: boolean;
  extractable?: boolean;
  usages?: string[];
  subtleWasHidden?: boolean;
};
const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('card key pairs in Chromium', () => {
  let native: KeysResult;

  it('are made natively by Web Crypto: non-extractable RSA-OAEP-256 CryptoKeys that round-trip a JWE', async () => {
    expect(await page.evaluate(() => window.isSecureContext && typeof crypto.subtle?.generateKey === 'function')).toBe(
      true,
    );
    native = await page.evaluate(
      (count) => (window as unknown as { keys(n: number): Promise<KeysResult> }).keys(count),
      10,
    );
    expect(native).toMatchObject({ native: true, bits: 2048, same: true, extractable: false });
    expect(native.usages).toEqual(expect.arrayContaining(['decrypt']));
    // Node reads the public key the browser made (jose imports it as SPKI for RSA-OAEP-256).
    const pem = `-----BEGIN PUBLIC KEY-----\n${Buffer.from(native.spki, 'base64url').toString('base64')}\n-----END PUBLIC KEY-----`;
    await expect(jose.importSPKI(pem, 'RSA-OAEP-256')).resolves.toBeDefined();
  });

  it("decrypts in the browser what jose encrypted in Node to the browser's key", async () => {
    const spki = await page.evaluate(() => (window as unknown as { pairForNode(): Promise<string> }).pairForNode());
    const publicKey = await jose.importSPKI(
      `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki, 'base64url').toString('base64')}\n-----END PUBLIC KEY-----`,
      'RSA-OAEP-256',
    );
    const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'application/json' })
      .encrypt(publicKey);
    expect(
      await page.evaluate(
        (text) => (window as unknown as { decryptHere(j: string): Promise<unknown> }).decryptHere(text),
        jwe,
      ),
    ).toEqual(details);
  });

  it('without crypto.subtle the page takes the node-forge path, and the times are printed side by side', async () => {
    const forge = await page.evaluate(
      (count) => (window as unknown as { forgeKeys(n: number): Promise<KeysResult> }).forgeKeys(count),
      3,
    );
    expect(forge).toMatchObject({ native: false, bits: 2048, same: true, subtleWasHidden: true });
    const nativeMedian = medianOf(native.times);
    const forgeMedian = medianOf(forge.times);
    // Reported, not asserted: key generation searches primes at random and the machine is shared.
    console.log(
      `Chromium ${context.browser()?.version() ?? ''}: RSA-2048 card key pair, Web Crypto median ${nativeMedian.toFixed(1)} ms ` +
        `(${native.times.length} pairs: ${native.times.map((t) => t.toFixed(0)).join(', ')}), node-forge median ${forgeMedian.toFixed(0)} ms ` +
        `(${forge.times.length} pairs), ${(forgeMedian / nativeMedian).toFixed(0)}× slower.`,
    );
  });
});
