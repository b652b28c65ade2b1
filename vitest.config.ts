import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import the packages by their public names; tsconfig.json maps them to the sources (one copy of each module).
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    // The contract suite, the browser test and the consumer matrix have commands of their own (npm run
    // test:contract, test:browser, test:consumers), which .ci/run runs after npm test.
    exclude: ['test/contract/**', 'test/browser/**', 'test/consumers/**', 'node_modules/**'],
    testTimeout: 30_000,
    // npm run bench: speed is measured here, never asserted in a timed test.
    benchmark: { include: ['bench/**/*.bench.ts'] },
    hookTimeout: 60_000,
  },
});
