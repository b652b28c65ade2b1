/**
 * `card-issuing-mock`: a stateful mock of the card-issuing API as MSW handlers over an in-memory store,
 * with a virtual clock and the control API of contract section 7. Browser-safe (no `node:` import): the same
 * handlers serve tests in-process (`setupServer`), the standalone server (`getResponse`) and the service worker.
 *
 * Layers: `store/` (records per tenant, seeded fixtures, snapshots) → `machines/` (state tables) → `domain/`
 * (behaviour) → `pipeline/` (one transport-free request pipeline for the 32 operations and the `/__mock/` routes of
 * `control/`) → adapters: msw handlers (`adapters/msw.ts`) and the node:http front (`node/server.ts`).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMock } from 'card-issuing-mock';
 * const mock = createMock({ seed: 42, clock: { now: '2026-11-21T09:00:00Z' }, baseUrl: 'http://mock.test' });
 * setupServer(...mock.handlers).listen();
 * mock.clock.advance(3 * 24 * 3600); // a physical card's order completes
 * ```
 * @packageDocumentation
 */
import type { HttpHandler } from 'msw';
import { mswHandlers } from './adapters/msw';
import { atWallClock } from './clock';
import { callAction, controlRoutes, journaled, tenantControl, zApiKey, type TenantControl } from './control';
import { ProblemError, notFound } from './domain/errors';
import { commandWall, createPipeline, recordCommand, type Exchange, type Pipeline } from './pipeline';
import { runApi, runSettle, type Command } from './pipeline/commands';
import { createRuntime, type Journal, type MockRuntime } from './pipeline/runtime';
import { webCryptoHmac } from './pipeline/signature';
import { inspectorRoutes } from './inspector/routes';
import { journalListener, type ObserveOptions } from './observe';
import { TenantRegistry, cloneState, migrateSnapshot, snapshotProblem, type Credentials, type Tenant, type TenantSnapshot, type TenantState } from './store';

export { ProblemError } from './domain/errors';
export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch';
export type { ProblemExtras } from './domain/errors';
export type { IncomingDeposit, IncomingDepositResult, DomainEvent, DomainObserver } from './domain';
export type { ChangeRequest } from './domain/business';
export type { AuthorizationFilter, Purchase } from './domain/authorizations';
export { DECLINE_REASONS } from './domain/authorizations';
export type { FaultSpec } from './pipeline/faults';
export type { Exchange } from './pipeline/runtime';
export type { Reply } from './pipeline/reply';
export type { AuthorizationControl, TenantControl } from './control';
export type {
  EventFilter, JournalEntry, JournalMessage, JournalSummary, MockEvent, MockEventType, ObservedListener, ObservedMessage, ObserveOptions,
  RequestFilter,
} from './observe';
export { DEFAULT_EVENT_LOG_SIZE, DEFAULT_JOURNAL_SIZE, JOURNAL_BODY_LIMIT } from './observe';
export type {
  AuthorizationRecord as Authorization, AuthorizationState, AuthorizationStep, Credentials, DeclineReason, Fixtures, OutboxMessage, TenantSnapshot,
} from './store';

/** Options of {@link createMock}. */
export interface CreateMockOptions {
  /** Seed of the fixtures and every generated id, code and PAN (default `'card-issuing'`). */
  seed?: number | string;
  /** `{ now }`: the virtual clock starts frozen at this instant. Default: wall clock + offset (it ticks). */
  clock?: { now?: string | Date };
  /** One tenant per credentials; the first is the default. Default `[{ apiKey: 'test_key', apiSecret: 'test_secret' }]`. */
  credentials?: Credentials[];
  /** Check HMAC signatures (default true). False: no auth; the tenant is the header's api key if known, else the default. */
  verifySignatures?: boolean;
  /**
   * Require the body hash in every signature (`+ base64(SHA-256(body))`, contract section 2), for deployments that
   * want the body covered. Default false: the five parts the service publishes; a request signed with the hash is
   * then a mismatch, as it would be on the service.
   */
  bodyHash?: boolean;
  /**
   * The URL clients reach the mock at through a proxy or tunnel that rewrites `Host` (a dev-server proxy, a
   * tunnel): signatures are then verified on this URL plus the request target as received. Default: the request's
   * own URL.
   */
  publicUrl?: string;
  /** Milliseconds added to every API response. */
  latencyMs?: number;
  /** The origin (optionally with a path prefix) the handlers match, e.g. `http://127.0.0.1:4010`. Default: any origin. */
  baseUrl?: string;
  /**
   * HMAC-SHA256 for signature checks, when the platform has a faster one than Web Crypto (the standalone server
   * passes node:crypto's). Default: Web Crypto with each secret's key imported once.
   */
  hmac?: (secret: string, message: string) => Uint8Array | Promise<Uint8Array>;
  /** How many exchanges and events each tenant keeps (`{ requests: 500, events: 1000 }` by default; 0 keeps none). */
  observe?: ObserveOptions;
}

/** Every tenant with its credentials: what a state file holds (secrets included). */
export interface ServerState {
  version: 1;
  defaultApiKey: string;
  tenants: { apiKey: string; apiSecret: string; state: TenantSnapshot }[];
}

