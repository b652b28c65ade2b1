/**
 * The `--state-file` rows of `npm run bench:mock` (its own section, `BENCH_ONLY=state-file` runs it alone): the SQLite
 * state file of this tree beside today's design measured in the same run, which is the JSON snapshot and fsynced
 * command log of commit {@link BASE} (its `mock-server/src`, taken from git and bundled like this tree's). Each
 * server is a child process with a state file in a fresh folder and a second tenant. Interleaved rounds, medians:
 * - POST /s2s/users of tenant A, autocannon -c 10: req/s and the server's CPU µs per request;
 * - GET /s2s/users/{id} of tenant B, -c 2, alone and while tenant A writes as above: p50 and p99 latency.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import * as esbuild from 'esbuild';
import { publishedStringToSign } from '../../sdk/src/signing/string-to-sign';
import { createNonce } from '../../sdk/src/signing/nonce';

/** The last commit with today's state file (the command log), the peer. */
const BASE = 'e3524ff';
const ROOT = new URL('../../', import.meta.url).pathname;
const CACHE = join(ROOT, 'node_modules/.cache/bench-mock');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const A = { apiKey: 'test_key', apiSecret: 'test_secret' };
const B = { apiKey: 'other_key', apiSecret: 'other_secret' };
const CLOCK_TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

/** The child: a server on a state file with tenants A and B; answers `{ port }`. */
const child = (nodeModule: string) => `
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from ${JSON.stringify(nodeModule)};
const stateFile = join(mkdtempSync(join(tmpdir(), 'cim-bench-state-')), 'state');
const server = await startMockServer({ port: 0, stateFile });
server.mock.addCredentials(${JSON.stringify(B)});
process.send({ port: server.port });
`;

/** Resolves `card-issuing-sdk` and its subpaths to the SDK sources under `root` (the commit's, for the peer). */
const sdkSourcesOf = (root: string): esbuild.Plugin => ({
  name: 'sdk-sources',
  setup(build) {
    build.onResolve({ filter: /^card-issuing-sdk(\/(server|schemas))?$/ }, (args) => ({
      path: join(root, 'sdk/src', `${args.path === 'card-issuing-sdk' ? 'index' : args.path.slice(17)}.ts`),
    }));
  },
});

/** Bundles for node as tsup builds the published packages: ESM, es2023, every package left to node_modules. */
export async function bundleForNode(options: esbuild.BuildOptions & { outfile: string }): Promise<string> {
  await esbuild.build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2023',
    packages: 'external',
    logLevel: 'warning',
    ...options,
  });
  return options.outfile;
}

const bundle = (name: string, nodeModule: string, resolveDir: string): Promise<string> =>
  bundleForNode({
    // Each mock with the SDK of its own commit: the peer's mock imports what its SDK exported then.
    plugins: [sdkSourcesOf(resolveDir)],
    stdin: { contents: child(nodeModule), resolveDir, loader: 'ts' },
    outfile: join(CACHE, `${name}.mjs`),
  });

