import { defineConfig } from 'vitest/config';

// `npm run test:contract`: the contract suite (test/contract/) against the standalone mock it starts, or against the
// server in CONTRACT_BASE_URL (with CONTRACT_API_KEY and CONTRACT_API_SECRET for a sandbox of the real service).
// Kept out of `npm test`'s config because it is a suite for servers, configured by the environment.
export default defineConfig({
  // The suite imports the package by its public names (`card-issuing-sdk`, ...); tsconfig.json maps them to sources.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/contract/**/*.test.ts'],
    globalSetup: ['test/contract/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
