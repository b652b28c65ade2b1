/**
 * Is the SDK ever stricter than the spec? Runs Prism's dynamic mock of `spec/openapi.yaml` (random bodies from the
 * spec's schemas, through json-schema-faker), calls every operation once or more, and checks each 2xx body twice:
 * with an independent JSON Schema validator (Ajv, test/conformance/validator.ts, reading the raw YAML) and with the
 * SDK's own response validation (the generated zod schemas). A body Ajv accepts and the SDK refuses is a defect.
 *
 * Prism is no dependency of the project: `PRISM_BIN=/path/to/prism` or `npx --yes @stoplight/prism-cli@5`.
 * Usage: npm run check:prism -- [rounds]
 * @module
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { operationTable } from '../../sdk/generated/operations.gen';
import { responseErrors, type OperationId } from '../../sdk/src/core/validation';
import { createConformanceChecker } from 'card-issuing-contract/conformance';
import { Generator, Random, type Schema } from '../fuzz/generate';
import { repoPath } from '../helpers/spec';

const rounds = Number(process.argv[2] ?? 3);
const port = 4900 + Math.floor(Math.random() * 90);
/** The parts of the spec document these checks read. */
interface SpecDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Schema[]; requestBody?: Schema; responses: Record<string, Schema> }>
  >;
}
const doc = parse(readFileSync(repoPath('spec/openapi.yaml'), 'utf8')) as SpecDocument;
const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64url');
const gen = new Generator(doc, new Random(7), { ids: { type: ['USDC'] }, publicKey });
const checker = createConformanceChecker({ specPath: repoPath('spec/openapi.yaml') });

const [command, args] = process.env.PRISM_BIN
  ? [process.env.PRISM_BIN, [] as string[]]
  : ['npx', ['--yes', '@stoplight/prism-cli@5']];
const prism = spawn(
  command,
  [...args, 'mock', '-d', '-p', String(port), '-h', '127.0.0.1', repoPath('spec/openapi.yaml')],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
await new Promise<void>((resolve, reject) => {
  const onData = (chunk: Buffer) => chunk.toString().includes('Prism is listening') && resolve();
  prism.stdout.on('data', onData);
  prism.stderr.on('data', onData);
  prism.once('exit', (code) => reject(new Error(`prism exited ${code}`)));
});

/** One request of an operation, with values the spec allows for its parameters and body. */
function requestOf(op: (typeof operationTable)[number]): { url: string; init: RequestInit } {
  const specOp = doc.paths[op.path]![op.method.toLowerCase()]!;
  let path: string = op.path;
  const query = new URLSearchParams();
  for (const p of specOp.parameters ?? []) {
    const param = gen.resolve(p) as { in?: string; name: string; required?: boolean; schema: Schema };
    if (param.in === 'path')
      path = path.replace(`{${param.name}}`, encodeURIComponent(String(gen.valid(param.schema, param.name))));
    if (param.in === 'query' && param.required) query.set(param.name, String(gen.valid(param.schema, param.name)));
  }
  const body = specOp.requestBody
    ? JSON.stringify(
        gen.valid(
          (gen.resolve(specOp.requestBody).content as Record<string, { schema: Schema }>)['application/json']!.schema,
        ),
      )
    : undefined;
  const headers: Record<string, string> = {
    authorization: `HMAC-SHA256 k:s:${randomUUID().replaceAll('-', '')}:1`,
    'idempotency-key': randomUUID(),
  };
  if (body) headers['content-type'] = 'application/json';
  const q = query.size ? `?${query}` : '';
  return {
    url: `http://127.0.0.1:${port}${path}${q}`,
    init: { method: op.method, headers, ...(body ? { body } : {}) },
  };
}

let calls = 0;
let ajvValid = 0;
let sdkRefused = 0;
const refusals = new Map<string, string>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const op of operationTable) {
      const { url, init } = requestOf(op);
      const response = await fetch(url, init);
      const text = await response.text();
      calls++;
      if (response.status >= 300) {
        console.log(`${op.operationId}: Prism answered ${response.status} ${text.slice(0, 200)}`);
        continue;
      }
      const body = JSON.parse(text) as unknown;
      const findings = checker
        .check({
          method: op.method,
          url,
          status: response.status,
          responseHeaders: response.headers,
          responseBody: body,
        })
        .filter((f) => f.location.startsWith('response.body'));
      if (findings.length) continue;
      ajvValid++;
      const errors = await responseErrors(op.operationId as OperationId, body);
      if (errors) {
        sdkRefused++;
        for (const e of errors) refusals.set(`${op.operationId} ${e.path}`, e.message);
      }
    }
  }
} finally {
  prism.kill('SIGTERM');
}
console.log(`${calls} calls; ${ajvValid} bodies valid for Ajv; the SDK refused ${sdkRefused} of them.`);
for (const [where, message] of [...refusals].slice(0, 40)) console.log(`  ${where}: ${message}`);
process.exitCode = sdkRefused ? 1 : 0;
