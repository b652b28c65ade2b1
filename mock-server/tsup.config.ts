import { defineConfig } from 'tsup';

// card-issuing-mock: three library entries (contract section 1), ESM and CJS with declarations, plus the CLI.
// card-issuing-sdk and msw stay external (dependencies), so one copy of every SDK class exists at run time.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', node: 'src/node.ts', browser: 'src/browser.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2023',
    platform: 'neutral',
    external: ['msw', /^card-issuing-sdk/, /^node:/],
    // node.cjs finds the inspector page's files beside it through import.meta.url.
    shims: true,
  },
  {
    // The inspector page (`/__mock/ui` of the standalone server): one script and one stylesheet with Preact
    // bundled in, so the page works offline and ships in dist/inspector/ with the package.
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
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    external: ['msw', /^card-issuing-sdk/],
  },
]);
