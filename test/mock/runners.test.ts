import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCardIssuingClient, isCardIssuingError, NetworkError, NotFoundError } from 'card-issuing-sdk';
import { createMock, createMockFetch, interceptFetch } from 'card-issuing-mock';

// The fetch the test-runner setups (card-issuing-mock/vitest, /jest) install: the mock's handlers answering in-process.
// Every runner and environment is run from the packed tarballs by npm run test:consumers; this is the logic itself.
const BASE_URL = 'https://api.example.test';
const credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };
const ada = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
};
const UNKNOWN_USER = '00000000-0000-4000-8000-000000000000';

const realFetch = globalThis.fetch;
const realResponse = globalThis.Response;
afterEach(() => {
  globalThis.fetch = realFetch;
  globalThis.Response = realResponse;
});

describe('createMockFetch', () => {
  it('answers a signed flow and a typed 404 from the mock that the control API drives', async () => {
    const mock = createMock();
    const client = createCardIssuingClient({
      baseUrl: BASE_URL,
      ...credentials,
      fetch: createMockFetch(mock.handlers),
    });
    const user = await client.s2s.users.create(ada);
    mock.kyc(user.id, 'PASSED');
    expect((await client.s2s.users.get(user.id)).kycStatus).toBe('PASSED');
    const error = await client.s2s.users.get(UNKNOWN_USER).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCardIssuingError(error) && error.code).toBe('NOT_FOUND');
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('hands what no handler answers to the fallback, body intact; without one it rejects as fetch does offline', async () => {
    const mock = createMock({ baseUrl: BASE_URL });
    const fallback = vi.fn(
      async (request: Request) =>
        new Response(`fallback saw ${request.method} ${await request.text()}`, { status: 299 }),
    );
    const response = await createMockFetch(mock.handlers, fallback)('https://other.test/echo', {
      method: 'POST',
      body: 'payload',
    });
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(response.status).toBe(299);
    expect(await response.text()).toBe('fallback saw POST payload');
    await expect(createMockFetch(mock.handlers)('https://other.test/echo')).rejects.toThrow(
      /^fetch failed: no mock handler for GET https:\/\/other\.test\/echo$/,
    );
  });

  it('turns an injected network fault (status 0) into the TypeError fetch rejects with, which the SDK reports as a NetworkError', async () => {
    const mock = createMock();
    mock.faults.inject({ method: 'GET', path: '/s2s/users/{userId}', status: 0 });
    const rejections: unknown[] = [];
    const mockFetch = createMockFetch(mock.handlers);
    const recording = (input: RequestInfo | URL, init?: RequestInit) =>
      mockFetch(input, init).catch((error: unknown) => {
        rejections.push(error);
        throw error;
      });
    const client = createCardIssuingClient({ baseUrl: BASE_URL, ...credentials, fetch: recording, retry: false });
    await expect(client.s2s.users.get(UNKNOWN_USER)).rejects.toBeInstanceOf(NetworkError);
    expect(rejections).toHaveLength(1);
    expect(rejections[0]).toBeInstanceOf(TypeError);
    expect((rejections[0] as TypeError).message).toBe('fetch failed');
  });

  it('rejects at once, with the reason, when the request is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await expect(
      createMockFetch(createMock().handlers)(`${BASE_URL}/s2s/users/${UNKNOWN_USER}`, { signal: controller.signal }),
    ).rejects.toThrow('gave up');
  });

  it("gives back the calling realm's Response class (jsdom's, happy-dom's), with status, headers and body; no body for a 204", async () => {
    class RealmResponse extends realResponse {}
    globalThis.Response = RealmResponse;
    const mockFetch = createMockFetch(createMock().handlers);
    const response = await mockFetch(`${BASE_URL}/__mock/fixtures`);
    expect(response).toBeInstanceOf(RealmResponse);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(((await response.json()) as { corporates: unknown[] }).corporates.length).toBeGreaterThan(0);

    const empty = await createMockFetch([
      http.delete('https://x.test/thing', () => new HttpResponse(null, { status: 204, headers: { 'x-done': 'yes' } })),
    ])('https://x.test/thing', { method: 'DELETE' });
    expect(empty).toBeInstanceOf(RealmResponse);
    expect([empty.status, empty.headers.get('x-done'), empty.body]).toEqual([204, 'yes', null]);
  });
});

describe('interceptFetch', () => {
  it('routes the global fetch (what the SDK calls by default) to the mock, passes the rest on, and puts the old one back', async () => {
    const previous = vi.fn(async () => new Response('from the network'));
    globalThis.fetch = previous;
    const mock = createMock();
    const restore = interceptFetch(mock.handlers);
    const client = createCardIssuingClient({ baseUrl: BASE_URL, ...credentials });
    const user = await client.s2s.users.create(ada);
    expect(mock.outbox(user.id)).toEqual([]);
    expect(await (await fetch('https://elsewhere.test/')).text()).toBe('from the network');
    expect(previous).toHaveBeenCalledTimes(1);
    restore();
    expect(globalThis.fetch).toBe(previous);
  });

  it('leaves alone a fetch someone else installed after it', () => {
    const restore = interceptFetch(createMock().handlers);
    const later = vi.fn();
    globalThis.fetch = later;
    restore();
    expect(globalThis.fetch).toBe(later);
  });
});