/** Commit {@link BASE}'s mock and SDK sources, once, beside this tree's node_modules (so its packages resolve the same). */
function baseSources(): string {
  const dir = join(CACHE, `base-${BASE}`);
  if (!existsSync(join(dir, 'sdk/src/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', ROOT, 'archive', BASE, 'mock-server/src', 'sdk/src', 'sdk/generated'], {
      maxBuffer: 1 << 28,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  return dir;
}

interface Peer {
  name: string;
  child: ChildProcess;
  port: number;
  userId: string;
}

async function start(name: string, script: string): Promise<Peer> {
  const proc = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    proc.once('message', (m) => resolve(m as { port: number }));
    proc.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  const peer = { name, child: proc, port, userId: '' };
  // Tenant B's user, made over HTTP as any client would.
  const [made] = signed(peer, B, 'POST', '/s2s/users', 1);
  const response = await fetch(`http://127.0.0.1:${port}/s2s/users`, {
    method: 'POST',
    headers: made!.headers as Record<string, string>,
    body: made!.body as string,
  });
  peer.userId = ((await response.json()) as { id: string }).id;
  return peer;
}

/** utime + stime of a process, in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US;
}

let counter = 0;
/** `amount` signed requests (a fresh nonce each) of one tenant. */
function signed(peer: Peer, key: typeof A, method: 'GET' | 'POST', path: string, amount: number): autocannon.Request[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const out: autocannon.Request[] = [];
  for (let i = 0; i < amount; i++) {
    const body =
      method === 'POST'
        ? JSON.stringify({
            email: `sf.${process.pid}.${++counter}@example.org`,
            firstName: 'Ada',
            lastName: 'Lovelace',
            phone: '+447700900123',
            dateOfBirth: '1990-12-10',
            country: 'GB',
          })
        : undefined;
    out.push(signedRequest(peer.port, key, method, path, timestamp, body));
  }
  return out;
}

/**
 * One request to the server on `port`, signed with `key` and a fresh nonce: the five published parts only (the
 * bench never signs the body hash).
 */
export function signedRequest(
  port: number,
  key: { apiKey: string; apiSecret: string },
  method: 'GET' | 'POST',
  path: string,
  timestamp: string,
  body: string | undefined,
): autocannon.Request {
  const nonce = createNonce();
  const url = `http://127.0.0.1:${port}${path}`;
  const toSign = publishedStringToSign({ method, url, apiKey: key.apiKey, timestamp, nonce });
  const signature = createHmac('sha256', key.apiSecret).update(toSign).digest('base64');
  return {
    method,
    path,
    headers: {
      authorization: `HMAC-SHA256 ${key.apiKey}:${signature}:${nonce}:${timestamp}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
  };
}

/**
 * autocannon over a pre-signed pool; once a quiet server has used the pool up, each further request is signed as it
 * goes (a replayed nonce would be refused with a 401 and counted as a cheap answer).
 */
const cannon = (
  peer: Peer,
  requests: autocannon.Request[],
  connections: number,
  seconds: number,
  more: () => autocannon.Request,
) => {
  let i = 0;
  return autocannon({
    url: `http://127.0.0.1:${peer.port}`,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, ...(requests[i++] ?? more()) }) }],
  });
};

interface Round {
  postRps: number;
  postCpuUs: number;
  getP50: number;
  getP99: number;
  getP99Alone: number;
  bad: number;
}

async function round(peer: Peer): Promise<Round> {
  const seconds = 3;
  const getPath = `/s2s/users/${peer.userId}`;
  const oneGet = () => signed(peer, B, 'GET', getPath, 1)[0]!;
  const alone = await cannon(peer, signed(peer, B, 'GET', getPath, 60_000), 2, 2, oneGet);
  const posts = signed(peer, A, 'POST', '/s2s/users', 40_000);
  const gets = signed(peer, B, 'GET', getPath, 80_000);
  const cpu0 = cpuMicros(peer.child.pid!);
  const t0 = performance.now();
  const [post, get] = await Promise.all([
    cannon(peer, posts, 10, seconds, () => signed(peer, A, 'POST', '/s2s/users', 1)[0]!),
    cannon(peer, gets, 2, seconds, oneGet),
  ]);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(peer.child.pid!) - cpu0;
  if (process.env.BENCH_DEBUG)
    console.error(
      peer.name,
      JSON.stringify([post.statusCodeStats, get.statusCodeStats, alone.statusCodeStats, get.latency]),
    );
  return {
    postRps: post.requests.total / elapsed,
    postCpuUs: cpu / Math.max(post.requests.total + get.requests.total, 1),
    getP50: get.latency.p50,
    getP99: get.latency.p99,
    getP99Alone: alone.latency.p99,
    bad: post.non2xx + get.non2xx + alone.non2xx + post.errors + get.errors,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Runs the section and prints it (markdown). */
export async function stateFileBench(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const ours = await bundle('state-sqlite', join(ROOT, 'mock-server/src/node.ts'), ROOT);
  const base = baseSources();
  const theirs = await bundle('state-log', join(base, 'mock-server/src/node.ts'), base);
  const peers = [await start('SQLite state file (this tree)', ours), await start(`command log (${BASE})`, theirs)];
  try {
    for (const peer of peers) await round(peer); // warm-up
    const results = peers.map(() => [] as Round[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, peer] of peers.entries()) results[i]!.push(await round(peer));
      console.error(`state file round ${r + 1}/${ROUNDS} done`);
    }
    const med = results.map((rs) => ({
      postRps: median(rs.map((x) => x.postRps)),
      postCpuUs: median(rs.map((x) => x.postCpuUs)),
      getP50: median(rs.map((x) => x.getP50)),
      getP99: median(rs.map((x) => x.getP99)),
      getP99Alone: median(rs.map((x) => x.getP99Alone)),
      bad: rs.reduce((s, x) => s + x.bad, 0),
    }));
    console.log(
      `\n### \`--state-file\`: SQLite beside the command log of ${BASE} (${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${ROUNDS} interleaved rounds, medians)\n`,
    );
    console.log(
      'Tenant A: signed POST /s2s/users, autocannon -c 10, 3 s. Tenant B: signed GET of one user, -c 2, alone and during those writes.\n',
    );
    console.log(
      '| state file | POST req/s | server CPU µs/request | B: GET p99 alone | B: GET p50 during writes | B: GET p99 during writes | non-2xx |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [i, peer] of peers.entries()) {
      const m = med[i]!;
      console.log(
        `| ${peer.name} | ${fmt(m.postRps)} | ${fmt(m.postCpuUs)} | ${fmt(m.getP99Alone, 1)} ms | ${fmt(m.getP50, 1)} ms | ${fmt(m.getP99, 1)} ms | ${m.bad} |`,
      );
    }
    const [sqlite, log] = med as [(typeof med)[0], (typeof med)[0]];
    console.log(
      `\nPOST throughput, SQLite vs the command log: ${fmt(sqlite.postRps / log.postRps, 2)}× (goal ≥ 1×: ${sqlite.postRps >= log.postRps ? 'met' : 'NOT met'}); tenant B's GET p99 during writes: ${fmt(sqlite.getP99, 1)} ms against ${fmt(log.getP99, 1)} ms.`,
    );
  } finally {
    for (const peer of peers) peer.child.kill('SIGKILL');
  }
}
