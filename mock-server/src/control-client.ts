/**
 * `card-issuing-mock/control`: the mock's control API (contract section 7) over HTTP, the `/__mock/` routes (signed
 * only for a tenant other than the default). One client for every place a flow runs: in-process, where msw's
 * `setupServer` intercepts the very same routes (no port, no network), and against a running `card-issuing-mock`.
 * So a flow has one code path whichever mock it talks to; the examples and the contract suite use it. It needs
 * only `fetch` and the SDK's signing: no msw, nothing of the mock itself.
 *
 * What the control API stands in for is what no endpoint of the service offers: reading the OTP e-mail, the KYC
 * provider's result, a crypto deposit arriving, a business user finishing registration, the corporation cancelling,
 * rejecting or accepting a change, a purchase with a card, and time passing.
 * @module card-issuing-mock/control
 */
import { signRequest, type Approval, type BusinessUser, type Card, type User } from 'card-issuing-sdk';
import type { Authorization, ChangeRequest, Fixtures, IncomingDepositResult, OutboxMessage, Purchase } from './index';

export { newRegistration } from './control-client/registration';

/** A control call the mock refused (problem+json), or a server without the control API. */
export class ControlError extends Error {
  override name = 'ControlError';
  /** The HTTP status, or undefined when no response arrived. */
  readonly status: number | undefined;
  /** The problem's `code` (`NOT_FOUND`, `INVALID_TRANSITION`, ...), or `CONTROL_UNAVAILABLE`. */
  readonly code: string;
  readonly detail: string;
  /** The problem+json body as received (with `currentStatus` and `operation` for a refused transition). */
  readonly problem: Record<string, unknown> | undefined;

  constructor(init: { status?: number; code: string; detail: string; problem?: Record<string, unknown> }) {
    super(`${init.detail} (${init.code}${init.status === undefined ? '' : `, HTTP ${init.status}`})`);
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.problem = init.problem;
  }
}

/** The virtual clock as `GET /__mock/clock` shows it. */
export interface ClockView {
  /** RFC 3339. */
  now: string;
  /** True when the clock stands still between moves. */
  frozen: boolean;
}

/** A crypto deposit that arrives at a balance (`POST /__mock/deposits/incoming`). */
export interface IncomingDepositInput {
  /** A user's balance id (a deposit to verify or credit), or a corporate's (a top-up). */
  balanceId: string;
  /** The asset, e.g. `USDC`. */
  type: string;
  /** A decimal string, at least the type's minimum. */
  amount: string;
  /** Wait for the integrator to approve the verification with verification data before crediting. */
  requiresVerification?: boolean;
  network?: string;
}

/** The control routes of one tenant. Every method rejects with a {@link ControlError} when the mock refuses. */
export interface MockControl {
  /** Seeded ids: corporates (with balance ids), card configs with their visuals, deposit types, credentials. */
  fixtures(): Promise<Fixtures>;
  /** Messages the mock sent to a user, newest last (OTP codes included). */
  outbox(userId: string): Promise<OutboxMessage[]>;
  /** The newest one-time code e-mailed to a user (what the user would type in). */
  latestOtpCode(userId: string): Promise<string>;
  /** The KYC provider's result for a user. */
  kyc(userId: string, status: 'PASSED' | 'FAILED'): Promise<User>;
  /** A crypto deposit arrives. */
  incomingDeposit(deposit: IncomingDepositInput): Promise<IncomingDepositResult>;
  /** A business user finishes registration (their ACCEPTED approvals move on). */
  completeRegistration(userUuid: string): Promise<BusinessUser>;
  /** The corporation cancels an approval (CREATED, ACCEPTED or PREPARED). */
  cancelApproval(corporateUuid: string, approvalUuid: string): Promise<Approval>;
  /** The corporation rejects a CREATED reapproval. */
  rejectApproval(corporateUuid: string, approvalUuid: string): Promise<Approval>;
  /** The user asks for a change (budget added, PIN update): a CREATED reapproval awaiting the corporation. */
  requestChange(corporateUuid: string, approvalUuid: string, change?: ChangeRequest): Promise<Approval>;
  /** The corporation accepts a CREATED reapproval: it takes over the live instance, which becomes REAPPROVED. */
  acceptChange(corporateUuid: string, approvalUuid: string): Promise<Approval>;
  /** A purchase with a card: APPROVED, or DECLINED with a reason. */
  authorize(cardId: string, purchase: Purchase): Promise<Authorization>;
  /** Locks a card (a business card only while its approval is DELIVERED). */
  lockCard(cardId: string): Promise<Card>;
  /** Unlocks a LOCKED card. */
  unlockCard(cardId: string): Promise<Card>;
  /** The virtual clock. */
  clock(): Promise<ClockView>;
  /** Moves the virtual clock forward; the transitions that fall due run. */
  advanceClock(seconds: number): Promise<ClockView>;
}

