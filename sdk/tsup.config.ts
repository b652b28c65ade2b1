import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { FRAME_CSS, frameHtml } from './src/reveal/frame-page';

// card-issuing-sdk: the root entry and the server subpath, ESM and CJS with declarations; `npm run build`
// empties dist/ first.
const shared: Options = {
  entry: { index: 'src/index.ts', server: 'src/server.ts', schemas: 'src/schemas.ts', reveal: 'src/reveal/index.ts' },
  dts: true,
  sourcemap: true,
  target: 'es2023',
  platform: 'neutral',
};

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** dist/reveal/frame.html: the frame's script (built just before) inline, with the CSP hashes of script and style. */
function writeFrameHtml(): void {
  const script = readFileSync('dist/reveal/frame.js', 'utf8').trim();
  if (/<\/script/i.test(script)) throw new Error('The frame script contains </script and cannot be inlined.');
  writeFileSync('dist/reveal/frame.html', frameHtml(script, { script: cspHash(script), style: cspHash(FRAME_CSS) }));
  rmSync('dist/reveal/frame.js');
}

/**
 * The CJS build requires zod's English messages from zod's CommonJS file: src/core/zod-english imports
 * `zod/v4/locales/en.js`, which is ESM (require(esm) needs Node 22.12), and tsup keeps zod external before any alias.
 */
function requireZodEnglishCjs(): void {
  const from = "require('zod/v4/locales/en.js')";
  const files = readdirSync('dist').filter(
    (f) => f.endsWith('.cjs') && readFileSync(`dist/${f}`, 'utf8').includes(from),
  );
  if (files.length !== 1) throw new Error(`Expected one CJS chunk requiring ${from}, found ${files.length}.`);
  const file = `dist/${files[0]}`;
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, "require('zod/v4/locales/en.cjs')"));
}

export default defineConfig([
  // ESM: every dependency stays external (ky, zod, node-forge), one copy of each in the consumer's graph.
  { ...shared, format: ['esm'], external: ['ky', 'zod', 'node-forge', /^node:/] },
  // CJS: ky ships ESM only. Through require(esm) its default export arrives as the namespace object (esbuild's
  // __toESM then calls the namespace: "kyInstance is not a function"), and Jest's CommonJS runtime cannot load it at
  // all; so ky is bundled into the CJS build. zod and node-forge ship CommonJS and stay external. Splitting puts what
  // the entries share in chunks, so every class exists once (an error from /server is an instance of the root's).
  {
    ...shared,
    format: ['cjs'],
    splitting: true,
    noExternal: ['ky'],
    external: ['zod', 'node-forge', /^node:/],
    // tsup turns the split ESM into CommonJS with sucrase, which renames each class expression (`_class3`): the
    // error classes keep their names (`ValidationError.name`, stack traces, `constructor.name`) only with keepNames.
    esbuildOptions(options) {
      options.keepNames = true;
    },
    onSuccess: async () => requireZodEnglishCjs(),
  },
  // The reveal frame (`card-issuing-sdk/reveal/frame.html`): one self-contained page, its script (the Web Crypto
  // decryption, zod's check of the details) bundled and inlined, to serve as it is from an origin of one's choosing.
  {
    entry: { 'reveal/frame': 'src/reveal/frame.ts' },
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    dts: false,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
    esbuildOptions(options) {
      options.legalComments = 'none';
    },
    onSuccess: async () => writeFrameHtml(),
  },
]);
