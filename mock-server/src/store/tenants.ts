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

/** An injected fault: requests matching `method` and `path` fail with `status` (or only wait `delayMs`). */
export interface FaultRule {
  /** Upper-case method; undefined matches every method. */
  method?: string;
  /** A path pattern: `*` matches anything, `{name}` or `:name` one segment. */
  path: string;
  /** The status to answer with (400-599), or 0 for a network error; undefined: only the delay. */
  status?: number;
  delayMs?: number;
  /** How many matching requests it still affects. */
  remaining: number;
}

/** A tenant: its credentials, state and injected faults (faults are not part of its snapshot). */
export interface Tenant {
  readonly apiKey: string;
  apiSecret: string;
  state: TenantState;
  faults: FaultRule[];
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
    const tenant: Tenant = {
      apiKey: credentials.apiKey,
      apiSecret: credentials.apiSecret,
      state: this.fresh(credentials.apiKey),
      faults: [],
    };
    this.#tenants.set(credentials.apiKey, tenant);
    this.onTenants?.([tenant], false);
    return tenant;
  }

  /** Seeded state for an api key, the clock as `createMock` configured it. */
  fresh(apiKey: string): TenantState {
    return seedTenant(this.seed, apiKey, initialClock(this.clockNow));
  }

  /** Replaces every tenant (state file import); the first entry becomes the default unless `defaultApiKey` names one. */
  replaceAll(entries: { credentials: Credentials; state: TenantState }[], defaultApiKey?: string): void {
    if (entries.length === 0) throw new TypeError('A server state needs at least one tenant.');
    this.#tenants.clear();
    for (const { credentials, state } of entries) {
      this.#tenants.set(credentials.apiKey, {
        apiKey: credentials.apiKey,
        apiSecret: credentials.apiSecret,
        state,
        faults: [],
      });
    }
    this.#defaultKey =
      defaultApiKey !== undefined && this.#tenants.has(defaultApiKey) ? defaultApiKey : entries[0]!.credentials.apiKey;
    this.onTenants?.(this.all(), true);
  }
}
