import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, repoPath, specOperations, type OpenApiDocument } from '../helpers/spec';
import { recordMswExchanges } from '../../examples/support/recorders';
import {
  createConformanceChecker,
  createRecordingFetch,
  type Exchange,
  type Finding,
} from 'card-issuing-contract/conformance';

// The exchanges below are built from the raw document's own examples, never from our generated code, so the
// validator is tested against the spec as written.
const spec = loadSpec();
const specPath = repoPath('spec/openapi.yaml');
const newChecker = (options: { strictRequests?: boolean } = {}) => createConformanceChecker({ specPath, ...options });
// A checker reads the spec and registers it with Ajv (a few hundred milliseconds, per checker). The tests that read
// only what check() returns for their exchange share one of each kind; those that read coverage, counts, findings or
// the report make their own.
const sharedChecker = { lax: newChecker(), strict: newChecker({ strictRequests: true }) };

type Node = Record<string, unknown>;
const at = (pointer: string): unknown =>
  pointer
    .slice(2)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, token) => (node as Node | undefined)?.[token], spec);
/** Follows `{ $ref }` objects in the document. */
const deref = (node: unknown): Node => {
  let current = node as Node;
  while (typeof current?.$ref === 'string') current = at(current.$ref) as Node;
  return current;
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: string;
}

/** A request the spec's examples describe, for one operation. */
function exampleRequest(
  method: string,
  template: string,
): Omit<Exchange, 'status' | 'responseHeaders' | 'responseBody'> {
  const op = (spec.paths[template] as Record<string, Node>)[method.toLowerCase()]!;
  const parameters = ((op.parameters as unknown[] | undefined) ?? []).map((p) => deref(p) as unknown as Parameter);
  let path = template;
  const query = new URLSearchParams();
  for (const p of parameters) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    if (p.in === 'query' && p.required) query.set(p.name, String(p.example));
  }
  const requestHeaders: Record<string, string> = {
    authorization: 'HMAC-SHA256 test_key:c2ln:0123456789abcdef0123456789abcdef:1790000000',
  };
  let requestBody: string | undefined;
  if (op.requestBody) {
    const schema = deref(((deref(op.requestBody).content as Node)['application/json'] as Node).schema);
    requestBody = JSON.stringify((schema.examples as unknown[])[0]);
    requestHeaders['content-type'] = 'application/json';
  }
  return { method, url: `http://127.0.0.1:4010${path}${query.size ? `?${query}` : ''}`, requestHeaders, requestBody };
}

/** The documented example body of one response of an operation (its `example`, else its schema's first example). */
function exampleResponse(method: string, template: string, status: string): { mediaType: string; body: unknown } {
  const op = (spec.paths[template] as Record<string, Node>)[method.toLowerCase()]!;
  const response = deref((op.responses as Node)[status]);
  const [mediaType, media] = Object.entries(response.content as Record<string, Node>)[0]!;
  const body = media.example !== undefined ? deref(media.example) : (deref(media.schema).examples as unknown[])[0];
  return { mediaType, body };
}

function exampleExchange(method: string, template: string, status: string): Exchange {
  const { mediaType, body } = exampleResponse(method, template, status);
  return {
    ...exampleRequest(method, template),
    status: Number(status),
    responseHeaders: { 'content-type': `${mediaType}; charset=utf-8`, 'x-request-id': 'req_test', 'retry-after': '2' },
    responseBody: JSON.stringify(body),
  };
}

const successStatus = (responses: Record<string, unknown>) => Object.keys(responses).find((s) => s.startsWith('2'))!;
const operations = specOperations(spec as OpenApiDocument);
const summary = (findings: Finding[]) =>
  findings.map((f) => `${f.operationId} ${f.method} ${f.path} ${f.location}: ${f.message}`);

