/**
 * The public shapes of the in-process mock: what `createMock` takes, the mock it returns, and the whole state
 * a standalone server keeps in its state file.
 * @module
 */
import type { HttpHandler, RequestHandler } from 'msw';
import type { SecretEncoding } from 'card-issuing-sdk/server';
import type { Scenario, TenantControl } from '../control';
import type { ObserveOptions } from '../observe';
import type { Exchange } from '../pipeline/runtime';
import type { Credentials, TenantSnapshot } from '../store';

/** Options of `createMock`. */
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
   * How a secret becomes its HMAC key (contract section 2): its UTF-8 bytes (`'utf8'`, the default) or the bytes it
   * encodes in base64 (`'base64'`, as the service's C# sample suggests). Clients sign with the same setting
   * (`secretEncoding` of the SDK). With `'base64'` every secret must be base64.
   */
  secretEncoding?: SecretEncoding;
  /**
   * The URL clients reach the mock at through a proxy or tunnel that rewrites `Host` (a dev-server proxy, a
   * tunnel): signatures are then verified on this URL plus the request target as received. Default: the request's
   * own URL.
   */
  publicUrl?: string;
  /** Milliseconds added to every API response. */
  latencyMs?: number;
  /**
   * Refuse the captures a card network forces on an issuer, as the mock did before (422 above the hold + 15 % or
   * above what remains, 409 after a reversal or an expiry). Default false: they are accepted as `forcedCapture` steps
   * and move the money, as Stripe Issuing, Lithic and Marqeta clear them (the approval may be overspent).
   */
  strictCaptures?: boolean;
  /** The origin (optionally with a path prefix) the handlers match, e.g. `http://127.0.0.1:4010`. Default: any origin. */
  baseUrl?: string;
  /**
   * HMAC-SHA256 for signature checks (with `secretEncoding: 'utf8'`), when the caller has its own. Default: each
   * secret's key made once and kept, node:crypto's where the runtime has it (Node 22.3+: synchronous), else Web Crypto's.
   */
  hmac?: (secret: string, message: string) => Uint8Array | Promise<Uint8Array>;
  /**
   * Builders applied to every tenant's fresh state, in order (at creation, for a tenant added later, and again on
   * `reset`): a parsed scenario file (`card-issuing-mock/scenario.schema.json`). A wrong one throws a 400
   * VALIDATION_FAILED ProblemError listing every error; nothing is made.
   */
  scenario?: Scenario;
  /** How many exchanges and events each tenant keeps (`{ requests: 500, events: 1000 }` by default; 0 keeps none). */
  observe?: ObserveOptions;
  /**
   * Record what the consumer's tests exercised (operations, statuses, request fields sent, response fields received,
   * an example per status), beyond what the journal keeps: `mock.usage()`, `GET /__mock/usage`, and
   * `card-issuing-contract usage` for a usage file and a Pact. Default false (the standalone server: true).
   */
  recordUsage?: boolean;
}

/** Every tenant with its credentials: what a state file holds (secrets included). */
export interface ServerState {
  version: 1;
  defaultApiKey: string;
  tenants: { apiKey: string; apiSecret: string; state: TenantSnapshot }[];
}

/** The mock: MSW handlers plus the control API of the default tenant and of the whole mock. */
export interface CardIssuingMock extends TenantControl {
  /**
   * One msw handler that answers every request the mock calls its own: the spec's operations, the `/__mock/` control
   * routes, and 404 ROUTE_NOT_FOUND for any other path of the API's areas (`/s2s`, `/app`, `/corporates`, `/__mock`);
   * anything else passes on to the next handler.
   */
  handlers: HttpHandler[];
  /**
   * Adds raw msw handlers (`http.get(url, resolver)`) that answer before the mock's own, newest first, as msw's
   * `server.use` does, for every tenant and whichever runner serves `handlers` (setupServer, the test setups'
   * fetch, the service worker). A handler that returns nothing lets the mock answer. Returns the function
   * that removes these handlers; {@link CardIssuingMock.resetHandlers} removes all of them.
   */
  use(...handlers: RequestHandler[]): () => void;
  /** Removes every handler `use()` added (as msw's `server.resetHandlers()`); the mock's own stay. */
  resetHandlers(): void;
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
