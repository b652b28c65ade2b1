import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant (stryker.config.mjs): those of signing and verification, the state
// machines and the money rules; the random-operations walk is left out (minutes per mutant under instrumentation).
// A config of its own because Stryker's vitest runner takes a config file, not a project of vitest.config.ts; each
// file runs in its own module graph (vitest's default), so that a mutant is never cached.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'test/sdk/signing.test.ts',
      'test/sdk/signing-edges.test.ts',
      'test/sdk/verify-lengths.test.ts',
      'test/sdk/signature-verifier.test.ts',
      'test/sdk/signing-client.test.ts',
      'test/sdk/secret-encoding.test.ts',
      'test/sdk/signature-hint.test.ts',
      'test/mock/http.test.ts',
      'test/mock/lifecycle.test.ts',
      'test/mock/approvals.test.ts',
      'test/mock/authorizations.test.ts',
      'test/mock/users-cards.test.ts',
      'test/mock/deposits.test.ts',
      'test/mock/money-integers.test.ts',
      'test/mock/forced-captures.test.ts',
      'test/mock/problem-error.test.ts',
      'test/mock/state-tables.test.ts',
      'test/mock/money-edges.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
