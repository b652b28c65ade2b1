/**
 * The request pipeline, transport-free: one function from a {@link PipelineRequest} to an {@link Outcome}, shared
 * by the msw handlers (in-process tests, the service worker) and the standalone server's node:http front.
 *
 * An API request goes through these stages, in this order: route (a table compiled once) → limits (414 target,
 * 413 body) → signature (HMAC, wall clock, nonce cache; the expected `stringToSign` in the body of a mismatch) →
 * injected faults (only once the signature holds, so a forged request cannot use up a tenant's faults) → overrides
 * (the tenant's answer for the operation instead of the domain's, marked in the journal) → parse (400
 * MALFORMED_JSON) → validate path, query, headers and body with the generated zod schemas (400 VALIDATION_FAILED
 * naming each field) → the command: Idempotency-Key replay, settle (due time-driven transitions), domain, record
 * of the reply → durability (with a state file, the reply waits until its change is on disk; 503 when it cannot
 * be written) → latency → reply. Control routes (`/__mock/`) skip faults and latency; an unsigned one acts on the
 * default tenant, one for another tenant must be signed with its key (see control-auth.ts). Every reply
 * carries `X-Request-Id`; every error is problem+json. Exchange observers see each request and its reply.
 * @module
 */
import { ProblemError, notFound } from '../domain/errors';
import type { OverrideRule, Tenant } from '../store';
import { commandWall, runApi, ticketOf } from './commands';
import type { ControlAccess, ControlRoute } from './control-route';
import { faultProblem, takeFault } from './faults';
import { overrideReply, takeOverride } from './overrides';
import { fingerprint } from './idempotency';
import { operations, type Operation } from './operations';
import { bodyText, parseJson, parseQuery } from './parse';
import { asProblem, jsonReply, problemReply, replyCode, type Reply } from './reply';
import type { PipelineRequest } from './request';
import { Router, type MatchResult } from './router';
import { tenantOfHeader, type Exchange, type MockRuntime } from './runtime';
import { verifiedTenant } from './signature';
import { checkBodySize, checkTarget } from './limits';
import { controlApiKey } from './control-auth';
import { emptyQuery, NO_QUERY, pathPasses, queryValues, strict, validateParts } from './validation';

export type { PipelineRequest } from './request';
export type { Reply } from './reply';
export type { MockRuntime } from './runtime';

/** What the pipeline answers. */
export type Outcome =
  | { kind: 'reply'; reply: Reply }
  /** An injected network error: the transport drops the connection (msw: `Response.error()`). */
  | { kind: 'network-error' }
  /** Not the mock's request (another origin, no area of the API, a CORS preflight): the transport decides. */
  | { kind: 'pass' };

/** The request pipeline of one mock. */
export interface Pipeline {
  /** The outcome, or a promise of it when something is to be waited for (a promise costs a turn a request need not take). */
  handle(request: PipelineRequest): Outcome | Promise<Outcome>;
}

type Route<C> = { kind: 'api'; operation: Operation } | { kind: 'control'; def: ControlRoute<C> };

/** Compiles the route table once and returns the pipeline; `C` is the control a control route acts on. */
export function createPipeline<C>(
  runtime: MockRuntime,
  controlRoutes: readonly ControlRoute<C>[],
  access: ControlAccess<C>,
): Pipeline {
  const router = new Router<Route<C>>(
    [
      ...operations.map((operation) => ({
        method: operation.method,
        path: operation.path,
        route: { kind: 'api', operation } as Route<C>,
      })),
      ...controlRoutes.map((def) => ({
        method: def.method.toUpperCase(),
        path: def.path,
        route: { kind: 'control', def } as Route<C>,
      })),
    ],
    runtime.baseUrl,
  );

  return {
    handle(request) {
      if (request.method === 'OPTIONS') return { kind: 'pass' };
      const found = router.match(request.method, request.url, request.pathname);
      if (found.kind === 'not-ours') return { kind: 'pass' };
      const started = performance.now();
      const requestId = runtime.nextRequestId();
      const dispatched = dispatch(runtime, access, request, found, requestId);
      return dispatched instanceof Promise
        ? dispatched.then((result) => observed(runtime, request, result, requestId, started))
        : observed(runtime, request, dispatched, requestId, started);
    },
  };
}

