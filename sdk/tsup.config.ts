import { defineConfig, type Options } from 'tsup';

// card-issuing-sdk: the root entry and the server subpath, ESM and CJS with declarations; `npm run build`
// empties dist/ first.
const shared: Options = {
  entry: { index: 'src/index.ts', server: 'src/server.ts' },
  dts: true,
  sourcemap: true,
  target: 'es2023',
  platform: 'neutral',
};

export default defineConfig([
  // ESM: every dependency stays external (ky, zod, node-forge), one copy of each in the consumer's graph.
  { ...shared, format: ['esm'], external: ['ky', 'zod', 'node-forge', /^node:/] },
  // CJS: ky ships ESM only. Through require(esm) its default export arrives as the namespace object (esbuild's
  // __toESM then calls the namespace: "kyInstance is not a function"), and Jest's CommonJS runtime cannot load it at
  // all; so ky is bundled into the CJS build. zod and node-forge ship CommonJS and stay external. Splitting puts what
  // the entries share in chunks, so every class exists once (an error from /server is an instance of the root's).
  { ...shared, format: ['cjs'], splitting: true, noExternal: ['ky'], external: ['zod', 'node-forge', /^node:/] },
]);