describe('conformance checker: the spec`s own examples conform', () => {
  // One checker for the 32: each example must cover its own operation and nothing else (what it adds to coverage).
  const examplesChecker = newChecker({ strictRequests: true });
  it.each(operations.map((o) => [o.operationId, o] as const))('accepts the success example of %s', (_id, op) => {
    const before = new Set(examplesChecker.coverage().operations);
    const findings = examplesChecker.check(exampleExchange(op.method, op.path, successStatus(op.operation.responses)));
    expect(summary(findings)).toEqual([]);
    expect(examplesChecker.coverage().operations.filter((id) => !before.has(id))).toEqual([op.operationId]);
  });

  it('accepts every documented error example whose status is the response`s own, as application/problem+json', () => {
    const checker = sharedChecker.lax;
    let checked = 0;
    for (const op of operations) {
      for (const status of Object.keys(op.operation.responses).filter((s) => !s.startsWith('2'))) {
        const exchange = exampleExchange(op.method, op.path, status);
        if ((JSON.parse(exchange.responseBody as string) as { status: number }).status !== Number(status)) continue;
        expect(summary(checker.check(exchange)), `${op.operationId} ${status}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('covers all 32 operations once each success example is checked, and says so in the report', () => {
    const checker = newChecker();
    for (const op of operations)
      checker.check(exampleExchange(op.method, op.path, successStatus(op.operation.responses)));
    expect(checker.coverage()).toMatchObject({ covered: 32, total: 32, missing: [] });
    expect(checker.report()).toContain('32 exchange(s) checked, 0 finding(s); 32 of 32 operations covered');
  });
});

describe('conformance checker: bad exchanges are rejected, naming the operation and the path', () => {
  const userExample = () => exampleExchange('GET', '/s2s/users/{userId}', '200');

  it('rejects a status the operation does not document', () => {
    const findings = sharedChecker.lax.check({ ...userExample(), status: 201 });
    expect(findings).toEqual([
      expect.objectContaining({
        operationId: 'getUser',
        method: 'GET',
        path: '/s2s/users/{userId}',
        location: 'response.status',
        message: expect.stringContaining('201 is not documented'),
      }),
    ]);
  });

  it('rejects a response body without a required field', () => {
    const exchange = exampleExchange('POST', '/s2s/users', '201');
    const body = JSON.parse(exchange.responseBody as string) as Record<string, unknown>;
    delete body.email;
    const findings = sharedChecker.lax.check({ ...exchange, responseBody: JSON.stringify(body) });
    expect(findings).toEqual([
      expect.objectContaining({
        operationId: 'createUser',
        path: '/s2s/users',
        location: 'response.body',
        message: "must have required property 'email'",
      }),
    ]);
  });

  it('rejects a value outside an enum and names where it is', () => {
    const exchange = exampleExchange('GET', '/s2s/cards', '200');
    const body = JSON.parse(exchange.responseBody as string) as { items: { status: string }[] };
    expect(body.items.length).toBeGreaterThan(0);
    body.items[0]!.status = 'MELTED';
    const findings = sharedChecker.lax.check({ ...exchange, responseBody: JSON.stringify(body) });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings).toContainEqual(
      expect.objectContaining({
        operationId: 'listCards',
        path: '/s2s/cards',
        location: 'response.body/items/0/status',
        message: expect.stringContaining('must be equal to one of the allowed values'),
      }),
    );
  });

  it('rejects a path parameter of the wrong format that the server accepted', () => {
    const findings = sharedChecker.lax.check({ ...userExample(), url: 'http://127.0.0.1:4010/s2s/users/not-a-uuid' });
    // The spec says it twice (format uuid, and the v4 pattern): one finding each, both at the parameter.
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operationId: 'getUser',
          path: '/s2s/users/{userId}',
          url: '/s2s/users/not-a-uuid',
          location: 'request.path.userId',
          message: expect.stringMatching(/must match format "uuid".*the server answered 200/),
        }),
      ]),
    );
    expect(new Set(findings.map((f) => f.location))).toEqual(new Set(['request.path.userId']));
  });

  it('accepts the same bad path parameter when the server refuses it with a 400 problem', () => {
    const problem = exampleExchange('GET', '/s2s/users/{userId}', '400');
    const findings = sharedChecker.lax.check({ ...problem, url: 'http://127.0.0.1:4010/s2s/users/not-a-uuid' });
    expect(findings).toEqual([]);
    // A client's own traffic (the demo) must conform whatever the answer.
    const strict = sharedChecker.strict.check({
      ...problem,
      url: 'http://127.0.0.1:4010/s2s/users/not-a-uuid',
    });
    expect([...new Set(strict.map((f) => f.location))]).toEqual(['request.path.userId']);
  });

  it('a bad request refused with another status than 400 is one finding, the status, naming the first bad part', () => {
    const problem = exampleExchange('GET', '/s2s/users/{userId}', '404');
    const findings = sharedChecker.lax.check({ ...problem, url: 'http://127.0.0.1:4010/s2s/users/not-a-uuid' });
    expect(findings).toEqual([
      expect.objectContaining({
        operationId: 'getUser',
        location: 'response.status',
        message: 'a request that breaks the spec is refused with 400',
        actual: 404,
        cause: expect.stringMatching(/^request\.path\.userId must match .*, and 1 more$/),
      }),
    ]);
  });

  it('rejects a missing required query parameter', () => {
    const exchange = exampleExchange('GET', '/s2s/balances', '200');
    const findings = sharedChecker.lax.check({ ...exchange, url: 'http://127.0.0.1:4010/s2s/balances' });
    expect(findings).toEqual([
      expect.objectContaining({
        operationId: 'listBalances',
        path: '/s2s/balances',
        location: 'request.query.userId',
        message: expect.stringContaining('is required'),
      }),
    ]);
  });

  it('rejects an invalid request body that the server accepted', () => {
    const exchange = exampleExchange('POST', '/corporates/corporates/{corporateUuid}/approvals', '201');
    const body = JSON.parse(exchange.requestBody as string) as Record<string, unknown>;
    body.surprise = true;
    const findings = sharedChecker.lax.check({ ...exchange, requestBody: JSON.stringify(body) });
    expect(findings).toEqual([
      expect.objectContaining({
        operationId: 'createApproval',
        path: '/corporates/corporates/{corporateUuid}/approvals',
        location: 'request.body',
        message: expect.stringContaining("must NOT have additional properties: 'surprise'"),
      }),
    ]);
  });

  it('rejects the wrong content type, for a success and for an error', () => {
    const ok = sharedChecker.lax.check({
      ...userExample(),
      responseHeaders: { 'content-type': 'text/plain', 'x-request-id': 'r' },
    });
    expect(ok).toEqual([
      expect.objectContaining({
        operationId: 'getUser',
        location: 'response.headers.content-type',
        message: 'text/plain is not application/json',
      }),
    ]);
    const notFound = exampleExchange('GET', '/s2s/users/{userId}', '404');
    const error = sharedChecker.lax.check({
      ...notFound,
      responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'r' },
    });
    expect(error).toEqual([
      expect.objectContaining({
        operationId: 'getUser',
        location: 'response.headers.content-type',
        message: 'application/json is not application/problem+json',
      }),
    ]);
  });

  it('rejects a response without X-Request-Id, and a problem whose status differs from the HTTP status', () => {
    const missing = sharedChecker.lax.check({
      ...userExample(),
      responseHeaders: { 'content-type': 'application/json' },
    });
    expect(missing).toEqual([
      expect.objectContaining({
        operationId: 'getUser',
        location: 'response.headers.x-request-id',
        message: 'is required',
      }),
    ]);
    const problem = exampleExchange('GET', '/s2s/users/{userId}', '404');
    const body = { ...(JSON.parse(problem.responseBody as string) as object), status: 409 };
    const mismatch = sharedChecker.lax.check({ ...problem, responseBody: JSON.stringify(body) });
    expect(mismatch).toEqual([expect.objectContaining({ operationId: 'getUser', location: 'response.body/status' })]);
  });

  it('rejects an operation the spec does not have, unless the answer is a 404 problem', () => {
    const user = userExample();
    const extra = sharedChecker.lax.check({ ...user, method: 'DELETE' });
    expect(extra).toEqual([
      expect.objectContaining({
        operationId: null,
        method: 'DELETE',
        path: '/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01',
        message: 'no operation of the spec: the answer is the 404 ROUTE_NOT_FOUND Problem, yet the status was 200',
      }),
    ]);
    // Each message names the one part that is wrong, never the same thing as expected and found.
    const foreign = sharedChecker.lax.check({
      method: 'GET',
      url: '/s2s/nothing-here',
      status: 404,
      responseHeaders: { 'content-type': 'application/problem+json' },
      responseBody: JSON.stringify({ type: 'about:blank', title: 'Not found', status: 404 }),
    });
    expect(foreign.map((f) => f.message)).toEqual([
      expect.stringMatching(/yet the body is not the spec's Problem \(.*'code'.*\)$/),
    ]);
    const html = sharedChecker.lax.check({
      method: 'GET',
      url: '/s2s/nothing-here',
      status: 404,
      responseHeaders: { 'content-type': 'text/html' },
      responseBody: '<h1>Not found</h1>',
    });
    expect(html.map((f) => f.message)).toEqual([expect.stringMatching(/yet the content type was text\/html$/)]);
    const unknown = sharedChecker.lax.check({ ...user, url: '/corporates/whatever' });
    expect(unknown.map((f) => f.path)).toEqual(['/corporates/whatever']);

    const notFound = exampleExchange('GET', '/s2s/users/{userId}', '404');
    const checker = newChecker();
    expect(checker.check({ ...notFound, method: 'DELETE', url: '/app/nothing/here' })).toEqual([]);
    // A route that is not in the spec covers nothing.
    expect(checker.coverage().covered).toBe(0);
  });

  it('skips the mock`s control routes and paths outside the API, without counting them', () => {
    const checker = newChecker();
    expect(checker.check({ method: 'POST', url: 'http://127.0.0.1:4010/__mock/reset', status: 200 })).toEqual([]);
    expect(checker.check({ method: 'GET', url: 'http://localhost:5173/index.html', status: 200 })).toEqual([]);
    expect(checker.checked()).toBe(0);
  });

  it('matches literal segments before parameters (create approval, deposit types)', () => {
    const checker = newChecker();
    expect(checker.check(exampleExchange('POST', '/corporates/corporates/{corporateUuid}/approvals', '201'))).toEqual(
      [],
    );
    expect(checker.check(exampleExchange('GET', '/s2s/deposits/{balanceId}/types', '200'))).toEqual([]);
    expect(checker.coverage().operations).toEqual(['createApproval', 'listDepositTypes']);
    // The same request with a deposit-addresses body is judged as listDepositTypes, so the body is wrong.
    const addresses = exampleExchange('GET', '/s2s/deposits/{balanceId}/{type}', '200');
    const findings = checker.check({ ...addresses, url: addresses.url.replace(/\/[A-Z]+$/, '/types') });
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => `${f.operationId} ${f.path}`))).toEqual(
      new Set(['listDepositTypes /s2s/deposits/{balanceId}/types']),
    );
  });

  it('reports each finding with its operation, method, path and location', () => {
    // 302: no 3XX response is documented (4XX and 5XX are, as ranges).
    const checker = newChecker();
    checker.check({ ...userExample(), status: 302 });
    expect(checker.report()).toMatch(/1 finding\(s\); 1 of 32 operations covered/);
    expect(checker.report()).toContain(
      '- getUser GET /s2s/users/{userId} [/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01] response.status: 302 is not documented',
    );
  });
});

