import { defineConfig } from 'vitest/config';

// `npm run test:fuzz`: the 32 operations with inputs generated from the spec, against the standalone mock, judged by
// the independent conformance checker. A command of its own (it sends about 800 requests); .ci/run runs it.
// FUZZ_SEED and FUZZ_CASES change the inputs and their number.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
