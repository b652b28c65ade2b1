/**
 * The programmatic control API of one tenant (contract section 7): the clock, reset, snapshot/restore, the
 * outbox, KYC, incoming deposits, approval actions, registration, card lock, faults, fixtures. Every call
 * settles due transitions before and after it acts, and errors are the ProblemErrors the HTTP layer serves.
 * @module
 */
import type { Approval, BusinessUser, Card, User } from 'card-issuing-sdk';
import { advanceClock, clockNow, setClock } from '../clock';
import {
  ProblemError,
  authorizations,
  notFound,
  business,
  cards,
  contextOf,
  deposits,
  settle,
  users,
  type DomainContext,
  type IncomingDeposit,
  type IncomingDepositResult,
} from '../domain';
import type { ChangeRequest } from '../domain/business';
import type { Purchase } from '../domain/authorizations';
import { authorizationControl, type AuthorizationControl } from './authorization-control';
import { givenControl, type GivenControl, type Scenario, type ScenarioResult } from './given';
import { indexOf, outboxOf } from '../domain/lookups';
import type { OperationId } from 'card-issuing-sdk/server';
import { injectFault, removeFault, type FaultSpec } from '../pipeline/faults';
import { removeOverride, setOverride, type OverrideSpec } from '../pipeline/overrides';
import type { ObservedRuntime } from '../observe/runtime';
import { validateParts } from '../pipeline/validation';
import { encryptDetails } from '../pipeline/operations';
import type { EventFilter, JournalEntry, MockEvent, ObservedListener, RequestFilter, Usage } from '../observe';
import {
  cloneState,
  fixturesOf,
  migrateSnapshot,
  snapshotErrors,
  type AuthorizationRecord,
  type FaultRule,
  type Fixtures,
  type OutboxMessage,
  type OverrideRule,
  type Tenant,
  type TenantSnapshot,
} from '../store';
import {
  zAuthorizeBody,
  zClockAdvanceBody,
  zCreditBody,
  zIncomingDepositBody,
  zKycBody,
  zRequestChangeBody,
} from './schemas';

