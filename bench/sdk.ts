/**
 * `npm run bench:sdk`: how light and fast the SDK is, side by side with its peers, in one run. Prints a markdown
 * table with ratios and the goals of issue 11. Numbers, never assertions (a timed test would pass or fail by load).
 *
 * 1. Per call: the SDK (validation on, and off) against raw `fetch` with hand signing by node:crypto, against a bare
 *    node:http server in another process on loopback, one call in flight. Timed in interleaved blocks: each peer
 *    runs a block of calls back to back, the peers take turns in a rotating order (so load on a shared machine hits
 *    them alike), and a peer's cost per call is the whole time of its blocks over its calls. A block times what a
 *    program pays for many calls, garbage collection included; timing each call on its own and taking the median
 *    (what this bench did before, 1.27×) leaves out the collections that a peer's garbage causes, and they fall on
 *    whichever call is running, so the peer that makes more garbage looked cheaper than it is.
 * 2. Bundles, as bundlers ship them: code splitting (every `import()` its own chunk), esbuild (`splitting: true`,
 *    browser, ESM, minified, es2023) and a Vite production build, gzip -9 per chunk (bench/split-bundles.ts). Small
 *    pages: the SDK's and its peers' (openapi-fetch, ky, both). For each, what the page loads up front, and what it
 *    has loaded once validation, the problem+json check or card details were first used.
 * 3. Card details: key pair, encrypt and decrypt, ours (Web Crypto, and the node-forge path without crypto.subtle)
 *    against jose and node:crypto, interleaved.
 * 4. The in-process business lifecycle against the mock: 10 calls, card details included, through msw's
 *    getResponse (no network).
 *
 * Options (environment): BENCH_CALLS (calls per peer, default 10000), BENCH_BLOCK (calls per block, default 250),
 * BENCH_LIFECYCLES (default 40), BENCH_ONLY=calls (the per-call table alone, while tuning).
 * @module
 */
import { spawn } from 'node:child_process';
import { KeyObject, createHmac, generateKeyPair as nodeGenerateKeyPair, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { esbuildSplit, loadOf, viteSplit, type Load, type SplitBuild } from './split-bundles';
import * as jose from 'jose';
import ky from 'ky';
import { parse as parseYaml } from 'yaml';
import { getResponse } from 'msw';
import forge from 'node-forge';
import { createMock } from '../mock-server/src/index';

const root = fileURLToPath(new URL('..', import.meta.url));
const sdkEntry = fileURLToPath(new URL('../sdk/src/index.ts', import.meta.url));
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 250);
const ONLY = process.env.BENCH_ONLY; // 'calls' or 'bundles': one table alone, while tuning
const LIFECYCLES = Number(process.env.BENCH_LIFECYCLES ?? 40);
const KiB = 1024;

// What is timed is what a user runs: the SDK as built (`sdk/dist`, which `npm run bench:sdk` builds first), not its
// sources through tsx, whose transform wraps every function a call creates in a naming helper (keepNames) that the
// published build does not have. The generated layer, timed on its own as a peer, is bundled the same way (esbuild,
// ky external).
type Sdk = typeof import('../sdk/src/index');
type Server = typeof import('../sdk/src/server');
type Generated = typeof import('../sdk/generated/sdk.gen') & typeof import('../sdk/generated/client');
const { createCardIssuingClient, decryptCardDetails, exportPublicKey, generateCardKeyPair } = (await import(
  new URL('../sdk/dist/index.js', import.meta.url).href
)) as Sdk;
const { CARD_DETAILS_JWE_HEADER, encryptCardDetails } = (await import(
  new URL('../sdk/dist/server.js', import.meta.url).href
)) as Server;
const { createClient: createGeneratedClient, getUser } = await bundledGenerated();