/** Where the control routes are and which tenant they act on. */
export interface ControlOptions {
  /** The mock's base URL (the same as the API's). */
  baseUrl: string;
  /** The tenant (`?apiKey=`); the mock's default tenant when omitted. */
  apiKey?: string;
  /**
   * The tenant's secret: a control request for a tenant other than the default is signed with its key (the mock
   * refuses an unsigned one), as API requests are.
   */
  apiSecret?: string;
  /** Default `globalThis.fetch`, looked up at each call so that msw's interception applies. */
  fetch?: typeof fetch;
}

/** Sends one control request and returns its JSON body; a non-2xx answer becomes a {@link ControlError}. */
async function call<T>(
  options: ControlOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  query: Record<string, string> = {},
): Promise<T> {
  const url = new URL(`${options.baseUrl.replace(/\/$/, '')}/__mock/${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  if (options.apiKey !== undefined) url.searchParams.set('apiKey', options.apiKey);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = await headersOf(options, method, url, text);
  const response = await sendOrExplain(options, method, path, url, {
    method,
    headers,
    ...(text === undefined ? {} : { body: text }),
  });
  const parsed = jsonOrUndefined(await response.text());
  if (!response.ok) throw refusal(method, path, response.status, parsed);
  if (parsed === undefined) {
    throw new ControlError({
      status: response.status,
      code: 'CONTROL_UNAVAILABLE',
      detail: `${method} /__mock/${path} did not answer with JSON: is ${options.baseUrl} the mock?`,
    });
  }
  return parsed as T;
}

/** The request's headers: its content type, and its signature when it acts on a tenant with a secret. */
async function headersOf(
  options: ControlOptions,
  method: string,
  url: URL,
  text: string | undefined,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
  if (options.apiKey !== undefined && options.apiSecret !== undefined) {
    headers.authorization = (
      await signRequest({ method, url: url.href, body: text, apiKey: options.apiKey, apiSecret: options.apiSecret })
    ).authorization;
  }
  return headers;
}

/** Sends the request; no answer at all becomes CONTROL_UNAVAILABLE naming the transport's reason. */
async function sendOrExplain(
  options: ControlOptions,
  method: string,
  path: string,
  url: URL,
  init: RequestInit,
): Promise<Response> {
  const send = options.fetch ?? globalThis.fetch;
  try {
    return await send(url, init);
  } catch (error) {
    throw new ControlError({
      code: 'CONTROL_UNAVAILABLE',
      detail: `${method} /__mock/${path} got no answer from ${options.baseUrl}: ${transportReason(error)}`,
    });
  }
}

/** Why fetch failed: it says only "fetch failed"; the transport's own error (ECONNREFUSED, ENOTFOUND, ...) is its cause. */
function transportReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error.message;
}

/** The answer's JSON, or undefined when it is empty or not JSON. */
function jsonOrUndefined(answer: string): unknown {
  try {
    return answer === '' ? undefined : JSON.parse(answer);
  } catch {
    return undefined;
  }
}

/** The {@link ControlError} of a non-2xx answer: the problem's code and detail (or title) when it has them. */
function refusal(method: string, path: string, status: number, parsed: unknown): ControlError {
  const problem = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    code?: unknown;
    detail?: unknown;
    title?: unknown;
  };
  const said =
    typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : 'refused';
  return new ControlError({
    status,
    problem,
    code: typeof problem.code === 'string' ? problem.code : `HTTP_${status}`,
    detail: `${method} /__mock/${path}: ${said}`,
  });
}

/** The control API of the tenant `options.apiKey` on the mock at `options.baseUrl`. */
export function createMockControl(options: ControlOptions): MockControl {
  const approvalAction = (action: string) => (corporateUuid: string, approvalUuid: string, change?: unknown) =>
    call<Approval>(
      options,
      'POST',
      `corporates/${encodeURIComponent(corporateUuid)}/approvals/${encodeURIComponent(approvalUuid)}/${action}`,
      change,
    );
  const control: MockControl = {
    fixtures: () => call<Fixtures>(options, 'GET', 'fixtures'),
    outbox: async (userId) =>
      (await call<{ items: OutboxMessage[] }>(options, 'GET', 'outbox', undefined, { userId })).items,
    latestOtpCode: async (userId) => {
      const code = (await control.outbox(userId)).findLast((message) => message.code !== undefined)?.code;
      if (code === undefined)
        throw new ControlError({ code: 'OTP_NOT_SENT', detail: `No one-time code was e-mailed to user ${userId}` });
      return code;
    },
    kyc: (userId, status) => call<User>(options, 'POST', `kyc/${encodeURIComponent(userId)}`, { status }),
    incomingDeposit: (deposit) => call<IncomingDepositResult>(options, 'POST', 'deposits/incoming', deposit),
    completeRegistration: (userUuid) =>
      call<BusinessUser>(options, 'POST', `users/${encodeURIComponent(userUuid)}/complete-registration`),
    cancelApproval: approvalAction('cancel'),
    rejectApproval: approvalAction('reject'),
    requestChange: (corporateUuid, approvalUuid, change = {}) =>
      approvalAction('request-change')(corporateUuid, approvalUuid, change),
    acceptChange: approvalAction('accept'),
    authorize: (cardId, purchase) =>
      call<Authorization>(options, 'POST', `cards/${encodeURIComponent(cardId)}/authorize`, purchase),
    lockCard: (cardId) => call<Card>(options, 'POST', `cards/${encodeURIComponent(cardId)}/lock`),
    unlockCard: (cardId) => call<Card>(options, 'POST', `cards/${encodeURIComponent(cardId)}/unlock`),
    clock: () => call<ClockView>(options, 'GET', 'clock'),
    advanceClock: (seconds) => call<ClockView>(options, 'POST', 'clock/advance', { seconds }),
  };
  return control;
}

/**
 * True when `baseUrl` serves the mock's control API (`GET /__mock/fixtures` answers with JSON). A real service
 * answers 404 (or anything else): the demo cannot run there, and the contract suite skips what needs it.
 */
export async function hasControlApi(baseUrl: string, send: typeof fetch = globalThis.fetch): Promise<boolean> {
  try {
    await call<Fixtures>({ baseUrl, fetch: send }, 'GET', 'fixtures');
    return true;
  } catch (error) {
    // An answer that is not the mock's fixtures: not the mock. No answer at all: the caller must hear of it.
    if (error instanceof ControlError && error.status !== undefined) return false;
    throw error;
  }
}

/**
 * Adds a tenant with its own seeded state (`POST /__mock/credentials`), so that runs sharing one server never see
 * each other's users, cards or approvals. Returns the new tenant's fixtures.
 */
export function createTenant(
  baseUrl: string,
  credentials: { apiKey: string; apiSecret: string },
  send?: typeof fetch,
): Promise<Fixtures> {
  return call<Fixtures>({ baseUrl, ...(send ? { fetch: send } : {}) }, 'POST', 'credentials', credentials);
}

/** Credentials for a fresh tenant: a readable, unique api key and a random secret. */
export function freshCredentials(prefix: string): { apiKey: string; apiSecret: string } {
  const hex = (bytes: number) =>
    Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
  return { apiKey: `${prefix}-${hex(4)}`, apiSecret: hex(24) };
}