/** The control surface of one tenant. */
export interface TenantControl {
  /** The tenant's api key. */
  readonly apiKey: string;
  /** The tenant's virtual clock; moving it runs the transitions that fall due. */
  clock: {
    now(): Date;
    /** True when the clock stands still (created with `clock: { now }`) rather than ticking with the wall clock. */
    frozen(): boolean;
    /** Forward only. */
    advance(seconds: number): void;
    /** Forward only; a frozen clock stays frozen at the instant. */
    set(instant: string | Date): void;
  };
  /** Back to the seeded state (same ids), the clock as configured, no faults, no overrides. */
  reset(): void;
  /** A deep copy of the tenant's whole state (JSON-serialisable). */
  snapshot(): TenantSnapshot;
  /** Replaces the tenant's state by a snapshot (400 VALIDATION_FAILED when it is not one). */
  restore(snapshot: TenantSnapshot): void;
  /** Messages sent to users (OTP codes included), newest last; one user's when `userId` is given. */
  outbox(userId?: string): OutboxMessage[];
  /** The KYC provider's result for a Server2Server user. */
  kyc(userId: string, status: 'PASSED' | 'FAILED'): User;
  deposits: {
    /** A crypto deposit arrives at a user's balance (a verification) or a corporate's balance (a top-up). */
    incoming(deposit: IncomingDeposit): IncomingDepositResult;
  };
  approvals: {
    /** The corporation cancels (from CREATED, ACCEPTED or PREPARED). */
    cancel(corporateUuid: string, approvalUuid: string): Approval;
    /** The corporation rejects a CREATED reapproval. */
    reject(corporateUuid: string, approvalUuid: string): Approval;
    /**
     * The user requests a change (budget added, PIN update) to an ACCEPTED or DELIVERED approval: a new CREATED
     * reapproval; 409 CHANGE_ALREADY_PENDING while another is pending.
     */
    requestChange(corporateUuid: string, approvalUuid: string, change?: ChangeRequest): Approval;
    /**
     * The corporation accepts a CREATED reapproval: it takes over the changed instance's status, card, reservation
     * and spending (reserving the budget it adds), and that instance becomes REAPPROVED.
     */
    accept(corporateUuid: string, approvalUuid: string): Approval;
  };
  users: {
    /** A business user finishes registration; their ACCEPTED approvals move on at once. */
    completeRegistration(userUuid: string): BusinessUser;
  };
  cards: {
    lock(cardId: string): Card;
    unlock(cardId: string): Card;
    /**
     * A purchase on a card: APPROVED (a hold on the approval's remaining budget, or on a Server2Server user's
     * balance) or DECLINED with a reason (`APPROVAL_NOT_DELIVERED`, `CARD_LOCKED`, `CARD_NOT_ACTIVE`,
     * `CURRENCY_MISMATCH`, `BUDGET_EXCEEDED`, `INSUFFICIENT_FUNDS`). Captured at once (CLEARED) unless
     * `capture: false` leaves it PENDING for {@link TenantControl.authorizations}' steps. 404 for an unknown card.
     */
    authorize(cardId: string, purchase: Purchase): AuthorizationRecord;
    /**
     * The details of an ACTIVE card (Server2Server or business) encrypted to `publicKey` (base64url DER SPKI), as
     * the API's details operations answer: 404 for an unknown card, 409 CARD_NOT_ACTIVE, 400 PUBLIC_KEY_INVALID.
     * For the inspector's reveal, which shows them in the SDK's reveal frame.
     */
    details(cardId: string, publicKey: string): Promise<{ encryptedDetails: string }>;
    /**
     * A merchant's credit without a purchase on the card (an unlinked refund): an authorization REFUNDED by one
     * `credit` step; the money goes to the corporate's balance, or the Server2Server user's balance in that currency.
     */
    refund(cardId: string, credit: { amount: number; currency: string; merchant: string }): AuthorizationRecord;
  };
  /**
   * The authorizations that match `filter` (card, approval instance made under, `status`: the network's answer or the
   * state now), oldest first, each with its amounts and steps; and the steps of their life (`authorizations.ts`).
   */
  authorizations: AuthorizationControl;
  faults: {
    /**
     * The next `times` (default 1) requests of `operationId`, or matching `method` and `path`, fail with `status`,
     * `code` (default: the status's own code, `codeOfStatus`), `detail` and `retryAfter`, and/or wait `delayMs`; status 0
     * drops the connection. Returns the fault as kept (with its `id`).
     */
    inject(fault: FaultSpec): FaultRule;
    /** The faults waiting, in the order they are tried. */
    list(): FaultRule[];
    /** Removes one fault by id (404 NOT_FOUND for an unknown one). */
    remove(id: string): void;
    clear(): void;
  };
  /**
   * Answers `operationId` with `status`, `body` and `headers` instead of the domain (every request until removed,
   * or the next `times`; after `delayMs`), as msw's `server.use` would, for this tenant only. Typed from the spec:
   * an undeclared status or a body of the wrong shape does not compile; checked against the spec's response
   * schema (400 VALIDATION_FAILED naming each bad path) unless `unchecked: true`. An error status without a body
   * answers the problem of the status's own code (`INJECTED_FAULT` for a status with several). The latest override of an operation answers; each answer is
   * marked in the journal (`override: id`). Returns the override as kept (with its `id`).
   */
  override<K extends OperationId>(operationId: K, override: OverrideSpec<K>): OverrideRule;
  overrides: {
    /** The overrides, oldest first. */
    list(): OverrideRule[];
    /** Removes one by id (404 NOT_FOUND for an unknown one). */
    remove(id: string): void;
    clear(): void;
  };
  /**
   * Builders: any state the interface document names in one call (an approval in each of the nine statuses, users,
   * cards, balances, deposits), reached through the domain's own transitions; each returns the records it made.
   */
  given: GivenControl;
  /** Applies a scenario (builders in order, later entries naming earlier ones): checked whole, all or nothing. */
  loadScenario(scenario: Scenario): ScenarioResult;
  /** Seeded ids, credentials and current corporate balances. */
  fixtures(): Fixtures;
  /**
   * The request journal of this tenant, newest first: every API exchange and control action the mock answered
   * (the latest 500 by default), with operationId, status, code, duration, request id and bodies, the
   * Authorization header, secrets and card data redacted.
   */
  requests(filter?: RequestFilter): JournalEntry[];
  /**
   * What this tenant's consumer exercised so far, when the mock records usage (`recordUsage: true`; the standalone
   * server does): each operation with its statuses, query parameters and request fields sent, response fields
   * received and an example exchange per status. `card-issuing-contract usage` makes a usage file and a Pact of it.
   */
  usage(): Usage;
  /**
   * What changed in this tenant, oldest first (the latest 1000 by default): users registered, e-mails verified,
   * cards generated, approval statuses from/to, credits, top-ups, authorizations, OTPs sent.
   */
  events(filter?: EventFilter): MockEvent[];
  /**
   * Calls `listener` with each exchange (`{ kind: 'request', request }`, a summary without bodies) and each event
   * (`{ kind: 'event', event }`) of this tenant as it happens; returns the function that stops it.
   */
  subscribe(listener: ObservedListener): () => void;
}

type Run = <T>(fn: (ctx: DomainContext, tenant: Tenant) => T) => T;

