import { defineConfig } from 'vitest/config';

// `npm run test:consumers`: both packages packed (npm pack) and installed into fresh projects outside the repository,
// with tools from the npm registry: integrators (ESM and CommonJS TypeScript), test runners (Jest, vitest), a Vite page
// in Chromium, npx, the README quickstart, and the package checks (publint, attw) on the tarballs. Slow (npm
// installs), so out of `npm test`; .ci/run runs it.
export default defineConfig({
  test: {
    include: ['test/consumers/**/*.test.ts'],
    globalSetup: ['test/consumers/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // The rows of a file run concurrently (installs limited in support.ts); the files one after the other.
    fileParallelism: false,
  },
});
