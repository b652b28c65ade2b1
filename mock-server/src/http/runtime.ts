/**
 * What the HTTP handlers and the control routes share: the tenants, the options, the nonce cache, request ids,
 * and the change notification (the standalone server saves its state file on it).
 * @module
 */
import { NonceCache, parseAuthorization } from 'card-issuing-sdk';
import { clockNow } from '../clock';
import { Observer, type ObserveOptions } from '../observe';
import { Prng, seedState, type Tenant, type TenantRegistry } from '../store';

/** The mock's shared runtime. */
export interface MockRuntime {
  readonly tenants: TenantRegistry;
  readonly verifySignatures: boolean;
  readonly latencyMs: number;
  /** The origin (and optional path prefix) handlers match; undefined: any origin. */
  readonly baseUrl: string | undefined;
  readonly nonces: NonceCache;
  /** The request journal and domain event log of every tenant. */
  readonly observer: Observer;
  /** A fresh request id (`req_` + 16 hex), deterministic for the seed and the order of requests. */
  nextRequestId(): string;
  /** Tells the listeners that state changed. */
  changed(): void;
}

/** Creates the runtime of one mock. */
export function createRuntime(options: {
  tenants: TenantRegistry; verifySignatures: boolean; latencyMs: number; baseUrl: string | undefined; listeners: Set<() => void>;
  observe?: ObserveOptions;
}): MockRuntime {
  const { tenants } = options;
  const ids = new Prng(seedState(`${options.tenants.seed}\u0000request-ids`));
  return {
    tenants: options.tenants,
    verifySignatures: options.verifySignatures,
    latencyMs: options.latencyMs,
    baseUrl: options.baseUrl?.replace(/\/+$/, ''),
    nonces: new NonceCache(),
    observer: new Observer({
      secrets: () => tenants.all().map((t) => t.apiSecret),
      virtualNow: (apiKey) => clockNow((tenants.get(apiKey) ?? tenants.default).state.clock),
    }, options.observe),
    nextRequestId: () => `req_${ids.chars(16, '0123456789abcdef')}`,
    changed: () => {
      for (const listener of options.listeners) {
        try {
          listener();
        } catch {
          // A listener's failure (a state file that cannot be written) must not fail the request.
        }
      }
    },
  };
}

/** The tenant an `Authorization` header names (without verifying it), when it parses and the key is known. */
export function tenantOfHeader(runtime: MockRuntime, authorization: string | null): Tenant | undefined {
  const apiKey = authorization ? parseAuthorization(authorization)?.apiKey : undefined;
  return apiKey === undefined ? undefined : runtime.tenants.get(apiKey);
}

/** The msw path pattern of a spec path under the runtime's base URL (`{id}` → `:id`). */
export function routePattern(runtime: MockRuntime, path: string): string {
  return `${runtime.baseUrl ?? '*'}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
}
