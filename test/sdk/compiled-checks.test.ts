/**
 * The checks a page runs in place of zod (sdk/generated/zod/checks, the code zod's compiler wrote for each schema when
 * it was generated: scripts/compile-zod.mjs) give zod's own answer: on the spec's examples of every operation's
 * request and response, and on values that depart from them (a field missing, null, of another type, too long, with
 * astral characters), a check passes exactly what zod's runtime parse passes.
 */
import { type $ZodType, safeParse } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import { operationChecks } from '../../sdk/generated/zod/checks.gen';
import { loadSpec, specOperations } from '../helpers/spec';

const spec = loadSpec();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An example, following `$ref`s into the spec (`#/components/schemas/User/examples/0`). */
function resolve(value: unknown): unknown {
  const ref = isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
  if (!ref) return value;
  let node: unknown = spec;
  for (const key of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[decodeURIComponent(key)];
  return resolve(node);
}

/** The JSON example of a request body or a response (the media type's, else its schema's first), if any. */
function exampleOf(holder: unknown): unknown {
  const json = (resolve(holder) as { content?: Record<string, { example?: unknown; schema?: unknown }> } | undefined)
    ?.content?.['application/json'];
  if (json?.example !== undefined) return resolve(json.example);
  const schema = resolve(json?.schema) as { examples?: unknown[] } | undefined;
  return schema?.examples?.[0] === undefined ? undefined : resolve(schema.examples[0]);
}

const ODD: unknown[] = [null, 0, -1, 1.5, '', 'x'.repeat(3000), '\u{1F600}'.repeat(40), true, [], {}];

/** The value, and values that depart from it by one field (at the top and one level down). */
function variants(value: unknown, depth = 2): unknown[] {
  const out: unknown[] = [value];
  if (depth === 0) return out;
  if (Array.isArray(value)) {
    if (value.length > 0) for (const v of variants(value[0], depth - 1).slice(1)) out.push([v, ...value.slice(1)]);
    out.push([...value, ...value]);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const { [key]: field, ...rest } = value;
      out.push(rest);
      for (const odd of ODD) out.push({ ...rest, [key]: odd });
      for (const v of variants(field, depth - 1).slice(1)) out.push({ ...rest, [key]: v });
    }
    out.push({ ...value, unknownField: 1 });
  }
  return out;
}

const UUID = '7c9e6679-7425-40de-944b-e07fc1ae4d91';

describe('compiled checks give zod runtime answers', () => {
  for (const { operationId, operation } of specOperations(spec)) {
    it(operationId, async () => {
      const module = await operationChecks[operationId as keyof typeof operationChecks]();
      const schemas = (await module.schemas()) as { request: $ZodType; response: $ZodType };
      const parameters = (operation.parameters ?? []).map(
        (p) =>
          resolve(p) as {
            name: string;
            in: string;
            example?: unknown;
            schema?: { examples?: unknown[]; default?: unknown };
          },
      );
      const path = Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, UUID]));
      // Query parameters: their examples (else defaults), as the client passes them.
      const query = Object.fromEntries(
        parameters
          .filter((p) => p.in === 'query')
          .map((p) => {
            const schema = resolve(p.schema) as { examples?: unknown[]; default?: unknown } | undefined;
            return [p.name, p.example ?? schema?.examples?.[0] ?? schema?.default];
          })
          .filter(([, value]) => value !== undefined),
      );
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      const cases: [string, ((v: unknown) => boolean) | undefined, $ZodType, unknown[]][] = [
        [
          'request',
          module.request,
          schemas.request,
          variants({
            path,
            query: Object.keys(query).length > 0 ? query : undefined,
            body: exampleOf(operation.requestBody),
          }),
        ],
        ['response', module.response, schemas.response, variants(exampleOf(success))],
      ];
      for (const [which, check, schema, values] of cases) {
        if (!check) continue; // left to zod's runtime
        let passed = 0;
        for (const value of values) {
          const zod = safeParse(schema, value).success;
          expect(check(value), `${which}: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(zod);
          if (zod) passed++;
        }
        // Each side has values that pass (the examples) and values that do not.
        if (which === 'response' && exampleOf(success) !== undefined) expect(passed).toBeGreaterThan(0);
        expect(passed).toBeLessThan(values.length);
      }
    });
  }
});

/**
 * A schema several operations reach is compiled once (checks/shared.gen.ts, `is<Name>`) and called by their checks:
 * each such check of a named schema, on its own, gives zod's answer on the schema's examples and their variants.
 */
describe('shared checks give zod runtime answers', () => {
  it('each named schema with examples', async () => {
    const shared = (await import('../../sdk/generated/zod/checks/shared.gen')) as Record<string, unknown>;
    const named = (await import('../../sdk/generated/zod.gen')) as Record<string, $ZodType>;
    const components = (spec as { components: { schemas: Record<string, { examples?: unknown[] }> } }).components
      .schemas;
    let tried = 0;
    for (const [key, check] of Object.entries(shared)) {
      const name = /^is([A-Z]\w*)$/.exec(key)?.[1];
      const schema = name && named[`z${name}`];
      const examples = name ? (components[name]?.examples ?? []) : [];
      if (!schema || typeof check !== 'function' || examples.length === 0) continue;
      tried++;
      for (const value of examples.flatMap((example) => variants(resolve(example), 3))) {
        expect(check(value), `${key}: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(safeParse(schema, value).success);
      }
    }
    expect(tried).toBeGreaterThan(10);
  });
});