/** The outcome of a dispatched request, once its exchange observers have seen it. */
function observed(
  runtime: MockRuntime,
  request: PipelineRequest,
  { outcome, operationId, tenant, override }: Dispatched,
  requestId: string,
  started: number,
): Outcome {
  if (runtime.exchangeListeners.size > 0)
    observe(runtime, request, outcome, operationId, requestId, started, tenant, override);
  return outcome;
}

/** What a request came to, and what the journal says of it. */
interface Dispatched {
  outcome: Outcome;
  operationId?: string;
  tenant?: Tenant;
  override?: string;
}

/**
 * A request of the mock's: refused by its limits or for its route, or answered by the API or a control route.
 * Synchronous unless something is to be waited for (a delay, a promise): a promise costs a turn a request need not
 * take.
 */
function dispatch<C>(
  runtime: MockRuntime,
  access: ControlAccess<C>,
  request: PipelineRequest,
  found: Exclude<MatchResult<Route<C>>, { kind: 'not-ours' }>,
  requestId: string,
): Dispatched | Promise<Dispatched> {
  const tooLong = limitProblem(() => checkTarget(request.pathname, request.search));
  if (tooLong) return { outcome: { kind: 'reply', reply: problemReply(tooLong, requestId, '') } };
  if (found.kind === 'not-found') {
    const problem = new ProblemError(
      'ROUTE_NOT_FOUND',
      found.path.startsWith('/__mock')
        ? `No control route ${request.method} ${request.pathname}; see docs/control-api.md for the routes.`
        : `No operation ${request.method} ${request.pathname}; see spec/openapi.yaml for the routes.`,
    );
    const result: Dispatched = {
      outcome: { kind: 'reply', reply: problemReply(problem, requestId, request.pathname) },
    };
    return runtime.latencyMs > 0 && !found.path.startsWith('/__mock') ? later(runtime.latencyMs, result) : result;
  }
  const route = found.match.route;
  if (route.kind === 'api') {
    const named = (result: Dispatched) => {
      result.operationId = route.operation.operationId;
      return result;
    };
    const result = api(runtime, route.operation, request, found.match.params, requestId);
    return result instanceof Promise ? result.then(named) : named(result);
  }
  const def = route.def;
  return control(runtime, access, def, request, found.match.params, requestId).then((reply) => ({
    outcome: { kind: 'reply', reply },
    operationId: `control:${def.method.toUpperCase()} ${def.path}`,
  }));
}

/** An API request, from its signature to its reply; synchronous unless something is to be waited for. */
function api(
  runtime: MockRuntime,
  operation: Operation,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
): Dispatched | Promise<Dispatched> {
  let tenant: Tenant;
  try {
    checkBodySize(request.body, false);
    const verified = runtime.verifySignatures
      ? verifiedTenant(runtime, request)
      : (tenantOfHeader(runtime, request.header('authorization')) ?? runtime.tenants.default);
    if (verified instanceof Promise)
      return verified.then(
        (found) => signed(runtime, operation, request, params, requestId, found),
        (error: unknown) => refused(runtime, error, request, requestId, undefined),
      );
    tenant = verified;
  } catch (error) {
    return refused(runtime, error, request, requestId, undefined);
  }
  return signed(runtime, operation, request, params, requestId, tenant);
}

/** Once the signature holds: the tenant's faults (a forged request names a tenant but cannot use up its faults). */
function signed(
  runtime: MockRuntime,
  operation: Operation,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
  tenant: Tenant,
): Dispatched | Promise<Dispatched> {
  try {
    const fault = takeFault(tenant, operation.operationId, request.method, request.pathname);
    if (fault) return faulted(runtime, operation, request, params, requestId, tenant, fault);
  } catch (error) {
    return refused(runtime, error, request, requestId, tenant);
  }
  return unfaulted(runtime, operation, request, params, requestId, tenant);
}

/** A fault's delay, then its dropped connection or its problem; a fault with a delay alone lets the request go on. */
async function faulted(
  runtime: MockRuntime,
  operation: Operation,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
  tenant: Tenant,
  fault: NonNullable<ReturnType<typeof takeFault>>,
): Promise<Dispatched> {
  try {
    if (fault.delayMs) await delay(fault.delayMs);
    if (fault.status === 0) return { outcome: { kind: 'network-error' }, tenant };
    if (fault.status !== undefined) throw faultProblem({ ...fault, status: fault.status });
  } catch (error) {
    return refused(runtime, error, request, requestId, tenant);
  }
  return unfaulted(runtime, operation, request, params, requestId, tenant);
}

