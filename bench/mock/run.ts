/**
 * `npm run bench:mock`: the mock server beside its peers on this machine, in interleaved rounds (each round runs
 * every case once, so a change in machine load hits every case alike), 10 keep-alive connections (load.ts), signed
 * requests (a fresh nonce each, all signed and written out as bytes before the round, so that the load generator
 * does no HMAC and builds nothing while it loads a server), and each server's CPU time per request read from /proc/<pid>/stat (the robust figure on a
 * shared machine), plus req/s. Medians of the rounds. Then the growth of CPU per request with 10 to 100,000
 * records, and the heap after GC at 10^4 and 10^5 signed GETs (autocannon, an exact number of requests). Prints
 * markdown.
 *
 * Every server runs as its users run it. Ours: the CLI as built (`mock-server/dist/cli.js`), its request log on
 * (one line per request to stdout, a pipe this script drains). Prism 5 `mock` of spec/openapi.yaml with its default
 * log (installed into a temporary folder with npm when absent; not a dependency). The limit of a signed API: bare
 * node:http verifying the same HMAC with node:crypto and answering fixed JSON; beside it the same without the
 * check, loaded once with pre-signed requests and once with one fixed unsigned request, to show that the load
 * generator holds no server back (their req/s within 10 %). One msw handler through getResponse (the naive
 * bridge).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import { rawRequest, runLoad } from './load';
import { bundleForNode, cpuMicros, signedRequest, stateFileBench } from './state-file';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;
const KEY = { apiKey: 'test_key', apiSecret: 'test_secret' };
const ROOT = new URL('../../', import.meta.url).pathname;
const PRISM_DIR = join(tmpdir(), 'cim-prism');

interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  /** The pid whose CPU is measured. */
  pid: number;
}

/**
 * servers.ts as the published packages run: bundled by esbuild like tsup builds them (no tsx, whose transform
 * keeps names by wrapping every closure a request creates), with every package, `card-issuing-sdk` among them,
 * loaded from node_modules (the SDK's built dist). Built once per run.
 */
let serversBundle: Promise<string> | undefined;
const bundleServers = () =>
  (serversBundle ??= bundleForNode({
    entryPoints: [join(ROOT, 'bench/mock/servers.ts')],
    outfile: join(ROOT, 'node_modules/.cache/bench-mock/servers.mjs'),
  }));

