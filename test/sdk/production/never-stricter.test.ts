/**
 * The SDK is never stricter than the spec (issue 18): every response body that an independent JSON Schema validator
 * (Ajv with ajv-formats, reading the raw YAML: test/conformance/validator.ts) accepts, the SDK's response validation
 * (the generated zod schemas) accepts too. The bodies are random, from the spec's own schemas (test/fuzz/generate.ts),
 * with the string formats filled as a dynamic mock such as Prism's may fill them: URIs whose host WHATWG URL parsing
 * refuses but RFC 3986 allows, e-mail addresses with the rarer characters, UUIDs in upper case.
 * `test/prism/never-stricter-prism.ts` runs the same check against Prism's dynamic mock.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { operationTable } from '../../../sdk/generated/operations.gen';
import { responseErrors, type OperationId } from '../../../sdk/src/core/validation';
import { createConformanceChecker } from 'card-issuing-contract/conformance';
import { Generator, Random, type Schema } from '../../fuzz/generate';
import { repoPath } from '../../helpers/spec';

/** RFC 3986 URIs that `new URL` refuses or rewrites (a numeric last label is read as an IPv4 address). */
const EDGE_URIS = [
  'https://cpFcpATXivRdLpafCvzNkO.pkLwr2fObVHX0NE7S10.3',
  'http://host.example.0/a',
  'https://a.b,c+d.example/x?y=1#z',
  'urn:isbn:0451450523',
  'https://example.org/%C3%A9',
];
/** Dot-atom mailboxes Ajv's `email` accepts. */
const EDGE_EMAILS = [
  "o'neil+cards@example.org",
  'a!b#c$d%e&f*g/h=i?j^k_l`m{n|o}p~q@example.org',
  'user@sub-1.example.co9',
  'x@example.1a',
];

class EdgeGenerator extends Generator {
  override validString(s: Schema, name: string): string {
    const r = this.random;
    if (s.format === 'uri') return r.pick(EDGE_URIS);
    if (s.format === 'email') return r.pick(EDGE_EMAILS);
    if (s.format === 'uuid') return r.chance(0.5) ? r.uuid().toUpperCase() : r.uuid();
    // Response-only patterns the request fuzzer has no use for.
    const byPattern: Record<string, () => string> = {
      '^[0-9]{4}$': () => String(r.int(0, 9999)).padStart(4, '0'),
      '^[A-Za-z0-9._-]+$': () => `v${r.int(1, 9)}.${r.hex(4)}_-`,
      '^[A-Za-z0-9]+$': () => `0x${r.hex(40)}`,
      '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$': () =>
        ['eyJhbGciOiJ9', r.hex(8), r.hex(8), r.hex(8), r.hex(8)].join('.'),
    };
    const make = s.pattern === undefined ? undefined : byPattern[s.pattern];
    return make ? make() : super.validString(s, name);
  }
}

const specPath = repoPath('spec/openapi.yaml');
/** The parts of the spec document these checks read. */
interface SpecDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Schema[]; requestBody?: Schema; responses: Record<string, Schema> }>
  >;
}
const doc = parse(readFileSync(specPath, 'utf8')) as SpecDocument;
const checker = createConformanceChecker({ specPath });
const ROUNDS = 25;

describe('the edge values are edges', () => {
  it('WHATWG URL parsing refuses an RFC 3986 URI the spec allows', () => {
    expect(() => new URL(EDGE_URIS[0]!)).toThrow();
  });
});

describe.each(operationTable.map((op) => [op.operationId, op] as const))('%s', (operationId, op) => {
  it('accepts every random response body that Ajv accepts', async () => {
    const gen = new EdgeGenerator(doc, new Random(operationId.length * 7919), { ids: {}, publicKey: 'AAAA' });
    const responses = doc.paths[op.path]![op.method.toLowerCase()]!.responses;
    const success = gen.resolve(responses[String(op.status)]!);
    const schema = (success.content as Record<string, { schema?: Schema }> | undefined)?.['application/json']?.schema;
    expect(schema, 'a JSON success body').toBeDefined();
    let accepted = 0;
    const refused: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const body = gen.valid(schema!);
      const url = op.path.replace(/\{[^}]+\}/g, (_m) =>
        _m === '{type}' ? 'USDC' : '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01',
      );
      const findings = checker
        .check({
          method: op.method,
          url,
          status: op.status,
          responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
          responseBody: body,
        })
        .filter((f) => f.location.startsWith('response.body'));
      if (findings.length) continue; // not valid for the spec either: outside this check
      accepted++;
      const errors = await responseErrors(operationId as OperationId, body);
      if (errors) refused.push(...errors.map((e) => `${e.path}: ${e.message}`));
    }
    expect(accepted, 'Ajv accepted most bodies (the check is not vacuous)').toBeGreaterThan(ROUNDS / 2);
    expect(refused).toEqual([]);
  });
});