/** The tenant's override, or the command: idempotency, settle, domain, the record of its reply. */
function unfaulted(
  runtime: MockRuntime,
  operation: Operation,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
  tenant: Tenant,
): Dispatched | Promise<Dispatched> {
  try {
    // An override answers instead of the domain, whatever the request (as an msw handler put first would).
    const override = takeOverride(tenant, operation.operationId);
    if (override)
      return overrideOutcome(runtime, override, requestId, request.pathname).then(
        (outcome) => ({ outcome, tenant, override: override.id }),
        (error: unknown) => refused(runtime, error, request, requestId, tenant),
      );
    const command = apiCommand(tenant, operation, request, params, requestId);
    const before = ticketOf(runtime);
    const ran = runApi(runtime, tenant, command);
    // Awaited only when there is something to wait for: a promise, or a change to be made durable.
    if (ran instanceof Promise || ticketOf(runtime) !== before)
      return ranLater(runtime, ran, before, request, requestId, tenant);
    return answered(runtime, ran, tenant);
  } catch (error) {
    return refused(runtime, error, request, requestId, tenant);
  }
}

/** The command's reply once it is there and its change on disk (503 STATE_NOT_SAVED when it cannot be written). */
async function ranLater(
  runtime: MockRuntime,
  ran: Reply | Promise<Reply>,
  before: number,
  request: PipelineRequest,
  requestId: string,
  tenant: Tenant,
): Promise<Dispatched> {
  let reply: Reply;
  try {
    reply = await ran;
    if (ticketOf(runtime) !== before) await durable(runtime, before);
  } catch (error) {
    reply = problemReply(asProblem(error), requestId, request.pathname);
  }
  return answered(runtime, reply, tenant);
}

/** The problem+json reply of what went wrong, after the mock's latency. */
function refused(
  runtime: MockRuntime,
  error: unknown,
  request: PipelineRequest,
  requestId: string,
  tenant: Tenant | undefined,
): Dispatched | Promise<Dispatched> {
  return answered(runtime, problemReply(asProblem(error), requestId, request.pathname), tenant);
}

/** A reply, after the mock's latency. */
function answered(runtime: MockRuntime, reply: Reply, tenant: Tenant | undefined): Dispatched | Promise<Dispatched> {
  const result: Dispatched = { outcome: { kind: 'reply', reply }, tenant };
  return runtime.latencyMs > 0 ? later(runtime.latencyMs, result) : result;
}

/** `value`, `ms` later. */
function later<T>(ms: number, value: T): Promise<T> {
  return delay(ms).then(() => value);
}

/** The tenant's override's answer, after its delay and the mock's latency. */
async function overrideOutcome(
  runtime: MockRuntime,
  override: OverrideRule,
  requestId: string,
  pathname: string,
): Promise<Outcome> {
  if (override.delayMs) await delay(override.delayMs);
  if (runtime.latencyMs > 0) await delay(runtime.latencyMs);
  return { kind: 'reply', reply: overrideReply(override, requestId, pathname) };
}

/** The API command of a request: its parts parsed and validated (400 naming each field that is not right). */
function apiCommand(
  tenant: Tenant,
  operation: Operation,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
): Parameters<typeof runApi>[2] {
  const text = bodyText(request.body);
  const body = operation.schemas.body ? parseJson(text) : undefined;
  const idempotencyKey = request.header('idempotency-key');
  // Unknown query parameters are refused as unknown body fields are (the spec's conventions).
  const querySchema = operation.schemas.query ? strict(operation.schemas.query) : NO_QUERY;
  // A request without a query whose schema takes that as it is (no required parameter) skips zod for it.
  const noQuery = request.search === '' ? emptyQuery(querySchema) : undefined;
  const queryValue =
    noQuery ?? (request.search === '' ? {} : queryValues(querySchema, new URLSearchParams(request.search)));
  // Path parameters that pass a check compiled from their schema skip zod (a parse costs more than the check).
  const pathSchema = operation.schemas.path;
  const plainPath = pathSchema !== undefined && pathPasses(pathSchema, params);
  const [parsedPath, query, , parsedBody] = validateParts([
    { location: 'path', schema: plainPath ? undefined : pathSchema, value: params },
    { location: 'query', schema: noQuery ? undefined : querySchema, value: queryValue },
    { location: 'headers', schema: operation.schemas.headers, value: { 'Idempotency-Key': idempotencyKey } },
    { location: 'body', schema: operation.schemas.body && strict(operation.schemas.body), value: body },
  ]);
  return {
    kind: 'api',
    apiKey: tenant.apiKey,
    wall: commandWall(),
    operationId: operation.operationId,
    input: { path: plainPath ? params : parsedPath, query: noQuery ?? query, body: parsedBody },
    idempotency:
      operation.method === 'POST' && idempotencyKey !== undefined
        ? { key: idempotencyKey, print: fingerprint(request.method, request.pathname + request.search, text) }
        : undefined,
    requestId,
    instance: request.pathname,
  };
}

