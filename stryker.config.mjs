// npm run test:mutation: Stryker's mutants over the code whose every branch a test must pin: request signing and
// its verification, the state machines, and the money rules. Scores go to docs/benchmarks.md (a measured table).
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // The three areas of scripts/mutation-scores.mjs, which fails on a mutated file that is in none of them. The money
  // rules are the files where money is checked or moved: budget bounds and currency (approval-checks), reserve, release
  // and hand-over of a reservation (lifecycle), holds, captures and refunds (authorizations, holds), the balance
  // arithmetic (money), and the due expiries and transitions that move them (settle). The handlers that only call them
  // (approvals, reapprovals, deposits) are not mutated.
  mutate: [
    'sdk/src/signing/**/*.ts',
    'mock-server/src/machines/**/*.ts',
    'mock-server/src/domain/{approval-checks,authorizations,holds,lifecycle,money,settle}.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