/** The mock: MSW handlers plus the control API of the default tenant and of the whole mock. */
export interface CardIssuingMock extends TenantControl {
  /** The 32 operations, the `/__mock/` control routes and 404 problem+json catch-alls, in matching order. */
  handlers: HttpHandler[];
  /** The same control surface for another tenant (404 NOT_FOUND ProblemError when the key is unknown). */
  tenant(apiKey: string): TenantControl;
  /** A new tenant with its own seeded state; the same credentials again change nothing; a known key with another secret is 409 API_KEY_EXISTS. */
  addCredentials(credentials: Credentials): TenantControl;
  /** All tenants and credentials (for `--state-file`). */
  exportState(): ServerState;
  /** Replaces all tenants and credentials; throws a 400 VALIDATION_FAILED ProblemError naming what is wrong. */
  importState(state: ServerState): void;
  /** Calls `listener` after every state change; returns the function that stops it. */
  onChange(listener: () => void): () => void;
  /**
   * Calls `listener` once each request handled by the mock has its answer (request, reply, operationId, status,
   * code, duration, request id); returns the function that stops it. Nothing is built when no one listens.
   */
  onExchange(listener: (exchange: Exchange) => void): () => void;
}

/** What the standalone server needs beyond the public surface: the pipeline itself, and the journal seam. */
export interface MockInternals {
  runtime: MockRuntime;
  pipeline: Pipeline;
  /** Replays one journaled command (state file load); a command that fails now failed then too, and is skipped. */
  replay(command: Command): void;
  /** Hangs a journal on the mock: from now on every change is recorded in it. */
  attachJournal(journal: Journal | undefined): void;
  /**
   * What `exportState()` gives, without copying the tenants' states: for serialising at once, in the same turn (a
   * state file's snapshot), never to keep or change. The copy cost seconds at 100,000 records.
   */
  liveState(): ServerState;
}

const internalsOf = new WeakMap<CardIssuingMock, MockInternals>();

/** The internals of a mock made by {@link createMock} (for `card-issuing-mock/node`). @internal */
export function mockInternals(mock: CardIssuingMock): MockInternals {
  const found = internalsOf.get(mock);
  if (!found) throw new TypeError('Not a mock made by createMock().');
  return found;
}

/** The default credentials of the mock (contract section 1). */
export const DEFAULT_CREDENTIALS: Credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };

