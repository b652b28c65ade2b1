import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { lazyExternal } from '../helpers/lazy-external';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

// The root entry must run in browsers: bundled for `platform: 'browser'` with nothing external, esbuild refuses any
// Node built-in it cannot replace ("Could not resolve ..."), and the metafile shows what was replaced. The only
// replacements allowed are those a package's own `browser` field declares (node-forge maps `crypto` to false and
// then uses Web Crypto or its pure-JavaScript PRNG).
const scratch = mkdtempSync(join(repoPath('test/sdk'), '.bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bundle = (entry: string) =>
  esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2023',
    write: false,
    metafile: true,
    minify: true,
    logLevel: 'silent',
  });

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
    expect(inputs).toContain('sdk/src/card-details/decrypt.ts');
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
    // The bundle as a browser gets it, run in a V8 context that has only web globals: Web Crypto for the card keys
    // and signing; then again with a crypto that has no `subtle` (as in jsdom or React Native), where node-forge
    // takes its browser path (pure-JavaScript key generation, a PRNG seeded from getRandomValues).
    const entry = join(scratch, 'browser-run.ts');
    writeFileSync(
      entry,
      `import { cardKeyBits, createCardIssuingClient, decryptCardDetails, exportPublicKey, generateCardKeyPair, signRequest } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
      import { encryptCardDetails } from ${JSON.stringify(repoPath('sdk/src/server.ts'))};
      (globalThis as any).run = async () => {
        const pair = await generateCardKeyPair();
        const details = { pan: '4242424242424242', expiryMonth: 1, expiryYear: 2030, cvv: '123', cardholderName: 'X' };
        const roundTrip = await decryptCardDetails(await encryptCardDetails(details, await exportPublicKey(pair)), pair);
        const native = typeof (pair.publicKey as { n?: unknown }).n === 'undefined';
        let signed = 'no subtle';
        if (globalThis.crypto.subtle) {
          signed = (await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's', timestamp: 1, nonce: '0'.repeat(32) })).authorization;
        }
        const client = createCardIssuingClient({ baseUrl: 'https://x.test', apiKey: 'k', apiSecret: 's' });
        return { bits: cardKeyBits(pair), native, same: JSON.stringify(roundTrip) === JSON.stringify(details), authorization: signed, methods: Object.keys(client.s2s.cards).length };
      };`,
    );
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2023',
      write: false,
      logLevel: 'silent',
    });
    const web = {
      TextEncoder,
      TextDecoder,
      URL,
      Headers,
      Request,
      Response,
      fetch,
      AbortController,
      AbortSignal,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      btoa,
      atob,
      performance,
    };
    const runIn = async (crypto: object) => {
      const context = vm.createContext({ ...web, crypto });
      Object.assign(context, { globalThis: context, window: context, self: context });
      vm.runInContext(result.outputFiles[0]!.text, context);
      expect(vm.runInContext('typeof process + typeof require', context)).toBe('undefinedundefined');
      return (context.run as () => Promise<Record<string, unknown>>)();
    };
    expect(await runIn(globalThis.crypto)).toEqual({
      bits: 2048,
      native: true,
      same: true,
      // The same signature as in Node (test/sdk/signing.test.ts checks the algorithm against openssl vectors).
      authorization: 'HMAC-SHA256 k:9bJzpPOrgj0LtY1pxjJSEXHujmno/7BJio6YGolFVSI=:00000000000000000000000000000000:1',
      methods: 8,
    });
    expect(
      await runIn({
        getRandomValues: <T extends ArrayBufferView>(array: T) =>
          globalThis.crypto.getRandomValues(array as unknown as Uint8Array<ArrayBuffer>) as unknown as T,
      }),
    ).toEqual({
      bits: 2048,
      native: false,
      same: true,
      authorization: 'no subtle',
      methods: 8,
    });
  });
});