async function bundledGenerated(): Promise<Generated> {
  // Inside the repository, so that the bundle's `import 'ky'` resolves to the same ky.
  const outfile = join(root, 'node_modules/.cache/bench-sdk/generated.mjs');
  await esbuild.build({
    stdin: {
      contents: `export * from './sdk/generated/sdk.gen'; export { createClient } from './sdk/generated/client';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2023',
    external: ['ky'],
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as Generated;
}

// ------------------------------------------------------------------------------------------------ helpers

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo]! + (sorted[Math.ceil(at)]! - sorted[lo]!) * (at - lo);
}
const µs = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const msText = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
const goal = (ok: boolean, text: string) => `${ok ? '✅' : '❌'} ${text}`;

/** Runs each peer once per round, in a rotating order, and returns each one's samples in milliseconds. */
async function interleaved(
  peers: Record<string, () => Promise<unknown>>,
  rounds: number,
  warmup = Math.min(200, rounds),
): Promise<Record<string, number[]>> {
  const names = Object.keys(peers);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const started = performance.now();
      await peers[name]!();
      const elapsed = performance.now() - started;
      if (round >= warmup) samples[name]!.push(elapsed);
    }
  }
  return samples;
}

/** One block of calls: wall time and this process's CPU time (every thread: the main one, GC helpers), per call in ms. */
interface Block {
  wall: number;
  cpu: number;
}

/**
 * Runs each peer in blocks of `block` calls back to back, the peers taking turns in a rotating order, after one
 * warm-up block each; returns each block's wall and CPU time per call. The server is another process: the CPU time
 * is the client's alone (fetch, the peer's own code, its garbage), which a loaded machine disturbs far less than the
 * wall time.
 */
async function interleavedBlocks(
  peers: Record<string, () => Promise<unknown>>,
  calls: number,
  block: number,
): Promise<Record<string, Block[]>> {
  const names = Object.keys(peers);
  const blocks: Record<string, Block[]> = Object.fromEntries(names.map((n) => [n, []]));
  const rounds = Math.ceil(calls / block);
  for (let round = 0; round <= rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const peer = peers[name]!;
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let n = 0; n < block; n++) await peer();
      const wall = (performance.now() - started) / block;
      const used = process.cpuUsage(cpu);
      // round 0 warms up
      if (round > 0) blocks[name]!.push({ wall, cpu: (used.user + used.system) / 1000 / block });
    }
  }
  return blocks;
}

/** A peer's cost per call over all its blocks (every block has the same number of calls). */
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

// ------------------------------------------------------------------------------------------------ 1. per call

/** The spec's example of getUser's 200 (`#/components/schemas/User/examples/0`). */
function specUser(): unknown {
  const spec = parseYaml(readFileSync(join(root, 'spec/openapi.yaml'), 'utf8')) as {
    components: { schemas: { User: { examples: unknown[] } } };
  };
  return spec.components.schemas.User.examples[0];
}

/** The bench server answering getUser with `user`, in a process of its own; resolves with its port. */
async function startUserServer(user: unknown) {
  const server = spawn(
    process.execPath,
    [fileURLToPath(new URL('./sdk-server.mjs', import.meta.url)), JSON.stringify(user)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    server.once('error', reject);
  });
  return { server, port };
}

/** The published scheme, by hand: apiKey + METHOD + lowercase(url) + timestamp + nonce, HMAC-SHA256, base64. */
function handSigner(apiKey: string, apiSecret: string) {
  const secret = Buffer.from(apiSecret, 'utf8');
  return (method: string, target: string) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createHmac('sha256', secret)
      .update(`${apiKey}${method}${target.toLowerCase()}${timestamp}${nonce}`)
      .digest('base64');
    return `HMAC-SHA256 ${apiKey}:${signature}:${nonce}:${timestamp}`;
  };
}

/**
 * The peers of one getUser call: fetch with hand signing, ky alone (the layer the SDK stands on), the generated
 * functions on hey-api's ky client (ky's defaults: retries and a timeout, as the SDK has them; the SDK does not use
 * them), and the SDK validating and not. Checks first that they read the same user.
 */
async function perCallPeers(baseUrl: string, userId: string) {
  const apiKey = 'bench_key';
  const apiSecret = 'bench_secret';
  const url = `${baseUrl}/s2s/users/${userId}`;
  const authorization = handSigner(apiKey, apiSecret);
  const raw = async () => {
    const response = await fetch(url, { headers: { authorization: authorization('GET', url) } });
    if (!response.ok) throw new Error(`raw: ${response.status}`);
    return response.json();
  };
  const validating = createCardIssuingClient({ baseUrl, apiKey, apiSecret });
  const lenient = createCardIssuingClient({
    baseUrl,
    apiKey,
    apiSecret,
    validateResponses: false,
    validateRequests: false,
  });
  // Sanity: all three read the same user.
  const [a, b, c] = await Promise.all([raw(), validating.s2s.users.get(userId), lenient.s2s.users.get(userId)]);
  if (JSON.stringify(a) !== JSON.stringify(b) || JSON.stringify(b) !== JSON.stringify(c))
    throw new Error('The peers read different bodies.');
  const generated = createGeneratedClient({ baseUrl, throwOnError: true });
  return {
    raw,
    ky: () => ky.get(url, { headers: { authorization: authorization('GET', url) } }).json(),
    generated: () =>
      getUser({
        client: generated,
        path: { userId },
        requestValidator: undefined,
        responseValidator: undefined,
        kyOptions: {
          hooks: {
            beforeRequest: [
              ({ request }) => void request.headers.set('authorization', authorization('GET', request.url)),
            ],
          },
        },
      }),
    validating: () => validating.s2s.users.get(userId),
    lenient: () => lenient.s2s.users.get(userId),
  };
}

async function perCall() {
  const user = specUser();
  const userId = (user as { id: string }).id;
  const { server, port } = await startUserServer(user);
  try {
    const peers = await perCallPeers(`http://127.0.0.1:${port}`, userId);
    const samples = await interleavedBlocks(peers, CALLS, BLOCK);
    return samples as Record<'raw' | 'ky' | 'generated' | 'validating' | 'lenient', Block[]>;
  } finally {
    server.stdin.end();
    server.kill('SIGTERM');
  }
}

// ------------------------------------------------------------------------------------------------ 2. bundles

/** Modules of each lazy part: a dynamic chunk that holds one of them is loaded when the part is first used. */
const PART = {
  validation: /[\\/]validation\.ts$/,
  /** One operation's compiled checks (getUser's): what a page's first validated call of it adds. */
  getUser: /[\\/]checks[\\/]getUser\.gen\.ts$/,
  /** zod and getUser's schemas: with the first check that refuses (they say what is wrong). */
  getUserSchemas: /[\\/](operations[\\/]getUser\.gen|zod-issues)\.ts$/,
  /** Ten operations' compiled checks: a page of a user's cards, approvals and balances. */
  tenCalls:
    /[\\/]checks[\\/](getUser|createUser|listCards|createCard|activateCard|listUserApprovals|getApproval|createApproval|increaseApprovalBudget|listBalances)\.gen\.ts$/,
  /** Every operation's compiled checks, none refusing: what checking every call costs without zod. */
  checks: /[\\/]checks[\\/]\w+\.gen\.ts$/,
  /** Every operation's checks and schemas, and zod. */
  operations: /[\\/]((checks|operations)[\\/]\w+\.gen|zod-issues)\.ts$/,
  /** zod's English messages: with the first failed check only. */
  english: /[\\/]zod-english\.ts$/,
  problem: /[\\/](problem|from-response)\.ts$/,
  cardDetails: /[\\/]card-details[\\/](?!forge)[^\\/]+\.ts$/,
  forge: /[\\/]forge\.ts$/,
};

/** One row of the bundle table: a page, and the parts it has used. */
interface Row {
  label: string;
  page: string;
  parts?: RegExp[];
}

async function bundles() {
  const clientPage = (options = '') =>
    `import { createCardIssuingClient } from SDK;
     (globalThis as any).client = createCardIssuingClient({ baseUrl: 'https://api.example', apiKey: 'k', apiSecret: 's'${options} });`;
  const off = clientPage(', validateResponses: false, validateRequests: false');
  const peersPage = `import createClient from 'openapi-fetch'; import ky from 'ky';
    (globalThis as any).c = createClient({ baseUrl: 'https://api.example' }); (globalThis as any).k = ky.create({ prefixUrl: 'https://api.example' });`;
  // Every export reaches the page (an app build drops what a page's entry merely re-exports).
  const ROOT = `import * as sdk from SDK; (globalThis as any).sdk = sdk;`;
  const rows: Row[] = [
    {
      label: 'openapi-fetch',
      page: `import createClient from 'openapi-fetch'; (globalThis as any).c = createClient({ baseUrl: 'https://api.example' });`,
    },
    {
      label: 'ky',
      page: `import ky from 'ky'; (globalThis as any).k = ky.create({ prefixUrl: 'https://api.example' });`,
    },
    { label: 'openapi-fetch + ky', page: peersPage },
    { label: 'SDK client, validation off: up front', page: off },
    { label: '… + problem+json check (the first error response)', page: off, parts: [PART.problem] },
    { label: 'SDK client, validation on: up front', page: clientPage() },
    {
      label: 'SDK client, validation on: after its first call (getUser)',
      page: clientPage(),
      parts: [PART.validation, PART.getUser],
    },
    {
      label: "… + a refused check (zod, getUser's schemas), problem+json check, English messages and card details",
      page: clientPage(),
      parts: [PART.validation, PART.getUser, PART.getUserSchemas, PART.problem, PART.english, PART.cardDetails],
    },
    {
      label: "SDK client, validation on: after ten operations' first calls (none refused)",
      page: clientPage(),
      parts: [PART.validation, PART.tenCalls],
    },
    {
      label: "SDK client, validation on: after every operation's first call (none refused)",
      page: clientPage(),
      parts: [PART.validation, PART.checks],
    },
    { label: 'root entry, every export used: up front', page: ROOT },
    {
      label: 'root entry, every part used (Web Crypto; every operation called and refused once)',
      page: ROOT,
      parts: [PART.validation, PART.operations, PART.problem, PART.english, PART.cardDetails],
    },
    {
      label: '… + node-forge (only without crypto.subtle)',
      page: ROOT,
      parts: [PART.validation, PART.operations, PART.problem, PART.english, PART.cardDetails, PART.forge],
    },
  ];
  // Each distinct page is built once per bundler.
  const pages = [...new Set(rows.map((r) => r.page))];
  const built = async (split: (page: string) => Promise<SplitBuild>) => {
    const builds = new Map<string, SplitBuild>();
    for (const page of pages) builds.set(page, await split(page.replaceAll('SDK', JSON.stringify(sdkEntry))));
    return rows.map((row) => loadOf(builds.get(row.page)!, row.parts));
  };
  const esbuildLoads = await built(esbuildSplit);
  const viteLoads = await built(viteSplit);
  return { rows, esbuild: esbuildLoads, vite: viteLoads, peers: { esbuild: esbuildLoads[2]!, vite: viteLoads[2]! } };
}

// ------------------------------------------------------------------------------------------------ 3. card details

async function cardDetails() {
  const details = {
    pan: '4000123412344246',
    expiryMonth: 11,
    expiryYear: 2029,
    cvv: '123',
    cardholderName: 'ADA LOVELACE',
  };
  const pair = (await generateCardKeyPair({ extractable: true })) as CryptoKeyPair;
  const spki = await exportPublicKey(pair);
  const jwe = await encryptCardDetails(details, pair);
  const joseJwe = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details)))
    .setProtectedHeader({ ...CARD_DETAILS_JWE_HEADER })
    .encrypt(pair.publicKey);
  const forgePrivate = forge.pki.privateKeyFromPem(
    KeyObject.from(pair.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  // The node-forge path, as a runtime without crypto.subtle takes it (jsdom, React Native).
  const realCrypto = globalThis.crypto;
  const withoutSubtle = async <T>(fn: () => Promise<T>): Promise<T> => {
    Object.defineProperty(globalThis, 'crypto', {
      value: { getRandomValues: realCrypto.getRandomValues.bind(realCrypto) },
      configurable: true,
      writable: true,
    });
    try {
      return await fn();
    } finally {
      Object.defineProperty(globalThis, 'crypto', { value: realCrypto, configurable: true, writable: true });
    }
  };
  if (JSON.stringify(await withoutSubtle(() => decryptCardDetails(jwe, forgePrivate))) !== JSON.stringify(details))
    throw new Error('forge path');
  if (JSON.stringify(await decryptCardDetails(joseJwe, pair)) !== JSON.stringify(details)) throw new Error('jose JWE');

  const decrypt = await interleaved(
    {
      ours: () => decryptCardDetails(jwe, pair),
      jose: () => jose.compactDecrypt(jwe, pair.privateKey),
      oursForge: () => withoutSubtle(() => decryptCardDetails(jwe, forgePrivate)),
    },
    200,
    20,
  );
  const encrypt = await interleaved(
    {
      ours: () => encryptCardDetails(details, spki),
      jose: async () =>
        new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details)))
          .setProtectedHeader({ ...CARD_DETAILS_JWE_HEADER })
          .encrypt(
            await jose.importSPKI(
              `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki, 'base64url').toString('base64')}\n-----END PUBLIC KEY-----`,
              'RSA-OAEP-256',
            ),
          ),
    },
    200,
    20,
  );
  const generate = promisify(nodeGenerateKeyPair);
  const keyPair = await interleaved(
    {
      ours: () => generateCardKeyPair(),
      jose: () => jose.generateKeyPair('RSA-OAEP-256', { modulusLength: 2048 }),
      nodeCrypto: () => generate('rsa', { modulusLength: 2048 }),
    },
    25,
    3,
  );
  return { decrypt, encrypt, keyPair };
}