/** Creates a mock. Deterministic for a `seed` (with a frozen clock, byte-for-byte). */
export function createMock(options: CreateMockOptions = {}): CardIssuingMock {
  const credentials = (options.credentials ?? [DEFAULT_CREDENTIALS]).map(checkCredentials);
  const tenants = new TenantRegistry(String(options.seed ?? 'card-issuing'), options.clock?.now, credentials);
  const listeners = new Set<() => void>();
  const serverState = (copy: (state: TenantState) => TenantState): ServerState => ({
    version: 1,
    defaultApiKey: tenants.default.apiKey,
    tenants: tenants.all().map((t) => ({ apiKey: t.apiKey, apiSecret: t.apiSecret, state: copy(t.state) })),
  });
  const runtime = createRuntime({
    tenants, verifySignatures: options.verifySignatures ?? true, bodyHash: options.bodyHash ?? false, latencyMs: options.latencyMs ?? 0,
    baseUrl: options.baseUrl, listeners, hmac: options.hmac ?? webCryptoHmac(), publicUrl: options.publicUrl,
    ...(options.observe ? { observe: options.observe } : {}),
  });

  const controlOf = (apiKey: string): TenantControl => {
    const find = (): Tenant => tenants.get(apiKey) ?? fail(notFound('tenant with api key', apiKey));
    find();
    return journaled(runtime, tenantControl(runtime, find));
  };
  const addCredentials = (c: Credentials): { created: boolean; control: TenantControl } => {
    const wall = commandWall();
    const result = atWallClock(wall, () => addCredentialsNow(c));
    if (result.created) recordCommand(runtime, { kind: 'mock', wall, action: 'addCredentials', args: [c] });
    return result;
  };
  const addCredentialsNow = (c: Credentials): { created: boolean; control: TenantControl } => {
    const checked = checkCredentials(c);
    const existing = tenants.get(checked.apiKey);
    if (existing && existing.apiSecret !== checked.apiSecret) {
      throw new ProblemError(409, 'API_KEY_EXISTS', `The api key ${checked.apiKey} is already a tenant, with another secret.`);
    }
    if (!existing) {
      tenants.add(checked);
      runtime.changed();
    }
    return { created: !existing, control: controlOf(checked.apiKey) };
  };

  const defaultControl = journaled(runtime, tenantControl(runtime, () => tenants.default));
  const control = (apiKey: string | null) => (apiKey === null ? defaultControl : tenants.get(apiKey) ? controlOf(apiKey) : undefined);
  const pipeline = createPipeline(runtime, [...controlRoutes({ control, addCredentials }), ...inspectorRoutes(runtime)], { control });
  // The request journal listens to the pipeline's exchanges (unless it keeps nothing).
  if (runtime.observer.journalSize > 0) runtime.exchangeListeners.add(journalListener(runtime));
  const handlers = mswHandlers(pipeline, runtime.baseUrl);

  const importState = (given: ServerState): void => {
    const state = migrateServerState(given);
    const problem = serverStateProblem(state);
    if (problem) throw new ProblemError(400, 'VALIDATION_FAILED', `Not a mock server state: ${problem}.`, { errors: [{ path: 'state', message: problem }] });
    tenants.replaceAll(
      state.tenants.map((t) => ({ credentials: { apiKey: t.apiKey, apiSecret: t.apiSecret }, state: { ...cloneState(t.state), apiKey: t.apiKey } })),
      state.defaultApiKey,
    );
    recordCommand(runtime, { kind: 'mock', wall: commandWall(), action: 'importState', args: [state] });
    runtime.changed();
  };

  const mock: CardIssuingMock = {
    get apiKey() {
      return tenants.default.apiKey;
    },
    clock: defaultControl.clock, reset: defaultControl.reset, snapshot: defaultControl.snapshot, restore: defaultControl.restore,
    outbox: defaultControl.outbox, kyc: defaultControl.kyc, deposits: defaultControl.deposits, approvals: defaultControl.approvals,
    users: defaultControl.users, cards: defaultControl.cards, faults: defaultControl.faults, fixtures: defaultControl.fixtures,
    authorizations: defaultControl.authorizations,
    requests: defaultControl.requests, events: defaultControl.events, subscribe: defaultControl.subscribe,
    handlers,
    tenant: controlOf,
    addCredentials: (c: Credentials) => addCredentials(c).control,
    exportState: (): ServerState => serverState(cloneState),
    importState,
    onChange: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onExchange: (listener: (exchange: Exchange) => void) => {
      runtime.exchangeListeners.add(listener);
      return () => void runtime.exchangeListeners.delete(listener);
    },
  };

  internalsOf.set(mock, {
    runtime,
    pipeline,
    liveState: () => serverState((state) => state),
    replay(command) {
      runtime.replaying = true;
      try {
        if (command.kind === 'api') {
          const tenant = tenants.get(command.apiKey);
          if (tenant) runApi(runtime, tenant, command);
        } else if (command.kind === 'settle') {
          const tenant = tenants.get(command.apiKey);
          if (tenant) runSettle(tenant, command.wall);
        } else if (command.kind === 'control') {
          const target = control(command.apiKey);
          if (target) atWallClock(command.wall, () => callAction(target, command.action, command.args));
        } else if (command.action === 'addCredentials') {
          atWallClock(command.wall, () => addCredentialsNow(command.args[0] as Credentials));
        } else {
          atWallClock(command.wall, () => importState(command.args[0] as ServerState));
        }
      } catch {
        // It failed when it first ran too (and changed what it changed before failing, as it just did again).
      } finally {
        runtime.replaying = false;
      }
    },
    attachJournal(journal) {
      runtime.journal = journal;
    },
  });
  return mock;
}

/** A server state whose tenant snapshots of older versions are brought to this one (`store/migrate.ts`). */
function migrateServerState(state: ServerState): ServerState {
  if (typeof state !== 'object' || state === null || !Array.isArray(state.tenants)) return state;
  return { ...state, tenants: state.tenants.map((t) => (typeof t === 'object' && t !== null ? { ...t, state: migrateSnapshot(t.state) as TenantSnapshot } : t)) };
}

/** Why `value` is not a {@link ServerState}, or undefined when it is one. */
export function serverStateProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a server state is a JSON object';
  const s = value as Partial<ServerState>;
  if (s.version !== 1) return 'a server state has "version": 1';
  if (typeof s.defaultApiKey !== 'string') return 'a server state has "defaultApiKey"';
  if (!Array.isArray(s.tenants) || s.tenants.length === 0) return 'a server state has "tenants", a non-empty list';
  const keys = new Set<string>();
  for (const [i, t] of s.tenants.entries()) {
    if (typeof t !== 'object' || t === null) return `tenants[${i}] is an object`;
    if (!zApiKey.safeParse(t.apiKey).success || typeof t.apiSecret !== 'string' || t.apiSecret === '') return `tenants[${i}] has an "apiKey" and an "apiSecret"`;
    if (keys.has(t.apiKey)) return `tenants[${i}] repeats the api key ${t.apiKey}`;
    keys.add(t.apiKey);
    const problem = snapshotProblem(t.state);
    if (problem) return `tenants[${i}].state: ${problem}`;
  }
  if (!keys.has(s.defaultApiKey)) return `"defaultApiKey" names no tenant`;
  return undefined;
}

function checkCredentials(c: Credentials): Credentials {
  if (typeof c !== 'object' || c === null || !zApiKey.safeParse(c.apiKey).success || typeof c.apiSecret !== 'string' || c.apiSecret === '') {
    throw new ProblemError(400, 'VALIDATION_FAILED', 'Credentials are { apiKey, apiSecret }: an api key of printable ASCII without ":", and a non-empty secret.');
  }
  return { apiKey: c.apiKey, apiSecret: c.apiSecret };
}

function fail(error: Error): never {
  throw error;
}
