import { defineConfig, type Options } from 'tsup';

// card-issuing-mock: the library entries (contract section 1) and the test-runner setups, ESM and CJS with
// declarations, plus the CLI. card-issuing-sdk and zod are dependencies shared with the SDK and stay external, so
// one copy of each (and of every SDK class) exists at run time; so do the runners' peers (vitest,
// jest-environment-jsdom).
const shared: Options = {
  entry: {
    index: 'src/index.ts',
    node: 'src/node.ts',
    browser: 'src/browser.ts',
    vitest: 'src/vitest.ts',
    jest: 'src/jest.ts',
    'jest-environment-jsdom': 'src/jest-environment-jsdom.ts',
  },
  dts: true,
  sourcemap: true,
  target: 'es2023',
  platform: 'neutral',
  // import.meta.url in CommonJS (the jsdom environment finds the project's jest-environment-jsdom from it).
  shims: true,
};
const peers = [/^card-issuing-sdk/, 'zod', 'vitest', 'jest-environment-jsdom', /^node:/];

export default defineConfig([
  // ESM: msw stays external too, the consumer's own copy.
  { ...shared, format: ['esm'], external: ['msw', ...peers] },
  // CJS: msw 3 ships ESM only, which Jest's CommonJS runtime cannot load (and require(esm) needs Node 22.12+), so
  // the CommonJS build carries msw inside it. Splitting puts what the entries share (the mock, msw) in chunks, so
  // every class exists once in the CommonJS build as well.
  { ...shared, format: ['cjs'], splitting: true, noExternal: ['msw'], external: peers },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    external: ['msw', ...peers],
  },
]);