// ------------------------------------------------------------------------------------------------ 4. lifecycle

async function lifecycle() {
  const BASE = 'https://mock.card-issuing.test';
  const mock = createMock({ seed: 'bench', baseUrl: BASE });
  const { apiKey, apiSecret } = mock.fixtures().credentials[0]!;
  const corporate = mock.fixtures().corporates[0]!;
  const inProcess = async (input: Request | URL | string, init?: RequestInit) =>
    (await getResponse(mock.handlers, input instanceof Request ? input : new Request(input, init))) ?? Response.error();
  const client = createCardIssuingClient({ baseUrl: BASE, apiKey, apiSecret, fetch: inProcess, retry: false });
  const keyPair = await generateCardKeyPair(); // once per session, as an app does
  const day = 24 * 3600 * 1000;
  let n = 0;

  /** The business lifecycle of the interface document: 10 API calls, two of them card details. */
  const run = async () => {
    n++;
    const { corporateUuid, balance } = corporate;
    const user = await client.corporates.users.create({
      name: 'Grace',
      lastName: 'Hopper',
      email: `grace.${n}@corp.example`,
      phone: '+12025550143',
    });
    const now = mock.clock.now().getTime();
    const approval = await client.corporates.approvals.create(corporateUuid, {
      userUuid: user.userUuid,
      budget: { amount: 100, currency: balance.currency },
      validFrom: new Date(now).toISOString(),
      validTo: new Date(now + 30 * day).toISOString(),
    });
    mock.users.completeRegistration(user.userUuid);
    const delivered = await client.corporates.approvals.get(corporateUuid, approval.approvalUuid);
    if (delivered.status !== 'DELIVERED') throw new Error(`approval ${delivered.status}`);
    const details = await client.corporates.approvals.getDetails(corporateUuid, approval.approvalUuid, { keyPair });
    const reapproval = await client.corporates.approvals.increaseBudget(corporateUuid, approval.approvalUuid, {
      additionalBudget: { amount: 50, currency: balance.currency },
    });
    const previous = await client.corporates.approvals.get(corporateUuid, approval.approvalUuid);
    if (previous.status !== 'REAPPROVED') throw new Error(`previous ${previous.status}`);
    const again = await client.corporates.approvals.getDetails(corporateUuid, reapproval.approvalUuid, { keyPair });
    if (again.pan !== details.pan) throw new Error('the reapproval shows another card');
    await client.corporates.approvals.listForUser(corporateUuid, user.userUuid);
    await client.corporates.topUps.list(corporateUuid);
    await client.corporates.deposits.list(corporateUuid);
  };
  const samples = await interleaved({ lifecycle: run }, LIFECYCLES, 5);
  return samples.lifecycle!;
}

