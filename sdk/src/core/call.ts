/**
 * What one call of the engine carries from attempt to attempt: the client's fixed parts ({@link EngineContext},
 * made once per client) and the call's own state ({@link CallState}, one object per call, updated by each attempt).
 * @module
 */
import type { ClientHooks, RequestEvent } from '../options';
import type { SecretEncoding } from '../signing/hmac-key';
import type { Signer } from '../signing/sign';
import type { ClientClock } from './clock';
import type { Log } from './logger';

/** What a client's engine made once, read by every call. */
export interface EngineContext {
  apiSecret: string;
  baseUrl: URL;
  maxResponseBytes: number;
  signer: Signer;
  clock: ClientClock;
  log: Log;
  hooks: ClientHooks;
  /** Said on a signature mismatch: the configured encoding and whether the secret looks like base64. */
  secretFacts: { readonly encoding: SecretEncoding; readonly looksBase64: boolean };
  responseMode: 'strict' | 'warn' | false;
  /** What 'warn' mode already reported, as `operation path` (array indices as []). */
  warned: Set<string>;
}

/** One call: its fixed parts, and what the latest attempt left (read by errors, hooks and the log). */
export interface CallState {
  readonly operation: string;
  readonly method: string;
  readonly idempotencyKey: string | undefined;
  readonly timeoutMs: number;
  attempt: number;
  sentAt: number;
  authorization: string;
  stringToSign: string;
  status: number | undefined;
  requestId: string | undefined;
  /** Attempts of the call before the current send (the clock-skew retry sends once more). */
  before: number;
  signedOffsetMs: number;
  headers: Headers | undefined;
  receivedAt: number;
  url: string;
}

/** The event of the call's current attempt, as the hooks see it. */
export function requestEvent(call: CallState, request: Request): RequestEvent {
  return {
    operation: call.operation,
    method: call.method,
    url: request.url,
    attempt: call.attempt,
    idempotencyKey: call.idempotencyKey,
    clockOffsetMs: call.signedOffsetMs,
  };
}

/** What no error may show, even when a hostile server echoes it: the secret, the header and its signature. */
export function redaction(engine: EngineContext, call: CallState): string[] {
  return [engine.apiSecret, call.authorization, call.authorization.split(':')[1] ?? ''];
}

/** Calls an observer with the event `make` builds (only when there is an observer). */
export function notify<E>(hook: ((event: E) => void) | undefined, make: () => E): void {
  if (!hook) return;
  try {
    hook(make());
  } catch {
    // An observer must never break a request.
  }
}