async function control<C>(
  runtime: MockRuntime,
  access: ControlAccess<C>,
  def: ControlRoute<C>,
  request: PipelineRequest,
  params: Record<string, string>,
  requestId: string,
): Promise<Reply> {
  try {
    checkBodySize(request.body, true);
    const query = parseQuery(request.search);
    const apiKey = await controlApiKey(runtime, request, query.apiKey);
    let body = parseJson(bodyText(request.body));
    if (body === undefined && def.optionalBody) body = {};
    const [parsedParams, parsedBody] = validateParts([
      { location: 'path', schema: def.params, value: params },
      { location: 'body', schema: def.body, value: body },
    ]);
    // Adding credentials needs no tenant; every other route acts on the tenant of ?apiKey=.
    const tenantControl = def.path === '/__mock/credentials' ? access.control(null) : access.control(apiKey);
    if (!tenantControl) throw notFound('tenant with api key', apiKey ?? '');
    const before = ticketOf(runtime);
    // The events the action emits name this request (the journal shows what a control call changed).
    const result = await runtime.observer.during(requestId, () =>
      def.run({
        control: tenantControl,
        params: (parsedParams ?? {}) as Record<string, string>,
        body: def.body ? parsedBody : body,
        url: new URL(request.url),
        header: (name) => request.header(name),
      }),
    );
    await durable(runtime, before);
    if ('stream' in result)
      return {
        status: result.status,
        headers: { ...result.headers, 'x-request-id': requestId },
        body: '',
        stream: result.stream,
      };
    return jsonReply(result.body, result.status, requestId);
  } catch (error) {
    return problemReply(asProblem(error), requestId, request.pathname);
  }
}

/** Waits until every change this request wrote to the write-ahead log is on disk; 503 STATE_NOT_SAVED when it could not be written. */
async function durable(runtime: MockRuntime, before: number): Promise<void> {
  const ticket = ticketOf(runtime);
  if (ticket === before || !runtime.wal) return;
  try {
    await runtime.wal.durable(ticket);
  } catch {
    throw new ProblemError(
      'STATE_NOT_SAVED',
      'The change could not be saved to the state file, so it is not confirmed; the server log says why. Retry with the same Idempotency-Key.',
    );
  }
}

const lossyUtf8 = new TextDecoder();

function observe(
  runtime: MockRuntime,
  request: PipelineRequest,
  outcome: Outcome,
  operationId: string | undefined,
  requestId: string,
  started: number,
  tenant: Tenant | undefined,
  override: string | undefined,
): void {
  const response = outcome.kind === 'reply' ? outcome.reply : undefined;
  const exchange: Exchange = {
    request: {
      method: request.method,
      url: request.url,
      path: request.pathname,
      headers: request.headers(),
      // Lossy for observers: a body that is not UTF-8 has been answered 400 already, and must not fail here.
      body: request.body === undefined ? undefined : lossyUtf8.decode(request.body),
    },
    response,
    operationId,
    status: response?.status ?? 0,
    code: response ? replyCode(response) : 'NETWORK_ERROR',
    durationMs: performance.now() - started,
    requestId,
    apiKey: tenant?.apiKey,
    ...(override !== undefined ? { override } : {}),
  };
  for (const listener of runtime.exchangeListeners) {
    try {
      listener(exchange);
    } catch {
      // An observer's failure must not change the answer.
    }
  }
}

/** The ProblemError a limit check throws, or undefined when the request is within it. */
function limitProblem(check: () => void): ProblemError | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
