/**
 * Request date-times: every form the spec's `Timestamp` allows is accepted (an offset such as `+02:00`, a fraction),
 * and read as the same instant; responses are in UTC. The spec narrows RFC 3339 to upper-case `T` and `Z` and says
 * so; a lower-case one is 400 VALIDATION_FAILED naming the field, and the Ajv checker agrees with the mock on both.
 */
import { describe, expect, it } from 'vitest';
import { createApproval } from '../../sdk/generated/sdk.gen';
import { createConformanceChecker } from 'card-issuing-contract/conformance';
import { repoPath } from '../helpers/spec';
import { makeBusinessUser } from './flows';
import { expectProblem, mockHarness, ok, send } from './helpers';

const h = mockHarness();

async function approve(validFrom: string, validTo: string) {
  const user = await makeBusinessUser(h.client, h.mock);
  const corporateUuid = h.mock.fixtures().corporates[0]!.corporateUuid;
  return createApproval({
    client: h.client,
    path: { corporateUuid },
    body: { userUuid: user.userUuid, budget: { amount: 1000, currency: 'EUR' }, validFrom, validTo },
  });
}

describe('RFC 3339 date-times in requests', () => {
  it('accepts an offset and a fraction, reads them as the same instant, and answers in UTC', async () => {
    const approval = ok(await approve('2026-11-22T02:00:00+02:00', '2026-12-31T23:59:59.123456-05:30'));
    expect(approval.validFrom).toBe('2026-11-22T00:00:00.000Z');
    expect(approval.validTo).toBe('2027-01-01T05:29:59.123Z');
  });

  it('refuses a lower-case t or z (the spec narrows RFC 3339, saying so) with 400 naming the field', async () => {
    // Sent raw: the generated client would refuse it before sending.
    const user = await makeBusinessUser(h.client, h.mock);
    const corporateUuid = h.mock.fixtures().corporates[0]!.corporateUuid;
    const response = await send('POST', `/corporates/corporates/${corporateUuid}/approvals`, {
      body: {
        userUuid: user.userUuid,
        budget: { amount: 1000, currency: 'EUR' },
        validFrom: '2026-11-22t00:00:00Z',
        validTo: '2026-12-31T23:59:59z',
      },
    });
    const problem = await expectProblem(response, 400, 'VALIDATION_FAILED');
    expect([...new Set(problem.errors?.map((e) => e.path))].sort()).toEqual(['body.validFrom', 'body.validTo']);
  });

  it('refuses a leap second (the spec excludes it, saying so: a JS Date cannot hold 23:59:60) with 400 naming the field', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const corporateUuid = h.mock.fixtures().corporates[0]!.corporateUuid;
    const response = await send('POST', `/corporates/corporates/${corporateUuid}/approvals`, {
      body: {
        userUuid: user.userUuid,
        budget: { amount: 1000, currency: 'EUR' },
        validFrom: '2026-11-22T00:00:00Z',
        validTo: '2026-12-31T23:59:60Z',
      },
    });
    const problem = await expectProblem(response, 400, 'VALIDATION_FAILED');
    expect([...new Set(problem.errors?.map((e) => e.path))]).toEqual(['body.validTo']);
  });

  it('the independent Ajv checker reads the spec the same way', () => {
    const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml'), strictRequests: true });
    const body = (validFrom: string) => ({
      userUuid: '6a1d9e40-2b7f-4c83-9e15-0f4a2b6c8d3e',
      budget: { amount: 1000, currency: 'EUR' },
      validFrom,
      validTo: '2026-12-31T23:59:59Z',
    });
    const exchange = (validFrom: string) => ({
      method: 'POST',
      url: '/corporates/corporates/1b6e3d8f-5a2c-4f7e-9b0d-4c8a1e6f2d93/approvals',
      requestHeaders: { 'content-type': 'application/json', authorization: 'HMAC-SHA256 k:s:n:t' },
      requestBody: body(validFrom),
      status: 400,
      responseHeaders: { 'content-type': 'application/problem+json', 'x-request-id': 'req_1' },
      responseBody: { type: 'about:blank', title: 'Invalid request', status: 400, code: 'VALIDATION_FAILED' },
    });
    const requestFindings = (validFrom: string) =>
      checker.check(exchange(validFrom)).filter((f) => f.location.startsWith('request.body'));
    expect(requestFindings('2026-11-22T02:00:00+02:00')).toEqual([]);
    expect(requestFindings('2026-11-22t00:00:00z').map((f) => f.location)).toEqual(['request.body/validFrom']);
    expect(
      requestFindings('2026-12-31T23:59:60Z').map((f) => f.location),
      "the spec's pattern excludes a leap second",
    ).toEqual(['request.body/validFrom']);
  });
});
