import { describe, expect, it } from 'vitest';
import { createMock } from 'card-issuing-mock';
import { answerRoute, type RouteLike } from '../../mock-server/src/runners/route';

// How card-issuing-mock/playwright answers a routed request (the fixture itself runs in the consumer matrix's
// Playwright row): a preflight allowed, the mock's answer with the page's origin allowed, what the mock does not
// handle handed on, an injected network fault as a failed request.

/** A route as Playwright gives one, recording what was done with it. */
function route(method: string, url: string, headers: Record<string, string>, body?: string) {
  const done: {
    fulfilled?: { status: number; headers: Record<string, string>; body?: Buffer };
    fallback?: true;
    aborted?: string;
  } = {};
  const value: RouteLike = {
    request: () => ({
      url: () => url,
      method: () => method,
      allHeaders: async () => headers,
      postDataBuffer: () => (body === undefined ? null : Buffer.from(body)),
    }),
    fulfill: async (response) => {
      done.fulfilled = response;
    },
    fallback: async () => {
      done.fallback = true;
    },
    abort: async (code) => {
      done.aborted = code ?? 'failed';
    },
  };
  return { value, done };
}

const origin = 'http://127.0.0.1:5173';

describe('answerRoute', () => {
  const mock = createMock({ baseUrl: 'https://api.example.test', verifySignatures: false });

  it('allows a CORS preflight for what it asks', async () => {
    const r = route('OPTIONS', 'https://api.example.test/s2s/users', {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    });
    await answerRoute(mock.handlers, r.value);
    expect(r.done.fulfilled?.status).toBe(204);
    expect(r.done.fulfilled?.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization,content-type',
    });
  });

  it("answers from the mock, with the page's origin allowed", async () => {
    const body = JSON.stringify({
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    });
    const r = route('POST', 'https://api.example.test/s2s/users', { origin, 'content-type': 'application/json' }, body);
    await answerRoute(mock.handlers, r.value);
    expect(r.done.fulfilled?.status).toBe(201);
    expect(r.done.fulfilled?.headers['access-control-allow-origin']).toBe(origin);
    const user = JSON.parse(r.done.fulfilled!.body!.toString('utf8')) as { id: string };
    expect(Object.keys(mock.snapshot().users)).toEqual([user.id]);
  });

  it('hands on what the mock does not handle, and fails the request on an injected network fault', async () => {
    const other = route('GET', 'https://cdn.example.test/app.js', {});
    await answerRoute(mock.handlers, other.value);
    expect(other.done).toEqual({ fallback: true });
    mock.faults.inject({ method: 'GET', path: '/s2s/users/*', status: 0, times: 1 });
    const failed = route('GET', 'https://api.example.test/s2s/users/00000000-0000-4000-8000-000000000000', { origin });
    await answerRoute(mock.handlers, failed.value);
    expect(failed.done).toEqual({ aborted: 'failed' });
  });
});