describe('what a page loads first, and what it loads later with import()', () => {
  // Every module the SDK loads lazily (validation, the problem+json check, card details, node-forge) is reached
  // through import(). Bundled with those imports left external, the bundle is exactly what a page loads before
  // its first call; with one of them inlined, what that lazy part adds. With code splitting (bench/split-bundles.ts)
  // the same holds as long as the root entry imports no module the client loads with import().
  async function page(source: string, inline: string[] = []) {
    const entry = join(scratch, `page-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(entry, source.replace('SDK', JSON.stringify(repoPath('sdk/src/index.ts'))));
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2023',
      write: false,
      metafile: true,
      minify: true,
      logLevel: 'silent',
      plugins: [lazyExternal(inline)],
    });
    const [output] = Object.values(result.metafile.outputs);
    // A module counts where it puts bytes (the metafile also lists modules that tree shaking emptied).
    const modules = Object.entries(output!.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file);
    return {
      modules,
      lazyImports: output!.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
      text: result.outputFiles[0]!.text,
    };
  }
  const has = (modules: string[], fragment: string) => modules.some((m) => m.includes(fragment));
  const clientPage = `import { createCardIssuingClient } from SDK;
    (globalThis as any).client = createCardIssuingClient({ baseUrl: 'https://x.test', apiKey: 'k', apiSecret: 's' });`;

  it('a page calling only createCardIssuingClient loads no zod, no card-detail crypto, no forge, no flows before its first call', async () => {
    const { modules, lazyImports } = await page(clientPage);
    expect(has(modules, 'sdk/src/client.ts')).toBe(true);
    expect(has(modules, 'node_modules/ky/')).toBe(true);
    for (const absent of [
      'node_modules/zod/',
      'sdk/generated/zod.gen.ts',
      'sdk/src/flows/',
      'node_modules/node-forge/',
    ]) {
      expect(has(modules, absent), absent).toBe(false);
    }
    // No card-details code: getEncryptedDetails' relay (its compact-JWE check) loads on first use.
    expect(modules.filter((m) => m.includes('sdk/src/card-details/'))).toEqual([]);
    // The generated functions have no validators of their own (the client's are ./validation, loaded by ./validation-chunk).
    expect([...new Set(lazyImports)].sort()).toEqual([
      './card-details/decrypt',
      './card-details/keys',
      './card-details/relay',
      './error-response',
      './validation-chunk',
    ]);
  });

  it("carries the operation table's routes and client methods, not the server's rows (statuses, schema names)", async () => {
    // operations.gen.ts holds both; the server's `operationTable` is marked pure, so a client's page drops it.
    const { text } = await page(clientPage);
    expect(text.includes('/s2s/users/{userId}') && text.includes('s2s.users.get'), 'the routes and methods').toBe(true);
    expect(text.includes('zGetUserResponse'), "the server's rows").toBe(false);
  });

  it('validation brings compiled checks, zod and the schemas only with a refusal; card details bring their crypto but not forge; forge comes only from card details', async () => {
    // Validation brings each operation's loader, not zod; an operation's first call its compiled checks, no others.
    const validation = await page(clientPage, ['./validation-chunk']);
    expect(has(validation.modules, 'sdk/generated/zod/checks.gen.ts')).toBe(true);
    expect(has(validation.modules, 'node_modules/zod/')).toBe(false);
    const validated = await page(clientPage, ['./validation-chunk', './checks/getUser.gen']);
    expect(has(validated.modules, 'sdk/generated/zod/checks/getUser.gen.ts')).toBe(true);
    expect(has(validated.modules, 'sdk/generated/zod/checks/getApproval.gen.ts')).toBe(false);
    // A page whose calls pass never loads zod or the schemas.
    expect(has(validated.modules, 'node_modules/zod/')).toBe(false);
    expect(has(validated.modules, 'sdk/generated/zod/operations/getUser.gen.ts')).toBe(false);
    // The first refusal brings zod and the operation's schemas: its own module, with a copy of the schemas few
    // operations reach (zUser), the rest from one module; then English messages.
    const refused = await page(clientPage, [
      './validation-chunk',
      './checks/getUser.gen',
      '../operations/getUser.gen',
      './zod-issues',
    ]);
    expect(has(refused.modules, 'node_modules/zod/v4/core/schemas.js')).toBe(true);
    expect(has(refused.modules, 'sdk/generated/zod/operations/getUser.gen.ts')).toBe(true);
    expect(has(refused.modules, 'sdk/generated/zod/shared.gen.ts')).toBe(true);
    expect(has(refused.modules, 'sdk/generated/zod/operations/getApproval.gen.ts')).toBe(false);
    expect(has(refused.modules, 'sdk/generated/zod/zUser.gen.ts')).toBe(false);
    expect(has(refused.modules, 'sdk/generated/zod.gen.ts')).toBe(false);
    expect(has(refused.modules, 'node_modules/zod/v4/locales/en.js')).toBe(false);
    const failed = await page(clientPage, [
      './validation-chunk',
      './checks/getUser.gen',
      '../operations/getUser.gen',
      './zod-issues',
      './zod-english',
    ]);
    expect(has(failed.modules, 'node_modules/zod/v4/locales/en.js')).toBe(true);
    const details = await page(clientPage, ['./card-details/decrypt', './card-details/keys']);
    expect(has(details.modules, 'sdk/src/card-details/decrypt.ts')).toBe(true);
    expect(has(details.modules, 'node_modules/node-forge/')).toBe(false);
    expect(details.lazyImports).toContain('./forge');
    const forge = await page(clientPage, ['./card-details/decrypt', './card-details/keys', './forge']);
    expect(has(forge.modules, 'node_modules/node-forge/lib/rsa.js')).toBe(true);
  });

  it('the generated schemas are tree-shakeable: a page that uses one keeps that one', async () => {
    const bundle = async (source: string) =>
      (
        await esbuild.build({
          stdin: {
            contents: source.replace('SDK', JSON.stringify(repoPath('sdk/src/schemas.ts'))),
            resolveDir: scratch,
            loader: 'ts',
          },
          bundle: true,
          minify: true,
          write: false,
          platform: 'browser',
          format: 'esm',
          logLevel: 'silent',
        })
      ).outputFiles[0]!.text;
    // errorFromResponse uses zProblem alone; the whole `schemas` namespace holds every schema of the spec.
    const one = await bundle(`import { errorFromResponse } from SDK; (globalThis as any).f = errorFromResponse;`);
    const all = await bundle(`import { schemas } from SDK; (globalThis as any).all = schemas;`);
    const registrationPhone = '[1-9][0-9]{6,14}';
    expect(all).toContain(registrationPhone);
    expect(one).not.toContain(registrationPhone);
    expect(all.length - one.length).toBeGreaterThan(20_000);
  });
});
