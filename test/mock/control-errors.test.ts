/**
 * One convention for the field a control API error names, the API's (`errors[].path` of the spec's Problem): where
 * the bad value is in the request, `path.X`, `query.X` or `body.X` with the JSON path below it (`body.given.2.status`,
 * `body.body.kycStatus` for an override's response body); `body` for the body as a whole. The in-process functions
 * name the same paths as their routes.
 */
import { describe, expect, it } from 'vitest';
import { createMock, createMockFetch, ProblemError } from '../../mock-server/src/index';

const BASE = 'https://api.example.test';
const SOME_ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

async function pathsOf(method: string, path: string, body?: unknown): Promise<string[]> {
  const mock = createMock({ baseUrl: BASE });
  const response = await createMockFetch(mock.handlers)(`${BASE}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const problem = (await response.json()) as { code: string; errors?: { path: string }[] };
  expect([response.status, problem.code]).toEqual([400, 'VALIDATION_FAILED']);
  return (problem.errors ?? []).map((e) => e.path).sort();
}

function thrownPaths(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).code).toBe('VALIDATION_FAILED');
    return ((error as ProblemError).extras.errors ?? []).map((e) => e.path).sort();
  }
  throw new Error('accepted');
}

/** One bad request per route family: [family, method, path, body, the paths named]. */
const FAMILIES: [string, string, string, unknown, string[]][] = [
  ['clock', 'POST', '/__mock/clock/advance', { seconds: -1 }, ['body.seconds']],
  ['KYC (path and body)', 'POST', '/__mock/kyc/not-a-uuid', { status: 'MAYBE' }, ['body.status', 'path.userId']],
  ['deposits', 'POST', '/__mock/deposits/incoming', { balanceId: SOME_ID, type: 'USDC', amount: 'x' }, ['body.amount']],
  [
    'approval actions',
    'POST',
    `/__mock/corporates/${SOME_ID}/approvals/${SOME_ID}/request-change`,
    { pinUpdate: 'yes' },
    ['body.pinUpdate'],
  ],
  [
    'cards',
    'POST',
    `/__mock/cards/${SOME_ID}/authorize`,
    { amount: 0, currency: 'EUR', merchant: 'M' },
    ['body.amount'],
  ],
  ['authorizations (query)', 'GET', '/__mock/authorizations?status=NOPE', undefined, ['query.status']],
  ['authorizations (body)', 'POST', `/__mock/authorizations/${SOME_ID}/increment`, { amount: -1 }, ['body.amount']],
  ['builders', 'POST', '/__mock/given/approval', { status: 'NOPE', colour: 'red' }, ['body.colour', 'body.status']],
  [
    'scenarios',
    'POST',
    '/__mock/scenario',
    {
      given: [
        { kind: 'businessUser', as: 'ada' },
        { kind: 'approval', status: 'NOPE', user: 'bob' },
      ],
    },
    ['body.given.1.status', 'body.given.1.user'],
  ],
  ['state', 'PUT', '/__mock/state', { ...createMock().snapshot(), users: 3 }, ['body.users']],
  ['faults', 'POST', '/__mock/faults', { operationId: 'getUser', status: 200 }, ['body.status']],
  ['overrides', 'POST', '/__mock/overrides', { operationId: 'nope', status: 200 }, ['body.operationId']],
  [
    'overrides (fields)',
    'POST',
    '/__mock/overrides',
    { operationId: 'getUser', status: 200, times: 0, headers: { 'bad name': 'x' } },
    ['body.headers.bad name', 'body.times'],
  ],
  ['overrides (status)', 'POST', '/__mock/overrides', { operationId: 'getUser', status: 201 }, ['body.status']],
  [
    "overrides (the answer's body)",
    'POST',
    '/__mock/overrides',
    { operationId: 'listBalances', status: 200, body: { items: 'none', hasMore: false, nextCursor: null } },
    ['body.body.items'],
  ],
  [
    "overrides (the answer's problem)",
    'POST',
    '/__mock/overrides',
    { operationId: 'getUser', status: 500, body: { code: 'NOT_FOUND' } },
    ['body.body.code'],
  ],
  ['overrides (no answer body)', 'POST', '/__mock/overrides', { operationId: 'getUser', status: 200 }, ['body.body']],
  ['credentials', 'POST', '/__mock/credentials', { apiKey: 'a:b', apiSecret: '' }, ['body.apiKey', 'body.apiSecret']],
  ['journal (query)', 'GET', '/__mock/requests?colour=red', undefined, ['query.colour']],
];

describe('the field a control error names', () => {
  it.each(FAMILIES)('%s: where it is in the request', async (_family, method, path, body, expected) => {
    expect(await pathsOf(method, path, body)).toEqual(expected);
  });

  it('in-process, the same paths as the routes', () => {
    const mock = createMock();
    expect(thrownPaths(() => mock.override('getUser', { status: 201 } as never))).toEqual(['body.status']);
    expect(thrownPaths(() => mock.override('nope' as never, { status: 200 } as never))).toEqual(['body.operationId']);
    expect(
      thrownPaths(() =>
        mock.override('listBalances', {
          status: 200,
          body: { items: 'none', hasMore: false, nextCursor: null },
        } as never),
      ),
    ).toEqual(['body.body.items']);
    expect(thrownPaths(() => mock.loadScenario({ given: [{ kind: 'approval', status: 'NOPE' }] } as never))).toEqual([
      'body.given.0.status',
    ]);
    expect(thrownPaths(() => mock.restore(null as never))).toEqual(['body']);
    expect(thrownPaths(() => mock.given.approval({ status: 'ACCEPTED', spent: 1 }))).toEqual(['body.spent']);
  });

  it('a scenario file keeps the path in the file', () => {
    expect(() => createMock({ scenario: { given: [{ kind: 'approval', status: 'NOPE' }] } as never })).toThrow(
      expect.objectContaining({ extras: { errors: [expect.objectContaining({ path: 'given.0.status' })] } }),
    );
  });
});