describe('recorders feed real traffic to the checker', () => {
  // Two handlers, one right and one wrong, stand in for the mock: the recorders must see both.
  const user = exampleExchange('POST', '/s2s/users', '201');
  const userBody = JSON.parse(user.responseBody as string) as Record<string, unknown>;
  const handlers = [
    http.post('*/s2s/users', async ({ request }) => {
      await request.json(); // the handler consumes the body, as the mock's do
      return HttpResponse.json(userBody, { status: 201, headers: { 'X-Request-Id': 'req_1' } });
    }),
    http.get('*/s2s/users/:userId', () =>
      HttpResponse.json({ ...userBody, email: 42 }, { headers: { 'X-Request-Id': 'req_2' } }),
    ),
  ];
  const send = (fetchFn: typeof fetch, origin: string) =>
    Promise.all([
      fetchFn(`${origin}/s2s/users`, {
        method: 'POST',
        headers: user.requestHeaders as Record<string, string>,
        body: user.requestBody as string,
      }),
      fetchFn(`${origin}/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01`, {
        headers: user.requestHeaders as Record<string, string>,
      }),
    ]);

  it('records MSW exchanges through its life-cycle events, request bodies included', async () => {
    const server = setupServer(...handlers);
    const checker = newChecker({ strictRequests: true });
    const recorder = recordMswExchanges(server, checker);
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const responses = await send(fetch, 'http://api.test');
      expect(responses.map((r) => r.status)).toEqual([201, 200]);
      await recorder.settled();
    } finally {
      recorder.stop();
      server.close();
    }
    expect(checker.checked()).toBe(2);
    expect(checker.coverage().operations).toEqual(['createUser', 'getUser']);
    expect(checker.findings()).toEqual([
      expect.objectContaining({ operationId: 'getUser', location: 'response.body/email' }),
    ]);
  });

  describe('over a real HTTP server', () => {
    let httpServer: Server;
    let origin: string;
    beforeAll(async () => {
      httpServer = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = req.method === 'POST' ? userBody : { ...userBody, email: 42 };
          res.writeHead(req.method === 'POST' ? 201 : 200, {
            'content-type': 'application/json',
            'x-request-id': 'req_x',
          });
          res.end(JSON.stringify(body));
        });
      });
      await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => httpServer.close(() => resolve())));

    it('records through a fetch wrapper and leaves the body readable for the caller', async () => {
      const checker = newChecker({ strictRequests: true });
      const seen: Finding[][] = [];
      const recordingFetch = createRecordingFetch(checker, fetch, { onFindings: (f) => seen.push(f) });
      const [created] = await send(recordingFetch, origin);
      expect(((await created.json()) as { userId: string }).userId).toBe(userBody.userId);
      expect(checker.checked()).toBe(2);
      expect(checker.findings()).toEqual([
        expect.objectContaining({ operationId: 'getUser', location: 'response.body/email', message: 'must be string' }),
      ]);
      expect(seen).toHaveLength(1);
    });
  });
});
