import { defineConfig, type Options } from 'tsup';

// card-issuing-mock: the library entries (contract section 1) and the test-runner setups, ESM and CJS with
// declarations, and the CLI (ESM only; its #! line is the first line of src/cli.ts, which esbuild keeps).
// card-issuing-sdk and zod are dependencies shared with the SDK and stay external, so one copy of each (and of every
// SDK class) exists at run time; so do the runners' peers (vitest, jest-environment-jsdom).
const library = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  browser: 'src/browser.ts',
  control: 'src/control-client.ts',
  'browser-server': 'src/browser-server.ts',
  vitest: 'src/vitest.ts',
  jest: 'src/jest.ts',
  'jest-environment-jsdom': 'src/jest-environment-jsdom.ts',
  playwright: 'src/playwright.ts',
};
const shared: Options = {
  entry: library,
  dts: { entry: library },
  sourcemap: true,
  target: 'es2023',
  platform: 'neutral',
  // import.meta.url in CommonJS (the jsdom environment finds the project's jest-environment-jsdom from it).
  shims: true,
};
const peers = [/^card-issuing-sdk/, 'zod', 'vitest', 'jest-environment-jsdom', '@playwright/test', /^node:/];

export default defineConfig([
  // ESM: msw stays external too, the consumer's own copy. The CLI is built with the library, so that it shares its
  // chunks instead of carrying a second copy of the mock.
  { ...shared, entry: { ...library, cli: 'src/cli.ts' }, format: ['esm'], external: ['msw', ...peers] },
  // CJS: msw 3 ships ESM only, which Jest's CommonJS runtime cannot load (and require(esm) needs Node 22.12+), so
  // the CommonJS build carries msw's core inside it. Splitting puts what the entries share (the mock, msw) in chunks,
  // so every class exists once in the CommonJS build as well. msw/browser stays external: only a bundler for the
  // browser loads it, resolving its browser build (bundled here it would get the Node interceptors), and msw refuses
  // it in Node anyway.
  { ...shared, format: ['cjs'], splitting: true, noExternal: [/^msw$/], external: ['msw/browser', ...peers] },
  // The inspector page (`/__mock/ui` of the standalone server): one script and one stylesheet with Preact bundled in,
  // so that the page works offline and ships in dist/inspector/ with the package.
  {
    entry: { 'inspector/app': 'src/inspector/page/main.tsx' },
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
    esbuildOptions(options) {
      options.jsx = 'automatic';
      options.jsxImportSource = 'preact';
      options.legalComments = 'none';
    },
  },
]);
