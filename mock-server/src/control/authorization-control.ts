/**
 * The programmatic control of card authorizations (contract section 7): `authorizations(filter)` and the steps a
 * test drives (capture, increment, reverse, refund). Arguments are checked with the same schemas as the `/__mock/`
 * routes (400 VALIDATION_FAILED naming the field); the steps' refusals are the domain's problems (409 for the wrong
 * state, 422 for an amount the authorization does not allow).
 * @module
 */
import * as z from 'zod';
import { authorizations, type DomainContext } from '../domain';
import type { AuthorizationFilter } from '../domain/authorizations';
import { validateParts } from '../pipeline/validation';
import type { Tenant } from '../store';
import { zAuthorizationFilter, zAuthorizationIncrementBody, zAuthorizationStepBody } from './schemas';
import type { AuthorizationRecord } from '../store';

type Run = <T>(fn: (ctx: DomainContext, tenant: Tenant) => T) => T;

const zId = z.uuid();

/** Checks a step's id and amount as the HTTP route would (path `id`, body `amount`). */
function checked(
  id: string,
  amount: number | undefined,
  body: z.ZodType = zAuthorizationStepBody,
): { id: string; amount?: number } {
  const [params, parsed] = validateParts([
    { location: 'path', schema: z.object({ id: zId }), value: { id } },
    { location: 'body', schema: body, value: amount === undefined ? {} : { amount } },
  ]) as [{ id: string }, { amount?: number }];
  return { id: params.id, ...(parsed.amount === undefined ? {} : { amount: parsed.amount }) };
}

/** The control of one tenant's authorizations, over its `act` (settle, change, settle, tell) and `read`. */
export function authorizationControl(act: Run, read: Run): AuthorizationControl {
  const list = (filter: AuthorizationFilter = {}) =>
    read((ctx) => {
      const [query] = validateParts([{ location: 'query', schema: zAuthorizationFilter, value: filter }]) as [
        AuthorizationFilter,
      ];
      return authorizations.listAuthorizations(ctx, query);
    });
  /** A step whose amount is optional (capture, reverse, refund: the whole remainder by default). */
  const step =
    (run: (ctx: DomainContext, id: string, amount?: number) => AuthorizationRecord) => (id: string, amount?: number) =>
      act((ctx) => {
        const valid = checked(id, amount);
        return run(ctx, valid.id, valid.amount);
      });
  return Object.assign(list, {
    capture: step(authorizations.capture),
    increment: (id: string, amount: number) =>
      act((ctx) => {
        const step = checked(id, amount, zAuthorizationIncrementBody);
        return authorizations.increment(ctx, step.id, step.amount!);
      }),
    reverse: step(authorizations.reverse),
    refund: step(authorizations.refund),
  });
}

/** `authorizations(filter)` and the steps a test drives: each answers the authorization after the step. */
export interface AuthorizationControl {
  (filter?: AuthorizationFilter): AuthorizationRecord[];
  /**
   * Captures a hold once, for `amount` (default: the hold; after a reversal or expiry, what was authorized); the rest of
   * the hold is released. A capture the network forces (above the hold + 15 % or what remains, after a reversal or an
   * expiry) is a `forcedCapture` step, unless the mock was made with `strictCaptures` (then refused).
   */
  capture(id: string, amount?: number): AuthorizationRecord;
  /** The network raises a PENDING hold: approved (the hold grows) or declined with a reason (a step; the hold stays). */
  increment(id: string, amount: number): AuthorizationRecord;
  /** Releases a PENDING hold, whole (default: REVERSED) or in part (still PENDING). */
  reverse(id: string, amount?: number): AuthorizationRecord;
  /** Refunds a CLEARED capture, whole (default: REFUNDED) or in part. */
  refund(id: string, amount?: number): AuthorizationRecord;
}