// ------------------------------------------------------------------------------------------------ report

const load = loadavg()[0]!.toFixed(2);
out(`## card-issuing-sdk: light and fast (npm run bench:sdk)`);
out();
out(
  `Node ${process.version}, ${cpus().length} CPUs, load average ${load} at start. ${CALLS} calls per peer, one in flight, in interleaved blocks of ${BLOCK}.`,
);
out();

const calls = ONLY === 'bundles' ? undefined : await perCall();
let callsGoal = '';
if (calls) {
  const cpuOf = (xs: Block[]) => mean(xs.map((b) => b.cpu));
  const wallOf = (xs: Block[]) => mean(xs.map((b) => b.wall));
  const rawCpu = cpuOf(calls.raw);
  const rawWall = wallOf(calls.raw);
  const onCpu = cpuOf(calls.validating);
  out(`### Per call: GET /s2s/users/{id} against a bare node:http server (another process, loopback)`);
  out();
  out(
    `Per call: the whole of a peer's blocks over its calls, garbage collection included: the client process's CPU time (every thread), and the wall time, which the machine's load moves far more.`,
  );
  out();
  out(`| peer | client CPU per call | vs raw | wall per call | vs raw |`);
  out(`|---|---|---|---|---|`);
  const row = (label: string, xs: Block[]) =>
    out(
      `| ${label} | ${µs(cpuOf(xs))} | ${ratio(cpuOf(xs), rawCpu)} | ${µs(wallOf(xs))} | ${ratio(wallOf(xs), rawWall)} |`,
    );
  row('raw fetch + node:crypto HMAC', calls.raw);
  row('ky + node:crypto HMAC (a layer the SDK stands on)', calls.ky);
  row("generated function on hey-api's ky client + node:crypto HMAC (not under the SDK)", calls.generated);
  row('SDK, validation on (request and response)', calls.validating);
  row('SDK, validation off', calls.lenient);
  out();
  callsGoal = goal(
    onCpu <= 1.25 * rawCpu,
    `per call, validation on: ${ratio(onCpu, rawCpu)} raw fetch + node:crypto in client CPU, ${ratio(wallOf(calls.validating), rawWall)} in wall time (goal ≤ 1.25×)`,
  );
  if (ONLY === 'calls') process.exit(0);
}

