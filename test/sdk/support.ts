// Test support for the SDK tests: an msw server whose handlers verify every request's signature with the
// shared verifySignature (and a NonceCache, so a replayed nonce fails), record what reached the wire, and answer
// with what the test scripts. Independent of the real mock (built in parallel).
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { NonceCache } from '../../sdk/src/signing/nonce-cache';
import { parseAuthorization } from '../../sdk/src/signing/authorization';
import { verifySignature } from '../../sdk/src/signing/verify';
import { specExample, specOperations } from '../helpers/spec';

export const API_KEY = 'test_key_sdk';
/** A secret that must never appear in any error, log line or event. */
export const API_SECRET = 'sk_test_Vq9-THIS-SECRET-MUST-NEVER-LEAK-3f1e';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: URL;
  body: string;
  headers: Headers;
  authorization: string | null;
  nonce: string | undefined;
  signatureOk: boolean;
  signatureCode: string | undefined;
  at: number;
}

/** A response the test wants; `undefined` falls through to the spec example. */
export type Responder = (request: SeenRequest, index: number) => Response | undefined | Promise<Response | undefined>;

/** Builds an msw server on `base` that verifies signatures, records requests, and answers with `respond`. */
export function signedServer(base: string) {
  const seen: SeenRequest[] = [];
  const nonces = new NonceCache();
  let respond: Responder | undefined;
  const resolver: HttpResponseResolver = async ({ request }) => {
    const body = await request.clone().text();
    const authorization = request.headers.get('authorization');
    const result = await verifySignature({
      method: request.method,
      url: request.url,
      body,
      authorization,
      getSecret: (key) => (key === API_KEY ? API_SECRET : undefined),
      nonces,
    });
    const entry: SeenRequest = {
      method: request.method,
      url: new URL(request.url),
      body,
      headers: request.headers,
      authorization,
      nonce: authorization ? parseAuthorization(authorization)?.nonce : undefined,
      signatureOk: result.ok,
      signatureCode: result.ok ? undefined : result.code,
      at: performance.now(),
    };
    seen.push(entry);
    if (!result.ok) {
      return problem(401, result.code, result.detail, result.stringToSign ? { stringToSign: result.stringToSign } : {});
    }
    return (await respond?.(entry, seen.length - 1)) ?? exampleResponse(entry);
  };
  const server = setupServer(http.all(`${base}/*`, resolver));
  return {
    server,
    seen,
    /** Scripts the answers (until `reset`). */
    respond(r: Responder) {
      respond = r;
    },
    reset() {
      seen.length = 0;
      respond = undefined;
    },
  };
}

/** A problem+json response with an X-Request-Id. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return HttpResponse.json(
    {
      type: `https://docs.card-issuing.example/errors/${code.toLowerCase()}`,
      title: code.replace(/_/g, ' ').toLowerCase(),
      status,
      code,
      detail,
      requestId: 'req_problem',
      ...extra,
    },
    { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_problem', ...headers } },
  );
}

export { specExample };

function exampleResponse(request: SeenRequest): Response {
  const { status, example } = specExample(request.method, request.url.pathname);
  return HttpResponse.json(example as Record<string, unknown>, {
    status,
    headers: { 'x-request-id': `req_${request.nonce?.slice(0, 8)}` },
  });
}

/** The operationIds of the spec. */
export const specOperationIds = specOperations().map((o) => o.operationId);

/** Builds an id from a number: a valid UUID v4. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
