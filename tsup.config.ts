import { defineConfig } from 'tsup';

// The package's four entries (contract section 1) plus the CLI. ESM and CJS with declarations for the library
// entries; `npm run build` empties dist/ first. msw stays external (an optional peer), so the root entry never loads it.
export default defineConfig([
  {
    entry: {
      index: 'sdk/src/index.ts',
      mock: 'mock-server/src/index.ts',
      'mock-node': 'mock-server/src/node.ts',
      'mock-browser': 'mock-server/src/browser.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2023',
    platform: 'neutral',
    external: ['msw', 'ky', 'zod', 'node-forge', /^node:/],
  },
  {
    entry: { cli: 'mock-server/src/cli.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    external: ['msw', 'ky', 'zod', 'node-forge'],
  },
]);
