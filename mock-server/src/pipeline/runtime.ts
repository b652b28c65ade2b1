/**
 * What the pipeline stages and the control API share: the tenants, the options, the nonce cache, request ids, the
 * signature verifier (made once: it keeps each secret's key), the write-ahead log a state file hangs on (wal.ts),
 * and the listeners (changes, exchanges).
 * @module
 */
import {
  createSignatureVerifier,
  parseAuthorization,
  type NonceCache,
  type SecretEncoding,
  type SignatureVerifier,
} from 'card-issuing-sdk/server';
import type { DomainObserver } from '../domain/events';
import { Prng, seedState, type Tenant, type TenantRegistry } from '../store';
import type { WriteAheadLog } from './wal';
import type { Reply } from './reply';
import { createNonceCache } from './nonces';

/** What an exchange observer receives once a request has its answer (the inspector's seam). */
export interface Exchange {
  request: { method: string; url: string; path: string; headers: Record<string, string>; body: string | undefined };
  /** The reply as sent; undefined for an injected network error (the connection was dropped). */
  response: Reply | undefined;
  /** The spec operation, or the control route (`control:<METHOD> <path>`), or undefined for no route. */
  operationId: string | undefined;
  /** 0 for a network error. */
  status: number;
  /** The problem code of an error reply. */
  code: string | undefined;
  durationMs: number;
  requestId: string;
  /** The tenant the request acted on (its api key), when it got that far. */
  apiKey: string | undefined;
  /** The id of the override that answered instead of the domain (`override_3`), when one did. */
  override?: string;
}

/**
 * What the pipeline needs of the mock's observer (observe/observer.ts): the emitter of a request's domain events,
 * and the scope of a control action whose events name its request. The layers above observe see all of it.
 */
export interface RuntimeObserver {
  emitter(tenant: string, requestId?: string | null): DomainObserver | undefined;
  during<T>(requestId: string, action: () => T): T;
}

/** The mock's shared runtime; `O` is its observer as the layer using it knows it. */
export interface MockRuntime<O extends RuntimeObserver = RuntimeObserver> {
  readonly tenants: TenantRegistry;
  readonly verifySignatures: boolean;
  /** Require the body hash in signatures (the opt-in profile; `--sign-body`). */
  readonly bodyHash: boolean;
  /** How secrets become HMAC keys (`--secret-encoding`). */
  readonly secretEncoding: SecretEncoding;
  /**
   * The URL clients reach the mock at through a proxy or tunnel (`--public-url`), without a trailing slash:
   * signatures are verified on it plus the request target as received. Undefined: on the request's own origin.
   */
  readonly publicUrl: string | undefined;
  readonly latencyMs: number;
  /** Refuse the captures card networks force (`strictCaptures`). */
  readonly strictCaptures: boolean;
  /** The origin (and optional path prefix) requests are matched under; undefined: any origin. */
  readonly baseUrl: string | undefined;
  readonly nonces: NonceCache;
  /** The caller's HMAC-SHA256 for signature checks, when given; else the verifier's own (node:crypto or Web Crypto). */
  readonly hmac: ((secret: string, message: string) => Uint8Array | Promise<Uint8Array>) | undefined;
  /** The signature verifier of these options, made once (it keeps each secret's key). */
  readonly signatures: SignatureVerifier;
  /** A fresh request id (`req_` + 16 hex), deterministic for the seed and the order of requests. */
  nextRequestId(): string;
  /** Tells the change listeners that state changed. */
  changed(): void;
  /** How many changes were told so far (a control action that made one is logged). */
  readonly changes: number;
  /** The write-ahead log of the state file, when there is one. */
  wal: WriteAheadLog | undefined;
  /** True while a write-ahead log is replayed into this runtime (nothing is logged again then). */
  replaying: boolean;
  /** Exchange observers; the pipeline builds an {@link Exchange} only when there is one. */
  readonly exchangeListeners: Set<(exchange: Exchange) => void>;
  /** The request journal and domain event log of every tenant (fed by an exchange listener and the domain's `emit`). */
  readonly observer: O;
}

/** Creates the runtime of one mock. */
export function createRuntime<O extends RuntimeObserver>(options: {
  tenants: TenantRegistry;
  verifySignatures: boolean;
  latencyMs: number;
  strictCaptures?: boolean;
  baseUrl: string | undefined;
  listeners: Set<() => void>;
  hmac?: MockRuntime['hmac'];
  bodyHash?: boolean;
  publicUrl?: string | undefined;
  secretEncoding?: SecretEncoding;
  observer: O;
}): MockRuntime<O> {
  let changes = 0;
  const nonces = createNonceCache();
  const bodyHash = options.bodyHash ?? false;
  const secretEncoding = options.secretEncoding ?? 'utf8';
  return {
    tenants: options.tenants,
    verifySignatures: options.verifySignatures,
    bodyHash,
    secretEncoding,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    latencyMs: options.latencyMs,
    strictCaptures: options.strictCaptures ?? false,
    baseUrl: options.baseUrl?.replace(/\/+$/, ''),
    nonces,
    hmac: options.hmac,
    signatures: createSignatureVerifier({
      getSecret: (apiKey) => options.tenants.secretOf(apiKey),
      nonces,
      hmac: options.hmac,
      bodyHash,
      secretEncoding,
    }),
    nextRequestId: requestIds(options.tenants.seed),
    get changes() {
      return changes;
    },
    changed: () => {
      changes++;
      for (const listener of options.listeners) {
        try {
          listener();
        } catch {
          // A listener's failure must not fail the request.
        }
      }
    },
    wal: undefined,
    replaying: false,
    exchangeListeners: new Set(),
    observer: options.observer,
  };
}

/** The tenant an `Authorization` header names (without verifying it), when it parses and the key is known. */
export function tenantOfHeader(runtime: MockRuntime, authorization: string | undefined): Tenant | undefined {
  const apiKey = authorization ? parseAuthorization(authorization)?.apiKey : undefined;
  return apiKey === undefined ? undefined : runtime.tenants.get(apiKey);
}

/**
 * The request ids of a mock (`req_` + 16 hex), deterministic for the seed and the order of requests. `start` counts
 * the starts of a server on one state file (1: the first, and a mock without one): each start has a sequence of its
 * own, so that a restart never gives an id of an earlier start again.
 */
export function requestIds(seed: string, start = 1): () => string {
  const ids = new Prng(seedState(`${seed}\u0000request-ids${start > 1 ? `\u0000start-${start}` : ''}`));
  return () => `req_${ids.chars(16, '0123456789abcdef')}`;
}
