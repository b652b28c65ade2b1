/**
 * `createMock`: the in-process mock wired together, the store and its tenants, the runtime, the control API of
 * each tenant (recorded in the write-ahead log when there is one), the request pipeline with the control and
 * inspector routes, the request journal, and the msw handlers.
 * @module
 */
import type { RequestHandler } from 'msw';
import { mswHandlers } from '../adapters/msw';
import { atWallClock } from '../clock';
import { callAction, controlRoutes, furnish, tenantControl, walRecorded, type TenantControl } from '../control';
import { ProblemError, notFound } from '../domain/errors';
import { inspectorRoutes } from '../inspector/routes';
import { journalListener, observerOf } from '../observe';
import { createPipeline } from '../pipeline';
import { commandWall, recordCommand, runApi, runSettle } from '../pipeline/commands';
import type { Exchange } from '../pipeline/runtime';
import type { Command } from '../pipeline/wal';
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
import { setMockInternals, type MockInternals } from './internals';
import { isBase64Secret, type SecretEncoding } from 'card-issuing-sdk/server';
import type { CardIssuingMock, CreateMockOptions, ServerState } from './options';
import { checkCredentials, serverStateProblem } from './server-state';

/** The default credentials of the mock (contract section 1). */
const DEFAULT_CREDENTIALS: Credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };

