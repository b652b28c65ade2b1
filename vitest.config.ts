import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The packages' names resolve to their sources (tsconfig.json paths): a test that imports `card-issuing-sdk` and
  // one that imports a source file share one copy of each module. Import by name where the name is public.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    // The contract suite, the browser test and the consumer matrix have commands of their own (npm run
    // test:contract, test:browser, test:consumers), which .ci/run runs after npm test.
    exclude: ['test/contract/**', 'test/browser/**', 'test/consumers/**', 'node_modules/**'],
    testTimeout: 30_000,
    // Speed on two cores (npm test must stay under 90 s): worker threads, reused from one file to the next instead of
    // a fresh process and module graph per file, which cost about a third of the suite's CPU. So a test file puts back
    // what it changes on the global object (fetch, crypto, timers, env) in its own after-hooks, as the files here do.
    pool: 'threads',
    isolate: false,
    // npm run bench: speed is measured here, never asserted in a timed test.
    benchmark: { include: ['bench/**/*.bench.ts'] },
    hookTimeout: 60_000,
  },
});
