/**
 * What every flow helper shares: the step reports and the runner. The flows are the orders of the interface document's section 3 ("Flow orders that the interface shows"), over
 * the client's methods. What only the end user or the outside world can do (read an e-mail code, pass KYC, accept
 * consents, deposit crypto, wait for a card to arrive) comes in through callbacks the caller supplies.
 *
 * Each flow reports its steps through `onStep` (`started`, then `done`, `skipped` or `failed`) so that a caller
 * can show progress, and stops with a {@link FlowError} naming the step, with the underlying error as `cause`.
 * @module
 */
import type { Consent } from '../../generated/types.gen';
import type { ErrorCode } from '../core/errors/base';
import { FlowError, type FlowName } from '../core/errors/flow-error';
import type { RequestOptions } from '../options';

/** A step's progress. `failed` comes just before the flow throws its {@link FlowError}. */
export type FlowStepStatus = 'started' | 'done' | 'skipped' | 'failed';

/** What `onStep` receives. */
export interface FlowStep {
  /** The step, e.g. `verifyEmail` (each flow's step names are listed in its options' TSDoc). */
  step: string;
  status: FlowStepStatus;
  /** Why a step was skipped, or what it did (ids, statuses). Never card data. */
  detail?: string;
}

/** Options every flow takes. */
export interface FlowOptions {
  /** Progress: called as each step starts and ends. An exception thrown here is ignored. */
  onStep?: (step: FlowStep) => void;
  /** Aborts the flow's calls. */
  signal?: AbortSignal;
}

/** Asked before the flow signs consents for the user: show them, return true when the user accepted all. */
export type AcceptConsents = (
  consents: Consent[],
  context: { userId: string; purpose: 'registration' | 'card' | 'deposit' },
) => boolean | Promise<boolean>;

/** One run of a flow: reports its steps and turns failures into {@link FlowError}s naming the step. */
export class FlowRun {
  readonly #flow: FlowName;
  readonly #options: FlowOptions;

  constructor(flow: FlowName, options: FlowOptions) {
    this.#flow = flow;
    this.#options = options;
  }

  /** Call options for the steps' requests. */
  get call(): RequestOptions {
    return this.#options.signal ? { signal: this.#options.signal } : {};
  }

  report(step: string, status: FlowStepStatus, detail?: string): void {
    try {
      this.#options.onStep?.(detail === undefined ? { step, status } : { step, status, detail });
    } catch {
      // Progress reporting must never break the flow.
    }
  }

  skip(step: string, detail: string): void {
    this.report(step, 'started');
    this.report(step, 'skipped', detail);
  }

  /** Runs one step: reports it, and turns any failure into a FlowError naming it. `body` may return a detail. */
  async step<T>(step: string, body: () => Promise<T>, detail?: (result: T) => string | undefined): Promise<T> {
    this.report(step, 'started');
    let result: T;
    try {
      result = await body();
    } catch (error) {
      const flowError = error instanceof FlowError ? error : new FlowError({ flow: this.#flow, step, cause: error });
      this.report(step, 'failed', flowError.code);
      throw flowError;
    }
    this.report(step, 'done', detail?.(result));
    return result;
  }

  /** Stops the flow at `step` for a reason of its own (no request failed). */
  refuse(step: string, code: ErrorCode, detail: string): never {
    throw new FlowError({ flow: this.#flow, step, code, detail });
  }

  /** Wraps a caller's callback so that its failure is reported as CALLBACK_FAILED at this step. */
  async callback<T>(step: string, fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new FlowError({ flow: this.#flow, step, cause: error, code: 'CALLBACK_FAILED' });
    }
  }

  /** Asks the caller to accept consents and signs them one by one. */
  async signConsents(
    step: string,
    consents: Consent[],
    context: Parameters<AcceptConsents>[1],
    accept: AcceptConsents,
    sign: (consent: Consent) => Promise<unknown>,
  ): Promise<void> {
    const unsigned = consents.filter((c) => !c.signed);
    if (unsigned.length === 0) return this.skip(step, 'no unsigned consents');
    await this.step(
      step,
      async () => {
        const accepted = await this.callback(step, () => accept(unsigned, context));
        if (accepted !== true)
          this.refuse(
            step,
            'CONSENTS_DECLINED',
            `the user did not accept ${unsigned.length} consent(s): ${unsigned.map((c) => c.title).join(', ')}`,
          );
        for (const consent of unsigned) await sign(consent);
      },
      () => `signed ${unsigned.map((c) => c.id).join(', ')}`,
    );
  }
}
