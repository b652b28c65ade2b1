// Memory of the mock as a front-end team's all-day server grows: heap per stored user, and per tenant.
// Run: npm run bench (after the speed benchmarks), or npx tsx --expose-gc bench/memory.ts.
import { getResponse, type RequestHandler } from 'msw';
import { createMock } from '../mock-server/src/index';
import { signRequest } from '../sdk/src/signing/sign';

const BASE = 'http://127.0.0.1:4010';
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const mock = createMock({ seed: 'memory', baseUrl: BASE });
const handlers = mock.handlers as RequestHandler[];
const { apiKey, apiSecret } = mock.fixtures().credentials[0]!;

async function createUser(i: number): Promise<void> {
  const body = JSON.stringify({
    email: `m.${i}@example.org`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  });
  const url = `${BASE}/s2s/users`;
  const { authorization } = await signRequest({ method: 'POST', url, body, apiKey, apiSecret });
  const response = await getResponse(
    handlers,
    new Request(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body }),
  );
  if (response?.status !== 201) throw new Error(`create user: ${response?.status}`);
}

const USERS = 5000;
const before = heap();
for (let i = 0; i < USERS; i++) await createUser(i);
const afterUsers = heap();
const TENANTS = 50;
for (let i = 0; i < TENANTS; i++) mock.addCredentials({ apiKey: `tenant_${i}`, apiSecret: `secret_${i}` });
const afterTenants = heap();
const stateBytes = JSON.stringify(mock.exportState()).length;

console.log(`gc exposed: ${gc ? 'yes' : 'no (run with --expose-gc for steadier numbers)'}`);
console.log(
  `${USERS} users: heap +${mb(afterUsers - before)} (${((afterUsers - before) / USERS / 1024).toFixed(2)} KiB per user, idempotency and nonce caches included)`,
);
console.log(
  `${TENANTS} seeded tenants: heap +${mb(afterTenants - afterUsers)} (${((afterTenants - afterUsers) / TENANTS / 1024).toFixed(1)} KiB per tenant)`,
);
console.log(`exported state (what --state-file writes): ${mb(stateBytes)}`);