/** Creates a mock. Deterministic for a `seed` (with a frozen clock, byte-for-byte). */
export function createMock(options: CreateMockOptions = {}): CardIssuingMock {
  const credentials = (options.credentials ?? [DEFAULT_CREDENTIALS]).map(checkCredentials);
  const tenants = tenantRegistry(options, credentials);
  const listeners = new Set<() => void>();
  const serverState = (copy: (state: TenantState) => TenantState) => serverStateOf(tenants, copy);
  const runtime = mockRuntime(options, tenants, credentials, listeners);
  const controlOf = (apiKey: string): TenantControl => {
    const find = (): Tenant => tenants.get(apiKey) ?? fail(notFound('tenant with api key', apiKey));
    find();
    return walRecorded(runtime, tenantControl(runtime, find));
  };
  const { addCredentials, addCredentialsNow } = credentialAdders(runtime, tenants, controlOf);
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
  if (runtime.observer.journalSize > 0 || runtime.observer.usage)
    runtime.exchangeListeners.add(journalListener(runtime));
  // What mock.use() added, newest first; the mock's own handler tries them before its pipeline.
  const used: RequestHandler[] = [];
  const importState = stateImporter(runtime, tenants);

  const mock: CardIssuingMock = {
    get apiKey() {
      return tenants.default.apiKey;
    },
    ...defaultTenantMembers(defaultControl),
    handlers: mswHandlers(pipeline, runtime.baseUrl, used),
    ...usedHandlers(used),
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

  const replay = (command: Command) =>
    replayCommand(runtime, command, {
      tenant: (apiKey) => tenants.get(apiKey),
      control,
      addCredentials: addCredentialsNow,
      importState,
    });
  setMockInternals(mock, {
    runtime,
    pipeline,
    liveState: () => serverState((state) => state),
    replay,
    ...storedStateMembers(tenants, importState),
    attachWal(wal) {
      runtime.wal = wal;
    },
  });
  return mock;
}

/** The state as a state file keeps it (each tenant's fields beside its state), and its loading. */
function storedStateMembers(
  tenants: TenantRegistry,
  importState: (state: ServerState) => void,
): Pick<MockInternals, 'storedState' | 'load'> {
  return {
    storedState: () => ({
      defaultApiKey: tenants.default.apiKey,
      tenants: tenants.all().map((t) => {
        const { apiKey, apiSecret, state, ...fields } = t;
        return { apiKey, apiSecret, fields: JSON.parse(JSON.stringify(fields)), state: cloneState(state) as never };
      }),
    }),
    load(stored) {
      importState({
        version: 1,
        defaultApiKey: stored.defaultApiKey,
        tenants: stored.tenants.map((t) => ({
          apiKey: t.apiKey,
          apiSecret: t.apiSecret,
          state: t.state as unknown as TenantSnapshot,
        })),
      });
      for (const t of stored.tenants) tenants.restoreFields(t.apiKey, t.fields);
    },
  };
}

/** The tenants, the first one made at once (with the scenario, if any). */
function tenantRegistry(options: CreateMockOptions, credentials: readonly Credentials[]): TenantRegistry {
  // A wrong scenario is refused (every error listed) when the first tenant's state is furnished, here.
  const scenario = options.scenario;
  return new TenantRegistry(
    String(options.seed ?? 'card-issuing'),
    options.clock?.now,
    credentials,
    scenario === undefined ? undefined : (state) => furnish(state, scenario),
  );
}

/** Every tenant's credentials and state (each state through `copy`). */
function serverStateOf(tenants: TenantRegistry, copy: (state: TenantState) => TenantState): ServerState {
  return {
    version: 1,
    defaultApiKey: tenants.default.apiKey,
    tenants: tenants.all().map((t) => ({ apiKey: t.apiKey, apiSecret: t.apiSecret, state: copy(t.state) })),
  };
}

/** The runtime the pipeline, the control API and the journal share. */
function mockRuntime(
  options: CreateMockOptions,
  tenants: TenantRegistry,
  credentials: readonly Credentials[],
  listeners: Set<() => void>,
) {
  return createRuntime({
    tenants,
    verifySignatures: options.verifySignatures ?? true,
    bodyHash: options.bodyHash ?? false,
    latencyMs: options.latencyMs ?? 0,
    strictCaptures: options.strictCaptures ?? false,
    secretEncoding: checkedSecretEncoding(options.secretEncoding, credentials),
    baseUrl: options.baseUrl,
    listeners,
    hmac: options.hmac,
    publicUrl: options.publicUrl,
    observer: observerOf(tenants, { ...options.observe, ...(options.recordUsage ? { usage: true } : {}) }),
  });
}

type Runtime = ReturnType<typeof mockRuntime>;
type Added = { created: boolean; control: TenantControl };

/** Adding a tenant: `addCredentials` records it in the write-ahead log; `addCredentialsNow` (its replay) does not. */
function credentialAdders(
  runtime: Runtime,
  tenants: TenantRegistry,
  controlOf: (apiKey: string) => TenantControl,
): { addCredentials: (c: Credentials) => Added; addCredentialsNow: (c: Credentials) => Added } {
  const addCredentialsNow = (c: Credentials): Added => {
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
  const addCredentials = (c: Credentials): Added => {
    const wall = commandWall();
    const result = atWallClock(wall, () => addCredentialsNow(c));
    if (result.created) recordCommand(runtime, { kind: 'mock', wall, action: 'addCredentials', args: [c] });
    return result;
  };
  return { addCredentials, addCredentialsNow };
}

/** `importState`: every tenant replaced by those of a server state (migrated and checked first). */
function stateImporter(runtime: Runtime, tenants: TenantRegistry): (given: ServerState) => void {
  return (given) => {
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
}

/** The mock's own members that act on the default tenant: those of its control. */
function defaultTenantMembers(defaultControl: TenantControl) {
  return {
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
    override: defaultControl.override,
    overrides: defaultControl.overrides,
    fixtures: defaultControl.fixtures,
    authorizations: defaultControl.authorizations,
    given: defaultControl.given,
    loadScenario: defaultControl.loadScenario,
    requests: defaultControl.requests,
    usage: defaultControl.usage,
    events: defaultControl.events,
    subscribe: defaultControl.subscribe,
  };
}

/** `use` and `resetHandlers`: the handlers added before the mock's own, newest first. */
function usedHandlers(used: RequestHandler[]) {
  return {
    use: (...added: RequestHandler[]) => {
      used.unshift(...added);
      return () => {
        for (const handler of added) {
          const index = used.indexOf(handler);
          if (index >= 0) used.splice(index, 1);
        }
      };
    },
    resetHandlers: () => {
      used.length = 0;
    },
  };
}

/** What replaying a logged command acts on. */
interface ReplayTargets {
  tenant: (apiKey: string) => Tenant | undefined;
  control: (apiKey: string) => TenantControl | undefined;
  addCredentials: (c: Credentials) => unknown;
  importState: (state: ServerState) => void;
}

/** Replays one logged command, with the runtime marked as replaying (so that nothing is logged again). */
function replayCommand(runtime: Runtime, command: Command, targets: ReplayTargets): void {
  runtime.replaying = true;
  try {
    replayOne(runtime, command, targets);
  } finally {
    runtime.replaying = false;
  }
}

function replayOne(runtime: Runtime, command: Command, targets: ReplayTargets): void {
  const tenantOf = (apiKey: string) => targets.tenant(apiKey) ?? fail(notFound('tenant with api key', apiKey));
  if (command.kind === 'api') {
    runApi(runtime, tenantOf(command.apiKey), command);
  } else if (command.kind === 'settle') {
    runSettle(tenantOf(command.apiKey), command.wall);
  } else if (command.kind === 'control') {
    const target = targets.control(command.apiKey) ?? fail(notFound('tenant with api key', command.apiKey));
    // JSON has no undefined: an argument left out (a whole-amount refund) was logged as null.
    const args = command.args.map((a) => (a === null ? undefined : a));
    atWallClock(command.wall, () => callAction(target, command.action, args));
  } else if (command.kind === 'mock' && command.action === 'addCredentials') {
    atWallClock(command.wall, () => targets.addCredentials(command.args[0] as Credentials));
  } else if (command.kind === 'mock' && command.action === 'importState') {
    atWallClock(command.wall, () => targets.importState(command.args[0] as ServerState));
  } else {
    throw new TypeError(`Not a logged change: ${JSON.stringify(command).slice(0, 80)}`);
  }
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
  const notBase64 = credentials.find((c) => !isBase64Secret(c.apiSecret));
  if (notBase64)
    throw new TypeError(
      `createMock: with secretEncoding 'base64' every api secret must be base64; the secret of api key ${notBase64.apiKey} is not.`,
    );
  return encoding;
}
