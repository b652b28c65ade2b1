/**
 * The proxy's drift kinds from the checker's findings, on exchanges made up here (the divergent server plants four
 * of them; these are the rest): a wrong type, a wrong format, a wrong content type, a request that breaks the spec.
 */
import { describe, expect, it } from 'vitest';
import { createConformanceChecker, type Exchange } from '../../contract/src/conformance/validator';
import { classify } from '../../contract/src/proxy/drift';
import { repoPath } from '../helpers/spec';
import { specExample } from '../helpers/spec';

const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml') });
const user = specExample('GET', '/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01').example as Record<string, unknown>;
const exchange = (patch: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: '/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01',
  requestHeaders: { authorization: 'HMAC-SHA256 k:s:n:t' },
  status: 200,
  responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
  responseBody: user,
  ...patch,
});
const kinds = (e: Exchange) => checker.check(e).map((f) => ({ ...classify(f), operationId: f.operationId }));

describe('drift kinds', () => {
  it("the spec's own example is no drift", () => {
    expect(kinds(exchange({}))).toEqual([]);
  });

  it('a number where a string is documented, and a date that is not one: wrong-type-or-format, at the field', () => {
    expect(kinds(exchange({ responseBody: { ...user, firstName: 42, createdAt: 'yesterday' } }))).toEqual(
      expect.arrayContaining([
        { kind: 'wrong-type-or-format', location: 'response.body/firstName', operationId: 'getUser' },
        { kind: 'wrong-type-or-format', location: 'response.body/createdAt', operationId: 'getUser' },
      ]),
    );
  });

  it('text where JSON is documented: wrong-content-type; a missing X-Request-Id: missing-required-field', () => {
    expect(kinds(exchange({ responseHeaders: { 'content-type': 'text/plain' } }))).toEqual([
      {
        kind: 'missing-required-field',
        subject: 'x-request-id',
        location: 'response.headers.x-request-id',
        operationId: 'getUser',
      },
      { kind: 'wrong-content-type', location: 'response.headers.content-type', operationId: 'getUser' },
    ]);
  });

  it('a request that breaks the spec and is answered 2xx: request-breaks-spec', () => {
    // The spec says it twice (format uuid, and the v4 pattern): the same kind at the same place, once per rule.
    const found = kinds(
      exchange({
        url: '/s2s/balances?userId=not-a-uuid',
        responseBody: { items: [], hasMore: false, nextCursor: null },
      }),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((f) => JSON.stringify(f)))).toEqual(
      new Set([
        JSON.stringify({ kind: 'request-breaks-spec', location: 'request.query.userId', operationId: 'listBalances' }),
      ]),
    );
  });
});