const b = await bundles();
const at = (label: string) => b.rows.findIndex((r) => r.label === label);
const cell = (load: Load, peers: Load) => `${kib(load.gzip)} (${load.chunks}) | ${ratio(load.gzip, peers.gzip)}`;
out(`### What a page downloads: code splitting, gzip -9 per chunk (chunks in brackets)`);
out();
out(
  `esbuild: \`splitting: true\`, browser, ESM, minified, es2023. Vite: production build (Rolldown), its preload helper included.`,
);
out();
out(`| page | esbuild | vs openapi-fetch + ky | Vite | vs openapi-fetch + ky |`);
out(`|---|---|---|---|---|`);
for (const [i, row] of b.rows.entries()) {
  out(`| ${row.label} | ${cell(b.esbuild[i]!, b.peers.esbuild)} | ${cell(b.vite[i]!, b.peers.vite)} |`);
}
out();
const validated = at('SDK client, validation on: after its first call (getUser)');
const lenient = at('SDK client, validation off: up front');
const everything = at('root entry, every part used (Web Crypto; every operation called and refused once)');
const worst = (i: number) => Math.max(b.esbuild[i]!.gzip, b.vite[i]!.gzip);
const worstRatio = (i: number) =>
  Math.max(b.esbuild[i]!.gzip / b.peers.esbuild.gzip, b.vite[i]!.gzip / b.peers.vite.gzip);

