import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the front-end example and the inspector page (the package built first) driven in headless
// Chromium (Debian's, found through CHROME_PATH or /usr/bin/chromium). Kept out of `npm test` because it needs that browser; .ci/run installs it and runs this too.
export default defineConfig({
  // The inspector test imports the packages by their public names (tsconfig.json maps them to the sources).
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One browser and one dev server at a time: the machine has two cores.
    fileParallelism: false,
  },
});
