/**
 * The error a flow helper (`flows/`) stops with.
 * @module
 */
import { CardIssuingError, type CardIssuingErrorJSON, type ErrorCode } from './base';

/** The flows of `flows.ts`. */
export type FlowName = 'registerUser' | 'issueCard' | 'depositAddress' | 'approveDeposit';

/**
 * A flow helper stopped at a step. `step` names it; `cause` is what went wrong there: the call's
 * {@link CardIssuingError} (whose `status`, `code`, `errors` and `requestId` this error repeats), or the error a
 * caller's callback threw (code `CALLBACK_FAILED`), or nothing when the flow itself refused to go on (e.g.
 * `CONSENTS_DECLINED`, `KYC_NOT_PASSED`).
 */
export class FlowError extends CardIssuingError {
  override name = 'FlowError';
  /** The flow that stopped. */
  readonly flow: FlowName;
  /** The step it stopped at, e.g. `chargeDraft`. */
  readonly step: string;

  constructor(init: { flow: FlowName; step: string; cause?: unknown; code?: ErrorCode; detail?: string }) {
    const cause = init.cause instanceof CardIssuingError ? init.cause : undefined;
    const reason = init.detail ?? cause?.detail ?? (init.cause instanceof Error ? init.cause.message : 'failed');
    super({
      code: init.code ?? cause?.code ?? 'CALLBACK_FAILED',
      status: cause?.status,
      detail: `${init.flow} stopped at step ${init.step}: ${reason}`,
      errors: cause?.errors,
      requestId: cause?.requestId,
      type: cause?.type,
      title: cause?.title,
      problem: cause?.problem,
      cause: init.cause,
    });
    this.flow = init.flow;
    this.step = init.step;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), flow: this.flow, step: this.step };
  }
}
