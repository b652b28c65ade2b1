/**
 * What every example is made of: a name, a title and a `run` over a context (the signed client, the mock's control
 * API, the seeded fixtures and a progress reporter). The examples themselves import only the package's public
 * entries; this file and its siblings are the demo's scaffolding.
 * @module
 */
import type { CardIssuingClient, FlowStep, Money } from 'card-issuing-sdk';
import type { Fixtures } from 'card-issuing-mock';
import type { MockControl } from 'card-issuing-mock/control';

/** One progress line: which flow, which step, how it ended, and what it produced (ids, statuses). */
export interface ProgressLine {
  flow: string;
  step: string;
  status: 'done' | 'skipped' | 'failed';
  detail?: string;
}

/** Where progress lines go (the demo prints them as they come). */
export type ProgressSink = (line: ProgressLine) => void;

/**
 * A demo expectation that did not hold (e.g. the old approval is not REAPPROVED after a budget increase). It stops
 * the demo like a failed call does.
 */
export class DemoCheckError extends Error {
  override name = 'DemoCheckError';
  readonly code = 'UNEXPECTED_RESULT';
}

/** Throws a {@link DemoCheckError} with `message` unless `condition` holds. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new DemoCheckError(message);
}

/** The stable code of an error, for a `failed` progress line. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'ERROR';
}

/**
 * Reports the steps of one flow. Pass {@link Progress.onStep} to the SDK's flow helpers; wrap other calls in
 * {@link Progress.step}. `within('registerUser')` reports a nested flow's steps as `registerUser/createUser`.
 */
export class Progress {
  readonly flow: string;
  readonly #sink: ProgressSink;
  readonly #prefix: string;

  constructor(flow: string, sink: ProgressSink, prefix = '') {
    this.flow = flow;
    this.#sink = sink;
    this.#prefix = prefix;
  }

  /** The same flow, with step names prefixed by `name/`. */
  within(name: string): Progress {
    return new Progress(this.flow, this.#sink, `${this.#prefix}${name}/`);
  }

  /** For the SDK's flow helpers (`onStep`): a line when a step ends (`started` is not printed). */
  readonly onStep = (step: FlowStep): void => {
    if (step.status === 'started') return;
    this.#sink({
      flow: this.flow,
      step: `${this.#prefix}${step.step}`,
      status: step.status,
      ...(step.detail === undefined ? {} : { detail: step.detail }),
    });
  };

  /** Runs one step of the example's own and reports it; `detail` says what it produced. */
  async step<T>(name: string, body: () => Promise<T>, detail?: (result: T) => string): Promise<T> {
    let result: T;
    try {
      result = await body();
    } catch (error) {
      this.#sink({ flow: this.flow, step: `${this.#prefix}${name}`, status: 'failed', detail: codeOf(error) });
      throw error;
    }
    const text = detail?.(result);
    this.#sink({
      flow: this.flow,
      step: `${this.#prefix}${name}`,
      status: 'done',
      ...(text === undefined ? {} : { detail: text }),
    });
    return result;
  }
}

/** What an example runs with. */
export interface ExampleContext {
  /** A signed client for the tenant of this run. */
  client: CardIssuingClient;
  /** The mock's control API for the same tenant (OTP outbox, KYC, deposits, registration, clock). */
  control: MockControl;
  /** The tenant's seeded ids (corporates, card configs, deposit types). */
  fixtures: Fixtures;
  progress: Progress;
}

/** One runnable flow of the interface document. */
export interface Example {
  /** Short name, printed on every progress line (`registration`, `card-issuing`, ...). */
  name: string;
  /** What it shows. */
  title: string;
  run(context: ExampleContext): Promise<void>;
}

/** `12.34 EUR` for 1234 minor units. */
export function money(value: Money): string {
  return `${(value.amount / 100).toFixed(2)} ${value.currency}`;
}
