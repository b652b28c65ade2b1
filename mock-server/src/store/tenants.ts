/**
 * Tenants: one state per api key, each seeded from (seed, apiKey), so test runs that share one mock never see
 * each other's data. The first credentials name the default tenant (the one the top-level control API acts on).
 * @module
 */
import { initialClock } from '../clock';
import { seedTenant } from './fixtures';
import type { TenantState } from './records';

/** Api credentials of a tenant. */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/**
 * An injected fault (pipeline/faults.ts): requests matching `operationId`, or `method` and `path`, fail with
 * `status` and `code` (or only wait `delayMs`). Plain JSON, kept with the tenant.
 */
export interface FaultRule {
  /** `fault_N`, unique in the tenant: what `DELETE /__mock/faults/{id}` removes. */
  id: string;
  /** The spec's operationId; when set, `method` and `path` are not. */
  operationId?: string;
  /** Upper-case method; undefined matches every method. */
  method?: string;
  /** A path pattern: `*` matches anything, `{name}` or `:name` one segment. */
  path?: string;
  /** The status to answer with (400-599), or 0 for a network error; undefined: only the delay. */
  status?: number;
  /** The problem code (the status's own code, `codeOfStatus`, unless the fault named one). */
  code?: string;
  detail?: string;
  /** Seconds sent as `Retry-After`. */
  retryAfter?: number;
  delayMs?: number;
  /** How many matching requests it still affects. */
  remaining: number;
}

/**
 * An override (pipeline/overrides.ts): the next `remaining` requests of `operationId` (all of them when null) are
 * answered with `status`, `headers` and `body` instead of the domain's answer. Plain JSON, kept with the tenant.
 */
export interface OverrideRule {
  /** `override_N`, unique in the tenant: what `DELETE /__mock/overrides/{id}` removes. */
  id: string;
  operationId: string;
  status: number;
  /** The JSON body (checked against the spec's response schema for the status unless `unchecked`). */
  body?: unknown;
  /** Lower-case names. */
  headers?: Record<string, string>;
  delayMs?: number;
  /** Set with `unchecked: true`: the body was not checked against the spec. */
  unchecked?: true;
  /** How many requests it still answers; null: every one until removed. */
  remaining: number | null;
}

/** A tenant: its credentials, state, injected faults and overrides (faults and overrides are not part of its snapshot). */
export interface Tenant {
  readonly apiKey: string;
  apiSecret: string;
  state: TenantState;
  faults: FaultRule[];
  overrides: OverrideRule[];
  /** The number of the last fault or override id given out in this tenant. */
  ruleSeq?: number;
}

/** A whole mock state as the state file keeps it: each tenant's state, and its fields beyond it (faults, ...). */
export interface StoredState {
  defaultApiKey: string;
  tenants: { apiKey: string; apiSecret: string; fields: Record<string, unknown>; state: Record<string, unknown> }[];
}

/** The tenants of one mock. */
export class TenantRegistry {
  readonly #tenants = new Map<string, Tenant>();
  #defaultKey: string;
  /** Told of every tenant object made from now on (a new tenant, or all of them replaced): the state file watches them. */
  onTenants: ((tenants: Tenant[], replacedAll: boolean) => void) | undefined;

  constructor(
    readonly seed: string,
    private readonly clockNow: string | Date | undefined,
    credentials: readonly Credentials[],
    /** What every fresh state gets on top of the seed (a scenario), at creation and on reset. */
    private readonly furnish?: (state: TenantState) => void,
  ) {
    if (credentials.length === 0) throw new TypeError('createMock needs at least one { apiKey, apiSecret }.');
    for (const c of credentials) this.add(c);
    this.#defaultKey = credentials[0]!.apiKey;
  }

  /** The default tenant (the first credentials). */
  get default(): Tenant {
    return this.#tenants.get(this.#defaultKey)!;
  }

  /** The tenant of an api key, or undefined. */
  get(apiKey: string): Tenant | undefined {
    return this.#tenants.get(apiKey);
  }

  /** The secret of an api key (what `verifySignature` asks for). */
  secretOf(apiKey: string): string | undefined {
    return this.#tenants.get(apiKey)?.apiSecret;
  }

  /** Every tenant, the default first. */
  all(): Tenant[] {
    return [...this.#tenants.values()];
  }

  /** A new tenant with freshly seeded state. */
  add(credentials: Credentials): Tenant {
    if (!credentials.apiKey || !credentials.apiSecret)
      throw new TypeError('Credentials need a non-empty apiKey and apiSecret.');
    const tenant = newTenant(credentials, this.fresh(credentials.apiKey));
    this.#tenants.set(credentials.apiKey, tenant);
    this.onTenants?.([tenant], false);
    return tenant;
  }

  /** Seeded state for an api key (furnished), the clock as `createMock` configured it. */
  fresh(apiKey: string): TenantState {
    const state = seedTenant(this.seed, apiKey, initialClock(this.clockNow));
    this.furnish?.(state);
    return state;
  }

  /** Replaces every tenant (state file import); the first entry becomes the default unless `defaultApiKey` names one. */
  replaceAll(entries: { credentials: Credentials; state: TenantState }[], defaultApiKey?: string): void {
    if (entries.length === 0) throw new TypeError('A server state needs at least one tenant.');
    this.#tenants.clear();
    for (const { credentials, state } of entries) {
      this.#tenants.set(credentials.apiKey, newTenant(credentials, state));
    }
    this.#defaultKey =
      defaultApiKey !== undefined && this.#tenants.has(defaultApiKey) ? defaultApiKey : entries[0]!.credentials.apiKey;
    this.onTenants?.(this.all(), true);
  }

  /**
   * Puts back a tenant's fields beyond its state as a state file's row keeps them. Each part is taken only when it is
   * what the tenant holds there: a row of an older or hand-edited file that lacks a list of rules, or holds something
   * else in its place, leaves that list empty rather than the tenant without it.
   */
  restoreFields(apiKey: string, fields: Readonly<Record<string, unknown>>): void {
    const tenant = this.#tenants.get(apiKey);
    if (!tenant) return;
    tenant.faults = Array.isArray(fields.faults) ? (fields.faults as FaultRule[]) : [];
    tenant.overrides = Array.isArray(fields.overrides) ? (fields.overrides as OverrideRule[]) : [];
    const seq = fields.ruleSeq;
    if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0) tenant.ruleSeq = seq;
  }
}

/** A tenant with every part: its credentials and state, no faults, no overrides. */
function newTenant(credentials: Credentials, state: TenantState): Tenant {
  return { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, state, faults: [], overrides: [] };
}
