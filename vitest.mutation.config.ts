import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant (stryker.config.mjs): those of signing and verification, the state
// machines and the money rules. One file at a time in its own module graph, so that a mutant is never cached.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'test/sdk/signing.test.ts',
      'test/sdk/signing-edges.test.ts',
      'test/sdk/signing-client.test.ts',
      'test/sdk/secret-encoding.test.ts',
      'test/sdk/signature-hint.test.ts',
      'test/mock/http.test.ts',
      'test/mock/lifecycle.test.ts',
      'test/mock/approvals.test.ts',
      'test/mock/authorizations.test.ts',
      'test/mock/users-cards.test.ts',
      'test/mock/deposits.test.ts',
      'test/mock/invariants.test.ts',
      'test/mock/problem-error.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