if (ONLY === 'bundles') {
  out(`- validated page ${kib(worst(validated))}; validation off ${worstRatio(lenient).toFixed(2)}×`);
  process.exit(0);
}
const crypto = await cardDetails();
out(`### Card details (RSA-2048, RSA-OAEP-256 + A256GCM), interleaved`);
out();
out(`| operation | ours (Web Crypto) | jose | other | ours vs jose |`);
out(`|---|---|---|---|---|`);
const d = {
  ours: median(crypto.decrypt.ours!),
  jose: median(crypto.decrypt.jose!),
  forge: median(crypto.decrypt.oursForge!),
};
const e = { ours: median(crypto.encrypt.ours!), jose: median(crypto.encrypt.jose!) };
const k = {
  ours: median(crypto.keyPair.ours!),
  jose: median(crypto.keyPair.jose!),
  node: median(crypto.keyPair.nodeCrypto!),
};
out(
  `| decrypt (validated, Luhn) | ${msText(d.ours)} | ${msText(d.jose)} | ours without crypto.subtle (node-forge): ${msText(d.forge)} | ${ratio(d.ours, d.jose)} |`,
);
out(`| encrypt to a base64url SPKI (the mock) | ${msText(e.ours)} | ${msText(e.jose)} | | ${ratio(e.ours, e.jose)} |`);
out(
  `| key pair (median of 25; prime search varies) | ${msText(k.ours)} | ${msText(k.jose)} | node:crypto: ${msText(k.node)} | ${ratio(k.ours, k.jose)} |`,
);
out();

