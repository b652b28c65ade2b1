import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One config, one project per way the tests run; each script picks its project (`vitest run --project <name>`).
// The packages' names resolve to their sources (tsconfig.json paths) for every project that extends this root: a
// test that imports `card-issuing-sdk` and one that imports a source file share one copy of each module. Import by
// name where the name is public.
/** Test files that import the one-line vitest setup (see the runner-setup project). */
const RUNNER_SETUP = ['test/docs/mock-component-tests.test.ts', 'test/docs/mock-faults-overrides.test.ts'];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // At least two test files at a time (vitest's default, cores − 1, is one on two cores): much of npm test waits on
    // servers and child processes (the built bins, npm run demo), and a second file fills those waits. Each worker
    // has its own module graph, so files of different workers share nothing but the disk: a file works in a fresh
    // temporary directory and listens on port 0.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          // `npm test`. The contract suite, the browser tests and the consumer matrix have projects or commands of
          // their own (npm run test:contract, test:browser, test:consumers), which .ci/run runs after npm test.
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/contract/**', 'test/browser/**', 'test/consumers/**', 'node_modules/**', ...RUNNER_SETUP],
          // Limits that catch a hang, never a slow test: the longest (3000 random operations, a bin spawned a dozen
          // times) take 5 to 10 s alone and several times that on a loaded machine beside another file.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Speed on two cores (npm test must stay under 90 s): worker threads, reused from one file to the next
          // instead of a fresh process and module graph per file, which cost about a third of the suite's CPU. So a
          // test file puts back what it changes on the global object (fetch, crypto, timers, env) in its own
          // after-hooks, as the files here do.
          pool: 'threads',
          isolate: false,
          // npm run bench: speed is measured here, never asserted in a timed test.
          benchmark: { include: ['bench/**/*.bench.ts'] },
        },
      },
      {
        extends: true,
        test: {
          // Part of `npm test`: the files that use the one-line setup (`card-issuing-mock/vitest`) as a user's test
          // file does. The setup registers its hooks when its module is first evaluated, so each file needs its own
          // module graph, as vitest gives every file by default; the unit project's shared graph would give the hooks
          // to the first file only.
          name: 'runner-setup',
          include: RUNNER_SETUP,
          testTimeout: 30_000,
          pool: 'threads',
          isolate: true,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:fuzz` (and .ci/run): the 32 operations with inputs generated from the spec, against the
          // standalone mock, judged by the independent conformance checker, 200 cases per operation. The unit project
          // runs the same file with 24 (about 800 requests, a few seconds). FUZZ_SEED changes the inputs.
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          env: { FUZZ_CASES: process.env.FUZZ_CASES ?? '200' },
          testTimeout: 300_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:browser`: the front-end example and the inspector page (the package built first) driven in
          // headless Chromium (Debian's, found through CHROME_PATH or /usr/bin/chromium). Out of `npm test` because
          // it needs that browser; .ci/run installs it and runs this too.
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser and one dev server at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
      {
        // `npm run test:consumers`: the packages packed (npm pack) and installed into fresh projects outside the
        // repository, with tools from the npm registry: integrators (ESM and CommonJS TypeScript), test runners (Jest,
        // vitest), a Vite page in Chromium, npx, the README quickstart, and the package checks (publint, attw) on the
        // tarballs. Slow (npm installs), so out of `npm test`; .ci/run runs it. It does not extend the root: the
        // packages are the installed tarballs, never the sources.
        test: {
          name: 'consumers',
          include: ['test/consumers/**/*.test.ts'],
          globalSetup: ['test/consumers/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // The rows of a file run concurrently (installs limited in support.ts); the files one after the other.
          fileParallelism: false,
        },
      },
    ],
  },
});
