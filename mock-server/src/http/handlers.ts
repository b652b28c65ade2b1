/**
 * The MSW handlers of the 32 operations, and 404 ROUTE_NOT_FOUND catch-alls under /s2s, /app and /corporates.
 *
 * Every request goes through the same pipeline, in this order: injected faults → signature (HMAC, wall clock,
 * nonce cache; the expected `stringToSign` in the body of a mismatch) → JSON parse (400 MALFORMED_JSON) →
 * validation of path, query, headers and body with the generated zod schemas (400 VALIDATION_FAILED naming
 * each field) → Idempotency-Key replay (POST) → settle (due time-driven transitions) → domain → response.
 * Every response carries `X-Request-Id`; every error is problem+json.
 * @module
 */
import { delay, http, type HttpHandler } from 'msw';
import { verifySignature } from 'card-issuing-sdk';
import { contextOf } from '../domain/context';
import { captureExchange } from '../observe/capture';
import { ProblemError } from '../domain/errors';
import { settle } from '../domain/settle';
import type { Tenant } from '../store';
import { faultProblem, takeFault } from './faults';
import { fingerprint, remember, replay } from './idempotency';
import { operations, type Operation } from './operations';
import { asProblem, jsonReply, problemReply, toResponse, type Reply } from './problem';
import { routePattern, tenantOfHeader, type MockRuntime } from './runtime';
import { strict, validateParts } from './validation';

/** The handlers of every operation, then the catch-alls of the three areas. */
export function apiHandlers(runtime: MockRuntime): HttpHandler[] {
  const handlers = operations.map((operation) => {
    const method = operation.method === 'GET' ? http.get : http.post;
    return method(routePattern(runtime, operation.path), ({ request, params }) =>
      captureExchange(runtime.observer, { tenant: journalTenant(runtime, request), operationId: operation.operationId }, request,
        () => handleOperation(runtime, operation, request, params)));
  });
  return [...handlers, ...catchAll(runtime, ['/s2s', '/app', '/corporates'])];
}

/** 404 ROUTE_NOT_FOUND problem+json for any other method or path under the given areas (OPTIONS is left to CORS). */
export function catchAll(runtime: MockRuntime, areas: string[]): HttpHandler[] {
  return areas.flatMap((area) => [routePattern(runtime, area), routePattern(runtime, `${area}/*`)]).map((pattern) =>
    http.all(pattern, async ({ request }) => {
      if (request.method === 'OPTIONS') return undefined;
      const url = new URL(request.url);
      const answer = async () => {
        const problem = new ProblemError(404, 'ROUTE_NOT_FOUND', `No operation ${request.method} ${url.pathname}; see spec/openapi.yaml for the routes.`);
        if (runtime.latencyMs > 0 && !url.pathname.includes('/__mock')) await delay(runtime.latencyMs);
        return toResponse(problemReply(problem, runtime.nextRequestId(), url.pathname));
      };
      // The journal keeps the API's misses and mistaken control actions, not the inspector's own reads.
      if (request.method === 'GET' && url.pathname.includes('/__mock')) return answer();
      return captureExchange(runtime.observer, { tenant: journalTenant(runtime, request), operationId: null }, request, answer);
    }));
}

/** The tenant a journal entry belongs to: the one its Authorization header names, else the default. */
function journalTenant(runtime: MockRuntime, request: Request): string {
  return (tenantOfHeader(runtime, request.headers.get('authorization')) ?? runtime.tenants.default).apiKey;
}

async function handleOperation(runtime: MockRuntime, operation: Operation, request: Request, params: Record<string, unknown>): Promise<Response> {
  const requestId = runtime.nextRequestId();
  const url = new URL(request.url);
  const hinted = tenantOfHeader(runtime, request.headers.get('authorization')) ?? runtime.tenants.default;

  const fault = takeFault(hinted, request.method, url.pathname);
  if (fault?.delayMs) await delay(fault.delayMs);
  if (fault?.status === 0) return Response.error();

  let response: Response;
  try {
    if (fault?.status !== undefined) throw faultProblem(fault.status);
    response = await processRequest(runtime, operation, request, params, url, requestId, hinted);
  } catch (error) {
    response = toResponse(problemReply(asProblem(error), requestId, url.pathname));
  }
  if (runtime.latencyMs > 0) await delay(runtime.latencyMs);
  return response;
}

async function processRequest(
  runtime: MockRuntime, operation: Operation, request: Request, params: Record<string, unknown>, url: URL, requestId: string, hinted: Tenant,
): Promise<Response> {
  const raw = new Uint8Array(await request.arrayBuffer());

  let tenant = hinted;
  if (runtime.verifySignatures) {
    const result = await verifySignature({
      method: request.method, url: request.url, body: raw, authorization: request.headers.get('authorization'),
      getSecret: (apiKey) => runtime.tenants.secretOf(apiKey), nonces: runtime.nonces,
    });
    if (!result.ok) {
      throw new ProblemError(401, result.code, result.detail,
        result.code === 'AUTH_SIGNATURE_MISMATCH' && result.stringToSign !== undefined ? { stringToSign: result.stringToSign } : {});
    }
    tenant = runtime.tenants.get(result.apiKey)!;
  }

  const text = new TextDecoder().decode(raw);
  let body: unknown;
  if (operation.schemas.body && text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProblemError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.');
    }
  }

  const idempotencyKey = request.headers.get('idempotency-key') ?? undefined;
  const [path, query, , parsedBody] = validateParts([
    { location: 'path', schema: operation.schemas.path, value: params },
    { location: 'query', schema: operation.schemas.query, value: Object.fromEntries(url.searchParams) },
    { location: 'headers', schema: operation.schemas.headers, value: { 'Idempotency-Key': idempotencyKey } },
    { location: 'body', schema: operation.schemas.body && strict(operation.schemas.body), value: body },
  ]);

  // From here to the end, no await: the replay check, the domain call and the record of its response happen in
  // one turn, so two concurrent requests with one key can never both run.
  const state = tenant.state;
  const ctx = contextOf(state, runtime.observer.emitter(tenant.apiKey, requestId));
  const print = fingerprint(request.method, url.pathname + url.search, text);
  if (operation.method === 'POST' && idempotencyKey !== undefined) {
    const replayed = replay(state, idempotencyKey, print, ctx.now);
    if (replayed) return replayed;
  }
  const settled = settle(ctx);
  let reply: Reply;
  try {
    reply = jsonReply(operation.run(ctx, { path, query, body: parsedBody }), operation.status, requestId);
  } catch (error) {
    reply = problemReply(asProblem(error), requestId, url.pathname);
  }
  if (operation.method === 'POST' && idempotencyKey !== undefined && reply.status < 500) remember(state, idempotencyKey, print, reply, ctx.now);
  if (settled > 0 || operation.method === 'POST') runtime.changed();
  return toResponse(reply);
}
