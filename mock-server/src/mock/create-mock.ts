/**
 * `createMock`: the in-process mock wired together, the store and its tenants, the runtime, the control API of
 * each tenant (recorded in the write-ahead log when there is one), the request pipeline with the control and
 * inspector routes, the request journal, and the msw handlers.
 * @module
 */
import { mswHandlers } from '../adapters/msw';
import { atWallClock } from '../clock';
import { callAction, controlRoutes, tenantControl, walRecorded, type TenantControl } from '../control';
import { ProblemError, notFound } from '../domain/errors';
import { inspectorRoutes } from '../inspector/routes';
import { journalListener, observerOf } from '../observe';
import { createPipeline } from '../pipeline';
import { commandWall, recordCommand, runApi, runSettle } from '../pipeline/commands';
import type { Exchange } from '../pipeline/runtime';
import { createRuntime } from '../pipeline/runtime';
import {
  TenantRegistry,
  cloneState,
  migrateSnapshot,
  type Credentials,
  type Tenant,
  type TenantSnapshot,
  type TenantState,
} from '../store';
import { setMockInternals } from './internals';
import type { SecretEncoding } from 'card-issuing-sdk/server';
import type { CardIssuingMock, CreateMockOptions, ServerState } from './options';
import { checkCredentials, serverStateProblem } from './server-state';

/** The default credentials of the mock (contract section 1). */
const DEFAULT_CREDENTIALS: Credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };

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
    tenants,
    verifySignatures: options.verifySignatures ?? true,
    bodyHash: options.bodyHash ?? false,
    latencyMs: options.latencyMs ?? 0,
    secretEncoding: checkedSecretEncoding(options.secretEncoding, credentials),
    baseUrl: options.baseUrl,
    listeners,
    hmac: options.hmac,
    publicUrl: options.publicUrl,
    observer: observerOf(tenants, options.observe),
  });

  const controlOf = (apiKey: string): TenantControl => {
    const find = (): Tenant => tenants.get(apiKey) ?? fail(notFound('tenant with api key', apiKey));
    find();
    return walRecorded(runtime, tenantControl(runtime, find));
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
      throw new ProblemError(
        'API_KEY_EXISTS',
        `The api key ${checked.apiKey} is already a tenant, with another secret.`,
      );
    }
    if (!existing) {
      tenants.add(checked);
      runtime.changed();
    }
    return { created: !existing, control: controlOf(checked.apiKey) };
  };

  const defaultControl = walRecorded(
    runtime,
    tenantControl(runtime, () => tenants.default),
  );
  const control = (apiKey: string | null) =>
    apiKey === null ? defaultControl : tenants.get(apiKey) ? controlOf(apiKey) : undefined;
  const pipeline = createPipeline(
    runtime,
    [...controlRoutes({ control, addCredentials }), ...inspectorRoutes(runtime)],
    { control },
  );
  // The request journal listens to the pipeline's exchanges (unless it keeps nothing).
  if (runtime.observer.journalSize > 0) runtime.exchangeListeners.add(journalListener(runtime));
  const handlers = mswHandlers(pipeline, runtime.baseUrl);

  const importState = (given: ServerState): void => {
    const state = migrateServerState(given);
    const problem = serverStateProblem(state);
    if (problem)
      throw new ProblemError('VALIDATION_FAILED', `Not a mock server state: ${problem}.`, {
        errors: [{ path: 'state', message: problem }],
      });
    tenants.replaceAll(
      state.tenants.map((t) => ({
        credentials: { apiKey: t.apiKey, apiSecret: t.apiSecret },
        state: { ...cloneState(t.state), apiKey: t.apiKey },
      })),
      state.defaultApiKey,
    );
    recordCommand(runtime, { kind: 'mock', wall: commandWall(), action: 'importState', args: [state] });
    runtime.changed();
  };

  const mock: CardIssuingMock = {
    get apiKey() {
      return tenants.default.apiKey;
    },
    clock: defaultControl.clock,
    reset: defaultControl.reset,
    snapshot: defaultControl.snapshot,
    restore: defaultControl.restore,
    outbox: defaultControl.outbox,
    kyc: defaultControl.kyc,
    deposits: defaultControl.deposits,
    approvals: defaultControl.approvals,
    users: defaultControl.users,
    cards: defaultControl.cards,
    faults: defaultControl.faults,
    fixtures: defaultControl.fixtures,
    authorizations: defaultControl.authorizations,
    requests: defaultControl.requests,
    events: defaultControl.events,
    subscribe: defaultControl.subscribe,
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

  setMockInternals(mock, {
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
    attachWal(wal) {
      runtime.wal = wal;
    },
  });
  return mock;
}

function fail(error: Error): never {
  throw error;
}

/** A server state whose tenant snapshots of older versions are brought to this one (`store/migrate.ts`). */
function migrateServerState(state: ServerState): ServerState {
  if (typeof state !== 'object' || state === null || !Array.isArray(state.tenants)) return state;
  return {
    ...state,
    tenants: state.tenants.map((t) =>
      typeof t === 'object' && t !== null ? { ...t, state: migrateSnapshot(t.state) as TenantSnapshot } : t,
    ),
  };
}

/** The secret encoding, checked: with `'base64'` every given secret must be base64 (else every request would fail). */
function checkedSecretEncoding(
  encoding: SecretEncoding | undefined,
  credentials: readonly Credentials[],
): SecretEncoding {
  if (encoding === undefined || encoding === 'utf8') return 'utf8';
  if (encoding !== 'base64')
    throw new TypeError(`createMock: secretEncoding must be 'utf8' or 'base64' (got ${JSON.stringify(encoding)}).`);
  const notBase64 = credentials.find((c) => !BASE64.test(c.apiSecret));
  if (notBase64)
    throw new TypeError(
      `createMock: with secretEncoding 'base64' every api secret must be base64; the secret of api key ${notBase64.apiKey} is not.`,
    );
  return encoding;
}
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