const life = await lifecycle();
const lifeMedian = median(life);
out(`### In-process business lifecycle against the mock (10 calls, card details twice; msw getResponse, no network)`);
out();
out(`| runs | median | p90 |`);
out(`|---|---|---|`);
out(`| ${life.length} | ${msText(lifeMedian)} | ${msText(quantile(life, 0.9))} |`);
out();

out(`### Goals (issues 11, 18 and 29)`);
out();
out(`- ${callsGoal}`);
out(
  `- ${goal(worst(validated) <= 30 * KiB, `client page with one validated call, split: ${kib(worst(validated))} gzip, the larger of esbuild and Vite (goal ≤ 30 KiB)`)}`,
);
out(
  `- ${goal(worstRatio(lenient) <= 1.6, `client page with validation off, split: ${worstRatio(lenient).toFixed(2)}× openapi-fetch + ky, the larger of esbuild and Vite (goal ≤ 1.6×)`)}`,
);
out(
  `- ${goal(worst(everything) <= 60 * KiB, `whole root entry, every part used: ${kib(worst(everything))} gzip (goal ≤ 60 KiB)`)}`,
);
out(`- ${goal(d.ours <= 2, `decrypt in Node: ${msText(d.ours)} (goal ≤ 2 ms)`)}`);
out(`- ${goal(lifeMedian <= 20, `in-process lifecycle: ${msText(lifeMedian)} median (goal ≤ 20 ms)`)}`);
out();
out(`Load average at the end: ${loadavg()[0]!.toFixed(2)}.`);