/** A child of servers.ts, with IPC. */
async function startServer(kind: string): Promise<Server> {
  const child = fork(await bundleServers(), [kind], {
    execArgv: ['--expose-gc', ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await ask<{ port: number }>(child, undefined, (m) => 'port' in m);
  return { name: kind, child, port: port.port, pid: child.pid! };
}

/**
 * The mock's CLI as built, as a user starts it (`card-issuing-mock --port 0`, plus `args`): its request log goes to
 * a pipe this process drains, as a terminal or a supervisor would read it. Resolves once the banner names the port.
 */
async function startCli(name: string, args: string[] = []): Promise<Server> {
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'mock-server/dist/cli.js'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on http:\/\/[^:\s]+:(\d+)/.exec(seen);
      if (found) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(Number(found[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`card-issuing-mock exited with ${code}`)));
  });
  return { name, child, port, pid: child.pid! };
}

/** A user created through a signed POST on one of our servers (its id, for the GET case). */
async function createUser(server: Server): Promise<string> {
  const [request] = await signedRequests(server, { method: 'POST', path: () => '/s2s/users', body: newUserBody }, 1);
  const response = await fetch(`http://127.0.0.1:${server.port}${request!.path}`, {
    method: 'POST',
    headers: request!.headers as Record<string, string>,
    body: request!.body as string,
  });
  if (response.status !== 201) throw new Error(`creating a user answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

function ask<T extends object>(child: ChildProcess, message: unknown, accept: (m: object) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: object) => {
      if (typeof m === 'object' && m !== null && accept(m)) {
        child.off('message', onMessage);
        resolve(m as T);
      }
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    if (message !== undefined) child.send(message as never);
  });
}

/** Prism 5, installed into a temporary folder when absent; its own node process is the one measured. */
async function startPrism(): Promise<Server> {
  const bin = join(PRISM_DIR, 'node_modules/@stoplight/prism-cli/dist/index.js');
  if (!existsSync(bin)) {
    console.error(`Installing Prism 5 into ${PRISM_DIR} (once)...`);
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', PRISM_DIR, '@stoplight/prism-cli@5'],
      { stdio: 'ignore' },
    );
  }
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  // As users run it: its default log (a line per request) to a pipe this process drains, as ours does.
  const child = spawn(
    process.execPath,
    [realpathSync(bin), 'mock', join(ROOT, 'spec/openapi.yaml'), '-p', String(port), '-h', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child.stdout!.resume();
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/s2s/cards/x/details`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('prism did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name: 'prism', child, port, pid: child.pid! };
}

/**
 * Waits until a server has finished what the load left it (a log still being written, garbage collected) so that
 * the next case does not share the machine with it: its CPU time stands still for 100 ms, or 5 s have passed.
 */
async function quiet(server: Server): Promise<void> {
  const deadline = Date.now() + 5000;
  for (let before = cpuMicros(server.pid); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMicros(server.pid);
    if (now - before < 5000) return;
    before = now;
  }
}

interface Case {
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
  /** One fixed unsigned request (the check that the load generator holds no server back). */
  unsigned?: boolean;
}

/** `amount` requests of a case, each signed with a fresh nonce. */
async function signedRequests(server: Server, c: Case, amount: number): Promise<autocannon.Request[]> {
  return signedRequestsNow(server, c, amount);
}

/** The same, synchronously. */
function signedRequestsNow(server: Server, c: Case, amount: number): autocannon.Request[] {
  const out: autocannon.Request[] = [];
  const timestamp = String(Math.floor(Date.now() / 1000));
  for (let i = 0; i < amount; i++) {
    const path = c.path();
    const body = c.body?.();
    out.push(signedRequest(server.port, KEY, c.method, path, timestamp, body));
  }
  return out;
}

interface Measure {
  rps: number;
  cpuUs: number;
  non2xx: number;
  errors: number;
}

/**
 * Requests signed before the round: more than the round can send (three times the fastest rate measured so far,
 * at least 30,000), so that the load generator only hands out ready requests. Should a round outrun them, the rest
 * are signed as they go (never a replayed nonce) and counted: `lateSigned` says whether the pool was short.
 */
async function pool(server: Server, c: Case, amount: number): Promise<() => Buffer> {
  // One buffer for them all, handed out as views: no garbage of the making is left for the round to collect.
  const raw = (await signedRequests(server, c, amount)).map((r) => rawRequest(server.port, asRaw(r)));
  const bytes = Buffer.concat(raw);
  const ends = new Uint32Array(raw.length);
  for (let i = 0, end = 0; i < raw.length; i++) ends[i] = end += raw[i]!.length;
  raw.length = 0;
  collectGarbage();
  let i = 0;
  return () => {
    if (i < ends.length) {
      const start = i === 0 ? 0 : ends[i - 1]!;
      return bytes.subarray(start, ends[i++]);
    }
    lateSigned++;
    // A replayed nonce would be a cheap 401; one more signed request keeps the round honest.
    return rawRequest(server.port, asRaw(signedRequestsNow(server, c, 1)[0]!));
  };
}

/** A full garbage collection in this process (the load generator), before a round rather than during it. */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

const asRaw = (r: autocannon.Request) => ({
  method: r.method ?? 'GET',
  path: r.path ?? '/',
  headers: r.headers as Record<string, string>,
  ...(typeof r.body === 'string' ? { body: r.body } : {}),
});

/** How many requests were signed during a round (0 when every pool was large enough). */
let lateSigned = 0;

/** The fastest measured req/s of each case on each server, to sign enough requests for the next round. */
const lastRates = new WeakMap<Server, WeakMap<Case, number>>();
const ratesOf = (server: Server) => lastRates.get(server) ?? lastRates.set(server, new WeakMap()).get(server)!;

/**
 * One round of a case against a server for `seconds` (autocannon's `amount` ends on a one-second tick, which
 * would quantise req/s): its req/s and the server's CPU µs per request.
 */
async function measure(server: Server, c: Case, seconds: number): Promise<Measure> {
  // Enough for the fastest rate this machine gives a bare server (about 30,000 req/s), or three times this case's.
  const fixed = rawRequest(server.port, { method: c.method, path: c.path() });
  if (c.unsigned) collectGarbage();
  const next = c.unsigned
    ? () => fixed
    : await pool(server, c, Math.ceil(Math.max(40_000, (ratesOf(server).get(c) ?? 0) * 3) * seconds));
  const cpuBefore = cpuMicros(server.pid);
  const result = await runLoad(server.port, CONNECTIONS, seconds, next);
  const cpu = cpuMicros(server.pid) - cpuBefore;
  await quiet(server);
  const { total, elapsed } = result;
  ratesOf(server).set(c, Math.max(total / elapsed, ratesOf(server).get(c) ?? 0));
  if (result.non2xx > 0 && process.env.BENCH_DEBUG)
    console.error(server.name, c.method, JSON.stringify(result.statuses));
  return { rps: total / elapsed, cpuUs: cpu / Math.max(total, 1), non2xx: result.non2xx, errors: result.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (n: number) => `${n >= 10 ? fmt(n, 0) : n >= 1 ? fmt(n, 1) : fmt(n, 2)}×`;

let userCounter = 0;
const newUserBody = () =>
  JSON.stringify({
    email: `bench.${process.pid}.${++userCounter}@example.org`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  });

/** BENCH_ONLY=table, growth or heap runs that part alone (while working on it). */
const ONLY = process.env.BENCH_ONLY;

/** One row of the table: a server and the request it is loaded with. */
interface TableCase {
  label: string;
  server: Server;
  c: Case;
  seconds: number;
}

/** A row's medians over the rounds, and its requests that were not 2xx or failed. */
interface TableRow {
  rps: number;
  cpuUs: number;
  bad: number;
}

/** The table's rows: the bare servers (the limit, and the load generator's check), the bridge, Prism and ours. */
function tableCases(
  peers: { bare: Server; bareSigned: Server; bridge: Server; prism: Server; ours: Server; oursState: Server },
  userId: string,
): TableCase[] {
  const { bare, bareSigned, bridge, prism, ours, oursState } = peers;
  const getUser: Case = { method: 'GET', path: () => `/s2s/users/${userId}` };
  const unsignedGet: Case = { ...getUser, unsigned: true };
  const postUser: Case = { method: 'POST', path: () => '/s2s/users', body: newUserBody };
  return [
    {
      label: 'bare node:http, verifies the signature, fixed JSON (the limit)',
      server: bareSigned,
      c: getUser,
      seconds: 3,
    },
    { label: 'bare node:http, no signature check, pre-signed load', server: bare, c: getUser, seconds: 3 },
    {
      label: 'bare node:http, no signature check, one fixed unsigned request',
      server: bare,
      c: unsignedGet,
      seconds: 3,
    },
    { label: 'one msw handler through `getResponse` (naive bridge)', server: bridge, c: getUser, seconds: 3 },
    { label: 'Prism 5 `mock` of our spec, GET user (default log)', server: prism, c: getUser, seconds: 3 },
    { label: 'our mock (CLI, request log on), signed GET user', server: ours, c: getUser, seconds: 3 },
    { label: 'our mock (CLI, request log on), signed POST user', server: ours, c: postUser, seconds: 3 },
    { label: 'the same with `--state-file`', server: oursState, c: postUser, seconds: 3 },
  ];
}

/** Loads every row, ROUNDS times interleaved after a warm-up; the medians of each row. */
async function measureRounds(cases: TableCase[]): Promise<TableRow[]> {
  // Warm-up: JIT and connections.
  for (const { server, c } of cases) await measure(server, c, 1);
  const results = cases.map(() => [] as Measure[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { server, c, seconds }] of cases.entries()) results[i]!.push(await measure(server, c, seconds));
    console.error(`round ${round + 1}/${ROUNDS} done`);
  }
  return results.map((rs) => ({
    rps: median(rs.map((r) => r.rps)),
    cpuUs: median(rs.map((r) => r.cpuUs)),
    bad: rs.reduce((s, r) => s + r.non2xx + r.errors, 0),
  }));
}

/** The table: the machine and the method, then a row per case with its ratios to the bare signed server and Prism. */
function printTable(cases: TableCase[], med: TableRow[]): void {
  const [mBare, , , , mPrism] = med as [TableRow, TableRow, TableRow, TableRow, TableRow];
  console.log(
    `## Mock server benchmark (${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
  );
  console.log(
    `${CONNECTIONS} keep-alive connections (bench/mock/load.ts), requests signed and written out before each round (a fresh nonce each), ${ROUNDS} interleaved rounds (medians); server CPU per request from /proc/<pid>/stat; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} at the end.\n`,
  );
  console.log(
    '| case | req/s | server CPU µs/request | vs bare signed node:http (req/s · CPU) | vs Prism 5 GET (req/s) | non-2xx |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [i, { label }] of cases.entries()) {
    const m = med[i]!;
    console.log(
      `| ${label} | ${fmt(m.rps)} | ${fmt(m.cpuUs)} | ${ratio(m.rps / mBare.rps)} · ${ratio(m.cpuUs / mBare.cpuUs)} | ${ratio(m.rps / mPrism.rps)} | ${m.bad} |`,
    );
  }
}

/** The issue's targets, each met or not. */
function printTargets(med: TableRow[]): void {
  const [mBare, mPresigned, mUnsigned, , mPrism, mGet, mPost] = med as [
    TableRow,
    TableRow,
    TableRow,
    TableRow,
    TableRow,
    TableRow,
    TableRow,
  ];
  const generator = mPresigned.rps / mUnsigned.rps;
  console.log('\n**Targets** (issue 29)\n');
  console.log(
    `- the load generator holds no server back: bare node:http under the pre-signed load at ${ratio(generator)} of its req/s under one fixed unsigned request (within 10 %: ${Math.abs(1 - generator) <= 0.1 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `- signed GET user ≥ 10× Prism's req/s (${ratio(mGet.rps / mPrism.rps)}): ${mGet.rps >= 10 * mPrism.rps ? 'met' : 'NOT met'}`,
  );
  console.log(
    `- signed GET user: server CPU per request ≤ 1.75× the bare signed server's (${ratio(mGet.cpuUs / mBare.cpuUs)}, ${fmt(mGet.cpuUs)} against ${fmt(mBare.cpuUs)} µs): ${mGet.cpuUs <= 1.75 * mBare.cpuUs ? 'met' : 'NOT met'}`,
  );
  console.log(
    `- signed POST create user ≥ 5× Prism's GET req/s (${ratio(mPost.rps / mPrism.rps)}): ${mPost.rps >= 5 * mPrism.rps ? 'met' : 'NOT met'}`,
  );
}

/** BENCH_ONLY=growth, heap, state-file or get: that part alone. */
async function runOnly(only: string): Promise<void> {
  if (only === 'get') await signedGetOnly();
  if (only === 'growth') await growth();
  if (only === 'heap') await heap();
  if (only === 'state-file') await stateFileBench();
}

async function main(): Promise<void> {
  const started = Date.now();
  if (ONLY && ONLY !== 'table') return runOnly(ONLY);
  const bare = await startServer('bare');
  const bareSigned = await startServer('bare-signed');
  const bridge = await startServer('bridge');
  const ours = await startCli('ours');
  const oursState = await startCli('ours-state', [
    '--state-file',
    join(mkdtempSync(join(tmpdir(), 'cim-bench-')), 'state.json'),
  ]);
  const prism = await startPrism();
  const servers = [bare, bareSigned, bridge, prism, ours, oursState];
  try {
    // A user to GET on our server (the peers answer any id).
    const userId = await createUser(ours);
    const cases = tableCases({ bare, bareSigned, bridge, prism, ours, oursState }, userId);
    const med = await measureRounds(cases);
    printTable(cases, med);
    printTargets(med);

    for (const s of servers) s.child.kill('SIGKILL');
    servers.length = 0;

    if (!ONLY || ONLY === 'growth') await growth();
    if (!ONLY || ONLY === 'heap') await heap();
    await stateFileBench(); // bench/mock/state-file.ts: the --state-file rows (issue 25)
    console.log(
      `\n(${fmt((Date.now() - started) / 1000)} s${lateSigned > 0 ? `; ${fmt(lateSigned)} requests signed during a round, as a pool ran short` : ''})`,
    );
  } finally {
    for (const s of servers) s.child.kill('SIGKILL');
  }
}

/**
 * BENCH_ONLY=get: the GET target's two rows alone (the bare signed server and ours), for working on the request
 * path; BENCH_NODE_ARGS passes flags to our server's node (`--cpu-prof`, for one).
 */
async function signedGetOnly(): Promise<void> {
  const bareSigned = await startServer('bare-signed');
  const ours = await startCli('ours');
  try {
    const userId = await createUser(ours);
    const getUser: Case = { method: 'GET', path: () => `/s2s/users/${userId}` };
    const cases = [
      {
        label: 'bare node:http, verifies the signature, fixed JSON (the limit)',
        server: bareSigned,
        c: getUser,
        seconds: 3,
      },
      { label: 'our mock (CLI, request log on), signed GET user', server: ours, c: getUser, seconds: 3 },
    ];
    const [mBare, mOurs] = (await measureRounds(cases)) as [TableRow, TableRow];
    console.log(
      `signed GET user, server CPU per request: ours ${fmt(mOurs.cpuUs, 1)} µs, bare ${fmt(mBare.cpuUs, 1)} µs: ${(mOurs.cpuUs / mBare.cpuUs).toFixed(2)}× (goal ≤ 1.75×); non-2xx ${mBare.bad + mOurs.bad}; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
  } finally {
    ours.child.kill('SIGINT');
    bareSigned.child.kill('SIGTERM');
  }
}

/** CPU per request with 10 … 100,000 users, cards and approvals in the tenant, the four servers interleaved. */
async function growth(): Promise<void> {
  const sizes = [10, 1_000, 10_000, 100_000];
  const servers = await Promise.all(sizes.map(() => startServer('ours')));
  try {
    const userIds = await Promise.all(
      servers.map((s, i) =>
        ask<{ seeded: { userId: string } }>(s.child, { seed: sizes[i] }, (m) => 'seeded' in m).then(
          (m) => m.seeded.userId,
        ),
      ),
    );
    const kinds: { label: string; cases: Case[] }[] = [
      { label: 'GET user', cases: sizes.map((_, i) => ({ method: 'GET', path: () => `/s2s/users/${userIds[i]}` })) },
      { label: 'POST user', cases: sizes.map(() => ({ method: 'POST', path: () => '/s2s/users', body: newUserBody })) },
      {
        label: 'card list',
        cases: sizes.map((_, i) => ({ method: 'GET', path: () => `/s2s/cards?userId=${userIds[i]}` })),
      },
    ];
    const cpu = kinds.map(() => sizes.map(() => [] as number[]));
    for (const kind of kinds) for (const [i, s] of servers.entries()) await measure(s, kind.cases[i]!, 1);
    const rounds = Math.max(3, Math.ceil(ROUNDS / 2) + 1);
    for (let round = 0; round < rounds; round++) {
      for (const [k, kind] of kinds.entries()) {
        for (const [i, s] of servers.entries()) cpu[k]![i]!.push((await measure(s, kind.cases[i]!, 3)).cpuUs);
      }
    }
    console.log(
      `\n### CPU per request as the state grows (users, cards and approvals each; ${rounds} interleaved rounds, medians)\n`,
    );
    console.log(`| request | ${sizes.map((n) => `${fmt(n)} records`).join(' | ')} | 100,000 vs 10 |`);
    console.log(`|---|${sizes.map(() => '---').join('|')}|---|`);
    for (const [k, kind] of kinds.entries()) {
      const values = cpu[k]!.map(median);
      console.log(
        `| ${kind.label} | ${values.map((v) => `${fmt(v)} µs`).join(' | ')} | ${ratio(values.at(-1)! / values[0]!)} ${values.at(-1)! <= 1.5 * values[0]! ? '(≤ 1.5×: met)' : '(> 1.5×: NOT met)'} |`,
      );
    }
  } finally {
    for (const s of servers) s.child.kill('SIGKILL');
  }
}

/** Exactly `amount` signed requests (for the heap: the count matters here, not the rate). */
async function sendExactly(server: Server, c: Case, amount: number): Promise<void> {
  const requests = await signedRequests(server, c, amount);
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: CONNECTIONS,
    amount,
    requests: [{ setupRequest: (req) => ({ ...req, ...requests[next++ % requests.length]! }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`heap run: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

/** Heap after a full GC in the server after 10^4 and after 10^5 signed GETs. */
async function heap(): Promise<void> {
  const server = await startServer('ours');
  try {
    const { userId } = await ask<{ seeded: { userId: string } }>(server.child, { seed: 1 }, (m) => 'seeded' in m).then(
      (m) => m.seeded,
    );
    const c: Case = { method: 'GET', path: () => `/s2s/users/${userId}` };
    await sendExactly(server, c, 10_000);
    const at4 = (await ask<{ heap: number }>(server.child, 'gc', (m) => 'heap' in m)).heap;
    await sendExactly(server, c, 90_000);
    const at5 = (await ask<{ heap: number }>(server.child, 'gc', (m) => 'heap' in m)).heap;
    const mib = (b: number) => b / 2 ** 20;
    console.log('\n### Heap after GC (our server)\n');
    console.log('| after 10^4 signed GETs | after 10^5 signed GETs | growth |');
    console.log('|---|---|---|');
    console.log(
      `| ${fmt(mib(at4), 1)} MiB | ${fmt(mib(at5), 1)} MiB | ${fmt(mib(at5 - at4), 1)} MiB ${mib(at5 - at4) <= 10 ? '(≤ 10 MiB: met)' : '(> 10 MiB: NOT met)'} |`,
    );
  } finally {
    server.child.kill('SIGKILL');
  }
}

await main();