/** The control of the tenant `getTenant` returns at each call (so the default follows an import of state). */
export function tenantControl(runtime: ObservedRuntime, getTenant: () => Tenant): TenantControl {
  const { act, read } = runners(runtime, getTenant);
  return {
    get apiKey() {
      return getTenant().apiKey;
    },
    clock: clockControl(runtime, getTenant, act),
    ...stateControl(runtime, getTenant, read),
    outbox: (userId) =>
      read((ctx) => (userId === undefined ? ctx.state.outbox : outboxOf(ctx.state, userId)).map((m) => ({ ...m }))),
    kyc: (userId, status) =>
      act((ctx) => {
        const [body] = validateParts([{ location: 'body', schema: zKycBody, value: { status } }]) as [
          { status: 'PASSED' | 'FAILED' },
        ];
        return users.setKycStatus(ctx, userId, body.status);
      }),
    deposits: {
      incoming: (deposit) =>
        act((ctx) => {
          const [body] = validateParts([{ location: 'body', schema: zIncomingDepositBody, value: deposit }]) as [
            IncomingDeposit,
          ];
          return deposits.incomingDeposit(ctx, body);
        }),
    },
    approvals: approvalControl(act),
    users: {
      completeRegistration: (userUuid) => act((ctx) => business.completeRegistration(ctx, userUuid)),
    },
    cards: cardControl(act, read),
    authorizations: authorizationControl(act, read),
    ...givenControl(runtime, getTenant),
    faults: faultControl(getTenant),
    ...overrideControl(getTenant),
    fixtures: () =>
      read((ctx, tenant) =>
        fixturesOf(ctx.state, { apiKey: tenant.apiKey, apiSecret: tenant.apiSecret }, indexOf(ctx.state)),
      ),
    // Settled first, so that a test reading events sees the transitions its last move of the clock made due.
    requests: (filter) => runtime.observer.requests(getTenant().apiKey, filter),
    usage: () => runtime.observer.usageOf(getTenant().apiKey),
    events: (filter) => read((_ctx, tenant) => runtime.observer.events(tenant.apiKey, filter)),
    subscribe: (listener) => runtime.observer.subscribe(getTenant().apiKey, listener),
  };
}

/** The two ways a control call runs against the current tenant: `act` (which may change it) and `read`. */
function runners(runtime: ObservedRuntime, getTenant: () => Tenant): { act: Run; read: Run } {
  /** Runs a control action: settle, act, settle (the action may make transitions due), tell the listeners. */
  const act: Run = (fn) => {
    const tenant = getTenant();
    const emit = runtime.observer.emitter(tenant.apiKey);
    const ctx = contextOf(tenant.state, emit);
    ctx.strictCaptures = runtime.strictCaptures;
    try {
      settle(ctx);
      const result = fn(ctx, tenant);
      settle(contextOf(tenant.state, emit));
      return result;
    } finally {
      runtime.changed();
    }
  };
  /** Runs a read: settle first so it sees due transitions; tell the listeners only if something moved. */
  const read: Run = (fn) => {
    const tenant = getTenant();
    const ctx = contextOf(tenant.state, runtime.observer.emitter(tenant.apiKey));
    if (settle(ctx) > 0) runtime.changed();
    return fn(ctx, tenant);
  };
  return { act, read };
}

/** An instant given as an RFC 3339 string or a Date, in epoch ms (400 VALIDATION_FAILED when it is neither). */
function instantMs(instant: string | Date): number {
  const ms =
    typeof instant === 'string' ? Date.parse(instant) : instant instanceof Date ? instant.getTime() : Number.NaN;
  if (Number.isNaN(ms))
    throw new ProblemError('VALIDATION_FAILED', 'Not an instant.', {
      errors: [{ path: 'instant', message: 'Not an RFC 3339 instant' }],
    });
  return ms;
}

/** The tenant's virtual clock; each move tells the listeners from where to where it went. */
function clockControl(runtime: ObservedRuntime, getTenant: () => Tenant, act: Run): TenantControl['clock'] {
  const clockMoved = (tenant: Tenant, from: number, to: number): void => {
    runtime.observer.emit(
      tenant.apiKey,
      { type: 'clock.advanced', from: new Date(from).toISOString(), to: new Date(to).toISOString() },
      { at: from },
    );
  };
  return {
    now: () => new Date(clockNow(getTenant().state.clock)),
    frozen: () => getTenant().state.clock.frozenAt !== null,
    advance: (seconds) =>
      act((ctx, tenant) => {
        const [body] = validateParts([{ location: 'body', schema: zClockAdvanceBody, value: { seconds } }]) as [
          { seconds: number },
        ];
        advanceClock(tenant.state.clock, body.seconds);
        clockMoved(tenant, ctx.now, clockNow(tenant.state.clock));
      }),
    set: (instant) =>
      act((ctx, tenant) => {
        const ms = instantMs(instant);
        if (ms < ctx.now) {
          throw new ProblemError('VALIDATION_FAILED', 'The virtual clock only moves forward.', {
            errors: [{ path: 'instant', message: `Before the clock's now (${new Date(ctx.now).toISOString()})` }],
          });
        }
        setClock(tenant.state.clock, ms);
        clockMoved(tenant, ctx.now, ms);
      }),
  };
}

