import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
});
