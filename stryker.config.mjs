// npm run test:mutation: Stryker's mutants over the code whose every branch a test must pin: request signing and
// its verification, the state machines, and the money rules. Scores go to docs/benchmarks.md (a measured table).
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'sdk/src/signing/**/*.ts',
    'mock-server/src/machines/**/*.ts',
    'mock-server/src/domain/holds.ts',
    'mock-server/src/domain/settle.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