/** Reset, snapshot and restore of the tenant's whole state. */
function stateControl(
  runtime: ObservedRuntime,
  getTenant: () => Tenant,
  read: Run,
): Pick<TenantControl, 'reset' | 'snapshot' | 'restore'> {
  return {
    reset: () => {
      const tenant = getTenant();
      tenant.state = runtime.tenants.fresh(tenant.apiKey);
      tenant.faults = [];
      tenant.overrides = [];
      runtime.observer.emit(tenant.apiKey, { type: 'mock.reset' });
      runtime.changed();
    },
    snapshot: () => read((_ctx, tenant) => cloneState(tenant.state)),
    restore: (given) => {
      // An older version is migrated first; then checked whole before anything changes: a bad snapshot is refused
      // naming each bad path, the state kept.
      const snapshot = migrateSnapshot(given) as TenantSnapshot;
      const errors = snapshotErrors(snapshot);
      if (errors.length > 0) {
        throw new ProblemError(
          'VALIDATION_FAILED',
          `Not a tenant snapshot: ${errors[0]!.path} ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.`,
          {
            // Named where they are in `PUT /__mock/state`'s body; the snapshot as a whole is `body`.
            errors: errors.map((e) => ({ path: e.path === '(state)' ? 'body' : `body.${e.path}`, message: e.message })),
          },
        );
      }
      const tenant = getTenant();
      tenant.state = { ...cloneState(snapshot), apiKey: tenant.apiKey };
      runtime.observer.emit(tenant.apiKey, { type: 'mock.restored' });
      runtime.changed();
    },
  };
}

/** The corporation's and the user's actions on approvals. */
function approvalControl(act: Run): TenantControl['approvals'] {
  return {
    cancel: (corporateUuid, approvalUuid) => act((ctx) => business.cancelApproval(ctx, corporateUuid, approvalUuid)),
    reject: (corporateUuid, approvalUuid) => act((ctx) => business.rejectApproval(ctx, corporateUuid, approvalUuid)),
    requestChange: (corporateUuid, approvalUuid, change = {}) =>
      act((ctx) => {
        const [body] = validateParts([{ location: 'body', schema: zRequestChangeBody, value: change }]) as [
          ChangeRequest,
        ];
        return business.requestChange(ctx, corporateUuid, approvalUuid, body);
      }),
    accept: (corporateUuid, approvalUuid) => act((ctx) => business.acceptChange(ctx, corporateUuid, approvalUuid)),
  };
}

/** Lock, details, purchases and unlinked refunds on a card. */
function cardControl(act: Run, read: Run): TenantControl['cards'] {
  return {
    lock: (cardId) => act((ctx) => cards.setCardLock(ctx, cardId, 'lock')),
    unlock: (cardId) => act((ctx) => cards.setCardLock(ctx, cardId, 'unlock')),
    details: async (cardId, publicKey) =>
      encryptDetails(
        read((ctx) => cards.anyCardDetails(ctx, cardId)),
        publicKey,
      ),
    authorize: (cardId, purchase) =>
      act((ctx) => {
        const [body] = validateParts([{ location: 'body', schema: zAuthorizeBody, value: purchase }]) as [Purchase];
        return { ...authorizations.authorize(ctx, cardId, body) };
      }),
    refund: (cardId, given) =>
      act((ctx) => {
        const [body] = validateParts([{ location: 'body', schema: zCreditBody, value: given }]) as [
          Omit<Purchase, 'capture'>,
        ];
        return { ...authorizations.credit(ctx, cardId, body) };
      }),
  };
}

/** The tenant's injected faults. */
function faultControl(getTenant: () => Tenant): TenantControl['faults'] {
  return {
    inject: (fault) => injectFault(getTenant(), fault),
    list: () => getTenant().faults.map((f) => ({ ...f })),
    remove: (id) => {
      if (!removeFault(getTenant(), id)) throw notFound('fault', id);
    },
    clear: () => {
      getTenant().faults = [];
    },
  };
}

/** The tenant's response overrides. */
function overrideControl(getTenant: () => Tenant): Pick<TenantControl, 'override' | 'overrides'> {
  return {
    override: (operationId, override) => setOverride(getTenant(), operationId, override),
    overrides: {
      // A copy through JSON, not structuredClone: with a state file the rules are reached through its tracking proxies.
      list: () => JSON.parse(JSON.stringify(getTenant().overrides)) as OverrideRule[],
      remove: (id) => {
        if (!removeOverride(getTenant(), id)) throw notFound('override', id);
      },
      clear: () => {
        getTenant().overrides = [];
      },
    },
  };
}
