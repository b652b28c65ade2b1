import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

// The root entry must run in browsers: bundled for `platform: 'browser'` with nothing external, esbuild refuses any
// Node built-in it cannot replace ("Could not resolve ..."), and the metafile shows what was replaced. The only
// replacements allowed are those a package's own `browser` field declares (node-forge maps `crypto` to false and
// then uses Web Crypto or its pure-JavaScript PRNG).
const scratch = mkdtempSync(join(repoPath('test/sdk'), '.bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bundle = (entry: string) =>
  esbuild.build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', target: 'es2023', write: false, metafile: true, minify: true, logLevel: 'silent' });

describe('the root entry in a browser bundle', () => {
  it('bundles for platform browser with no Node built-in', async () => {
    const result = await bundle(repoPath('sdk/src/index.ts'));
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    const replaced = inputs.filter((i) => i.startsWith('(disabled):'));
    // Declared by node-forge's package.json "browser" field, nothing else.
    expect(replaced).toEqual(['(disabled):crypto']);
    const importers = Object.entries(result.metafile.inputs)
      .filter(([, input]) => input.imports.some((i) => i.path.startsWith('(disabled):')))
      .map(([file]) => file);
    expect(importers.every((file) => file.startsWith('node_modules/node-forge/'))).toBe(true);
    // Nothing is left for the browser to resolve, and no sdk source imports a node: module.
    const [output] = Object.values(result.metafile.outputs);
    expect(output!.imports).toEqual([]);
    const sdkImports = Object.entries(result.metafile.inputs)
      .filter(([file]) => file.startsWith('sdk/'))
      .flatMap(([, input]) => input.imports.map((i) => i.original ?? i.path));
    expect(sdkImports.filter((p) => p.startsWith('node:'))).toEqual([]);
    expect(inputs).toContain('sdk/src/client.ts');
    expect(inputs).toContain('sdk/src/card-details.ts');
    expect(inputs.some((i) => i.startsWith('node_modules/msw/'))).toBe(false);
  });

  it('would catch a Node built-in (negative control)', async () => {
    for (const specifier of ['node:crypto', 'crypto', 'node:fs']) {
      const entry = join(scratch, `uses-${specifier.replace(':', '-')}.ts`);
      writeFileSync(entry, `import * as m from '${specifier}';\nexport const used = m;\n`);
      await expect(bundle(entry)).rejects.toThrow(/Could not resolve/);
    }
  });

  it('runs in a browser-like context (no process, no require): key pair, JWE round trip, signing, client', async () => {
    // The bundle as a browser gets it, run in a V8 context that has only web globals: node-forge takes its
    // browser path (pure-JavaScript key generation, Web Crypto-seeded PRNG) and signing uses Web Crypto.
    const entry = join(scratch, 'browser-run.ts');
    writeFileSync(
      entry,
      `import { createCardIssuingClient, decryptCardDetails, encryptCardDetails, exportPublicKey, generateCardKeyPair, signRequest } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
      (globalThis as any).run = async () => {
        const pair = generateCardKeyPair();
        const details = { pan: '4242424242424242', expiryMonth: 1, expiryYear: 2030, cvv: '123', cardholderName: 'X' };
        const roundTrip = decryptCardDetails(encryptCardDetails(details, exportPublicKey(pair)), pair);
        const signed = await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's', timestamp: 1, nonce: '0'.repeat(32) });
        const client = createCardIssuingClient({ baseUrl: 'https://x.test', apiKey: 'k', apiSecret: 's' });
        return { bits: pair.publicKey.n.bitLength(), same: JSON.stringify(roundTrip) === JSON.stringify(details), authorization: signed.authorization, methods: Object.keys(client.s2s.cards).length };
      };`,
    );
    const result = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'iife', target: 'es2023', write: false, logLevel: 'silent' });
    const web = { crypto: globalThis.crypto, TextEncoder, TextDecoder, URL, Headers, Request, Response, fetch, AbortController, AbortSignal, setTimeout, clearTimeout, btoa, atob, performance };
    const context = vm.createContext({ ...web });
    Object.assign(context, { globalThis: context, window: context, self: context });
    vm.runInContext(result.outputFiles[0]!.text, context);
    expect(vm.runInContext('typeof process + typeof require', context)).toBe('undefinedundefined');
    const outcome = await (context.run as () => Promise<Record<string, unknown>>)();
    expect(outcome).toEqual({
      bits: 2048,
      same: true,
      // The same signature as in Node (test/sdk/signing.test.ts checks the algorithm against openssl vectors).
      authorization: 'HMAC-SHA256 k:9bJzpPOrgj0LtY1pxjJSEXHujmno/7BJio6YGolFVSI=:00000000000000000000000000000000:1',
      methods: 7,
    });
  });
});
