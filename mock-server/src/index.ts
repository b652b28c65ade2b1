/**
 * `card-issuing-mock`: a stateful mock of the card-issuing API as MSW handlers over an in-memory store,
 * with a virtual clock and the control API of contract section 7. Browser-safe (no `node:` import): the same
 * handlers serve tests in-process (`setupServer`), the standalone server (`getResponse`) and the service worker.
 *
 * The layers, each importing only those before it (.dependency-cruiser.cjs checks it): `store/` (records per
 * tenant, seeded fixtures, snapshots) → `machines/` (state tables) → `domain/` (behaviour) → `pipeline/` (one
 * transport-free request pipeline for the operations and the `/__mock/` routes) → `control/` and `observe/` →
 * `adapters/`, `node/`, `inspector/` → `mock/` (createMock wires them) → what runs a whole mock (`runners/`,
 * `node/start.ts`) → the entries.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMock } from 'card-issuing-mock';
 * const mock = createMock({ seed: 42, clock: { now: '2026-11-21T09:00:00Z' }, baseUrl: 'http://mock.test' });
 * setupServer(...mock.handlers).listen();
 * mock.clock.advance(3 * 24 * 3600); // a physical card's order completes
 * ```
 * @module card-issuing-mock
 */
export { createMock } from './mock/create-mock';
export type { CardIssuingMock, CreateMockOptions, ServerState } from './mock/options';
export { ProblemError } from './domain/errors';
export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch';
export type { ProblemExtras } from './domain/errors';
export type { IncomingDeposit, IncomingDepositResult, DomainEvent, DomainObserver } from './domain';
export type { ChangeRequest } from './domain/business';
export type { AuthorizationFilter, Purchase } from './domain/authorizations';
export { DECLINE_REASONS } from './domain/authorizations';
export type { FaultSpec } from './pipeline/faults';
export type { ErrorStatus, OverrideSpec, SuccessBody, SuccessStatus } from './pipeline/overrides';
export type { Exchange } from './pipeline/runtime';
export type { Reply } from './pipeline/reply';
export type { AuthorizationControl, TenantControl } from './control';
export type {
  GivenApproval,
  GivenApprovalOptions,
  GivenBalanceOptions,
  GivenBusinessUser,
  GivenBusinessUserOptions,
  GivenCard,
  GivenCardOptions,
  GivenControl,
  GivenCorporateBalance,
  GivenCorporateBalanceOptions,
  GivenDepositAddress,
  GivenDepositAddressOptions,
  GivenKind,
  GivenUser,
  GivenUserOptions,
  GivenVerification,
  GivenVerificationOptions,
  Scenario,
  ScenarioEntry,
  ScenarioResult,
} from './control/given';
export type {
  EventFilter,
  JournalEntry,
  JournalMessage,
  JournalSummary,
  MockEvent,
  MockEventType,
  ObservedListener,
  ObservedMessage,
  ObserveOptions,
  RequestFilter,
  Usage,
  UsageMessage,
  UsageOperation,
} from './observe';
export { DEFAULT_EVENT_LOG_SIZE, DEFAULT_JOURNAL_SIZE, JOURNAL_BODY_LIMIT } from './observe';
export type {
  AuthorizationRecord as Authorization,
  AuthorizationState,
  AuthorizationStep,
  Credentials,
  DeclineReason,
  FaultRule,
  Fixtures,
  OutboxMessage,
  OverrideRule,
  TenantSnapshot,
} from './store';
