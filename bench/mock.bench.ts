// Requests per second of the mock's handlers, driven as the standalone server drives them (msw getResponse),
// signed and verified. Run: npm run bench. Numbers, not assertions.
import { getResponse, type RequestHandler } from 'msw';
import { test } from 'vitest';
import { createMock } from '../mock-server/src/index';
import { signRequest } from '../sdk/src/signing/sign';

const BASE = 'http://127.0.0.1:4010';
const mock = createMock({ seed: 'bench', baseUrl: BASE });
const handlers = mock.handlers as RequestHandler[];
const { apiKey, apiSecret } = mock.fixtures().credentials[0]!;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const { authorization } = await signRequest({ method, url: `${BASE}${path}`, body: text, apiKey, apiSecret });
  const headers: Record<string, string> = { authorization };
  if (text) headers['content-type'] = 'application/json';
  const response = await getResponse(handlers, new Request(`${BASE}${path}`, { method, headers, body: text }));
  if (!response || response.status >= 400) throw new Error(`${method} ${path}: ${response?.status}`);
  return response;
}

let n = 0;
const registration = () => ({
  email: `bench.${n++}@example.org`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
});
const first = (await (await call('POST', '/s2s/users', registration())).json()) as { id: string };

test('mock, signed requests through getResponse', async ({ bench }) => {
  await bench.compare(
    bench('POST /s2s/users (create a user)', async () => {
      await call('POST', '/s2s/users', registration());
    }),
    bench('GET /s2s/users/{userId}', async () => {
      await call('GET', `/s2s/users/${first.id}`);
    }),
    bench('GET /s2s/users/{userId}/cards/configs', async () => {
      await call('GET', `/s2s/users/${first.id}/cards/configs`);
    }),
  );
});
