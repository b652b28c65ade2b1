import { defineConfig } from 'vitest/config';

// The fuzz run (test/fuzz/): the 32 operations with inputs generated from the spec, against the standalone mock,
// judged by the independent conformance checker. `npm test` runs it with 24 cases per operation (about 800 requests,
// a few seconds); `npm run test:fuzz` (and .ci/run) with 200 per operation. FUZZ_SEED changes the inputs.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    env: { FUZZ_CASES: process.env.FUZZ_CASES ?? '200' },
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
