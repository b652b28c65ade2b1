import { defineConfig } from 'tsup';

// card-issuing-sdk: the root entry and the mock's internal subpath, ESM and CJS with declarations. Dependencies
// (ky, zod, node-forge) stay external; `npm run build` empties dist/ first.
export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'es2023',
  platform: 'neutral',
  external: ['ky', 'zod', 'node-forge', /^node:/],
});
