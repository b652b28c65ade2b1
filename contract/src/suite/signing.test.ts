/**
 * Request signing (contract section 2): every area refuses what is not signed as the spec says, each with its own
 * 401 code, and accepts what is. Runs against any server: no control API needed.
 */
import { describe, expect, it } from './support/test';
import { signRequest } from 'card-issuing-sdk';
import { buildStringToSign } from 'card-issuing-sdk/server';
import { newRegistration } from 'card-issuing-mock/control';
import { UNKNOWN_ID, expectProblem, useContract } from './support/harness';

const contract = useContract(import.meta.url);
const now = () => Math.floor(Date.now() / 1000);
// Not the secret, and base64 as well, so that it signs under either --secret-encoding.
const WRONG_SECRET = 'notTheSecret0000';

describe('signing: what is accepted', () => {
  it('a request signed with the api key and secret is answered (404 for an unknown user: the signature passed)', async () => {
    const response = await contract.send({ method: 'GET', path: `/s2s/users/${UNKNOWN_ID}` });
    expectProblem(response, 404, 'NOT_FOUND');
  });

  it('a signed POST with a JSON body is accepted (201)', async () => {
    const response = await contract.send({ method: 'POST', path: '/s2s/users', body: newRegistration() });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('signing: every AUTH_ code', () => {
  it('no Authorization header is 401 AUTH_MISSING, in all three areas', async () => {
    for (const path of [
      `/s2s/users/${UNKNOWN_ID}`,
      `/app/deposits/types?userUuid=${UNKNOWN_ID}`,
      `/corporates/${UNKNOWN_ID}/top-ups`,
    ]) {
      const [bare, query] = path.split('?');
      const response = await contract.send({
        method: 'GET',
        path: bare!,
        ...(query ? { query: Object.fromEntries(new URLSearchParams(query)) } : {}),
        sign: false,
      });
      expectProblem(response, 401, 'AUTH_MISSING');
    }
  });

  it('an Authorization header not of the scheme is 401 AUTH_MALFORMED', async () => {
    for (const authorization of ['Bearer abc', 'HMAC-SHA256 only-two:parts', 'HMAC-SHA256 key:sig:not-hex-nonce:123']) {
      const response = await contract.send({
        method: 'GET',
        path: `/s2s/users/${UNKNOWN_ID}`,
        sign: false,
        headers: { authorization },
      });
      expectProblem(response, 401, 'AUTH_MALFORMED');
    }
  });

  it('an api key the server does not know is 401 AUTH_UNKNOWN_KEY', async () => {
    const response = await contract.send({
      method: 'GET',
      path: `/s2s/users/${UNKNOWN_ID}`,
      sign: { apiKey: `unknown-${crypto.randomUUID()}` },
    });
    expectProblem(response, 401, 'AUTH_UNKNOWN_KEY');
  });
});

describe('signing: the AUTH_ codes of time, replay and the secret', () => {
  it('a timestamp more than 300 s from the server clock is 401 AUTH_TIMESTAMP_SKEW, in the past and in the future', async () => {
    for (const timestamp of [now() - 301 - 60, now() + 301 + 60]) {
      const response = await contract.send({ method: 'GET', path: `/s2s/users/${UNKNOWN_ID}`, sign: { timestamp } });
      expectProblem(response, 401, 'AUTH_TIMESTAMP_SKEW');
    }
  });

  it('a nonce seen before is 401 AUTH_NONCE_REUSED (a replayed request)', async () => {
    const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
    const timestamp = now();
    const first = await contract.send({ method: 'GET', path: `/s2s/users/${UNKNOWN_ID}`, sign: { nonce, timestamp } });
    expectProblem(first, 404, 'NOT_FOUND');
    const replay = await contract.send({ method: 'GET', path: `/s2s/users/${UNKNOWN_ID}`, sign: { nonce, timestamp } });
    expectProblem(replay, 401, 'AUTH_NONCE_REUSED');
  });

  it('a signature made with another secret is 401 AUTH_SIGNATURE_MISMATCH', async () => {
    const response = await contract.send({
      method: 'GET',
      path: `/s2s/users/${UNKNOWN_ID}`,
      sign: { apiSecret: WRONG_SECRET },
    });
    expectProblem(response, 401, 'AUTH_SIGNATURE_MISMATCH');
  });
});

describe('signing: what the signature covers', () => {
  it('the signature is the five published parts: a POST with a body signed without a body hash is accepted (201)', async (context) => {
    // The service's HMACSHA256 page signs apiKey + METHOD + url + timestamp + nonce; the body is not part of it.
    if (contract.target.signing.bodyHash)
      context.skip('the run signs with a body hash (--sign-body): the server under test requires it');
    const registration = newRegistration();
    const url = contract.url('/s2s/users');
    const { authorization, stringToSign } = await signRequest({
      method: 'POST',
      url,
      body: JSON.stringify(registration),
      ...contract.credentials,
      ...contract.target.signing,
      bodyHash: false,
    });
    expect(stringToSign.endsWith(authorization.split(':')[2]!)).toBe(true);
    const response = await contract.send({
      method: 'POST',
      path: '/s2s/users',
      body: registration,
      sign: false,
      headers: { authorization },
    });
    expect(response.status).toBe(201);
  });

  it('the signature covers the query: a userId swapped after signing is 401 AUTH_SIGNATURE_MISMATCH', async () => {
    const { authorization } = await signRequest({
      method: 'GET',
      url: contract.url('/s2s/balances', { userId: UNKNOWN_ID }),
      ...contract.credentials,
      ...contract.target.signing,
    });
    const response = await contract.send({
      method: 'GET',
      path: '/s2s/balances',
      query: { userId: '11111111-1111-4111-8111-111111111111' },
      sign: false,
      headers: { authorization },
    });
    expectProblem(response, 401, 'AUTH_SIGNATURE_MISMATCH');
  });

  it('the mock names the string it expected on a mismatch (never a production server), without the secret', async (context) => {
    contract.control(context);
    const url = contract.url(`/s2s/users/${UNKNOWN_ID}`);
    const timestamp = String(now());
    const nonce = crypto.randomUUID().replaceAll('-', '');
    const response = await contract.send({
      method: 'GET',
      path: `/s2s/users/${UNKNOWN_ID}`,
      sign: { apiSecret: WRONG_SECRET, nonce, timestamp },
    });
    const problem = expectProblem(response, 401, 'AUTH_SIGNATURE_MISMATCH');
    const expected = await buildStringToSign({
      method: 'GET',
      url,
      apiKey: contract.credentials.apiKey,
      timestamp,
      nonce,
    });
    expect(problem.stringToSign).toBe(expected);
    expect(response.text).not.toContain(contract.credentials.apiSecret);
  });
});
