// npm run bench:observe — what the request journal and the event log cost per request: server CPU (process
// cpuUsage) of the pipeline as the standalone server drives it, signed GET and POST, with the default rings
// (500 exchanges, 1000 events per tenant) and with observation off (`observe: { requests: 0, events: 0 }`),
// interleaved rounds, medians. Requests are signed before each round, so only the mock's work is measured.
import { createHmac } from 'node:crypto';
import { createMock } from '../mock-server/src/index';
import { mockInternals } from '../mock-server/src/mock/internals';
import type { Pipeline, PipelineRequest } from '../mock-server/src/pipeline';
import { signRequest } from '../sdk/src/signing/sign';

const BASE = 'http://127.0.0.1:4010';
const ROUNDS = 12;
const PER_ROUND = 400;
const hmac = (secret: string, message: string) => new Uint8Array(createHmac('sha256', secret).update(message).digest());

async function request(method: string, path: string, body?: unknown): Promise<PipelineRequest> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const url = `${BASE}${path}`;
  const { authorization } = await signRequest({
    method,
    url,
    body: text,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
  });
  const headers: Record<string, string> = { authorization, ...(text ? { 'content-type': 'application/json' } : {}) };
  return {
    method,
    url,
    pathname: path,
    search: '',
    header: (name) => headers[name],
    headers: () => headers,
    body: text === undefined ? undefined : new TextEncoder().encode(text),
  };
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

async function peer(observe?: { requests: number; events: number }): Promise<{ pipeline: Pipeline; userId: string }> {
  const { pipeline } = mockInternals(
    createMock({ seed: 'bench', baseUrl: BASE, hmac, ...(observe ? { observe } : {}) }),
  );
  const outcome = await pipeline.handle(await request('POST', '/s2s/users', registration()));
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return { pipeline, userId: (JSON.parse(outcome.reply.body) as { id: string }).id };
}

/** Server CPU µs per request of one round. */
async function round(p: { pipeline: Pipeline; userId: string }, kind: 'GET' | 'POST'): Promise<number> {
  const requests = await Promise.all(
    Array.from({ length: PER_ROUND }, () =>
      kind === 'GET' ? request('GET', `/s2s/users/${p.userId}`) : request('POST', '/s2s/users', registration()),
    ),
  );
  const start = process.cpuUsage();
  for (const r of requests) {
    const outcome = await p.pipeline.handle(r);
    if (outcome.kind !== 'reply' || outcome.reply.status >= 400) throw new Error(`${kind} failed`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PER_ROUND;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const on = await peer();
const off = await peer({ requests: 0, events: 0 });
console.log(
  `observation cost, ${ROUNDS} interleaved rounds of ${PER_ROUND} requests, medians of server CPU per request`,
);
for (const kind of ['GET', 'POST'] as const) {
  const withOff: number[] = [];
  const withOn: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    withOff.push(await round(off, kind));
    withOn.push(await round(on, kind));
  }
  const a = median(withOn);
  const b = median(withOff);
  console.log(
    `  signed ${kind.padEnd(4)} off ${b.toFixed(1).padStart(6)} µs   on ${a.toFixed(1).padStart(6)} µs   on/off ${(a / b).toFixed(2)}`,
  );
}
