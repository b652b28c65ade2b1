/**
 * `describe` and `it` of the contract suite over node:test, with the one thing node:test does not do as vitest does:
 * `context.skip(reason)` ends the test there (node:test's `t.skip()` only marks it), so a test that needs the mock's
 * control API stops cleanly on a real service.
 * @module
 */
import { describe as nodeDescribe, it as nodeIt, type TestContext as NodeTestContext } from 'node:test';

export { expect } from './expect';

/** What a contract test receives. */
export interface TestContext {
  /** Marks the test skipped with `reason`, and ends it. */
  skip(reason?: string): never;
}

/** Thrown by {@link TestContext.skip} to leave the test; never reported as a failure. */
class Skipped extends Error {}

/** A test's time limit: the flows against a real server take seconds, never half a minute. */
const TIMEOUT_MS = 30_000;

/** A group of tests, run in order. */
export function describe(name: string, fn: () => void): void {
  void nodeDescribe(name, fn);
}

/** A test; its function may call `context.skip(reason)`. */
export function it(name: string, fn: (context: TestContext) => Promise<void> | void): void {
  void nodeIt(name, { timeout: TIMEOUT_MS }, async (t: NodeTestContext) => {
    const context: TestContext = {
      skip(reason) {
        t.skip(reason);
        throw new Skipped(reason);
      },
    };
    try {
      await fn(context);
    } catch (error) {
      if (!(error instanceof Skipped)) throw error;
    }
  });
}
