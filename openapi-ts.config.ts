import { fileURLToPath } from 'node:url';
import { defineConfig } from '@hey-api/openapi-ts';
import { operationsPlugin } from './scripts/operations-plugin';
import { problemsPlugin } from './scripts/problems-plugin';

/**
 * The spec gives every integer its format (OWASP API4). hey-api turns `int64` into a zod `bigint`, but JSON numbers
 * are exact in JavaScript up to 2^53 and every int64 of the spec has a `maximum` below that: such an integer stays a
 * `number` for the SDK and the mock (the spec keeps saying int64 for other languages' clients).
 */
function numbersThatFit(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(numbersThatFit);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'integer' && schema.format === 'int64' && typeof schema.maximum === 'number' && schema.maximum <= Number.MAX_SAFE_INTEGER) {
    delete schema.format;
  }
  Object.values(schema).forEach(numbersThatFit);
}

const parser = { patch: { input: (spec: unknown) => numbersThatFit(spec) } };

const annotatePure = fileURLToPath(new URL('./scripts/annotate-pure.mjs', import.meta.url));

// One command (`npm run generate`) turns spec/openapi.yaml into generated code that is never edited by hand; CI
// regenerates and diffs it (test/spec/generated.test.ts). One folder, two outputs of the same spec:
//
// - sdk/generated/: what the SDK ships. Types, one function per operation on the ky client, the operation table,
//   and zod schemas in zod's smaller build (`zod/mini`: functions instead of methods, so a bundler keeps only what
//   is used; all the schemas of the spec are 13 KiB gzip with it, 31 KiB with classic zod, and the client with
//   validation has to stay under 40 KiB). The request schema of each operation is a named export
//   (`zCreateUserData`), built once, not a `z.object` per call. The functions import no zod: their validators load
//   the schemas with `import()` on first use, so a client with validation off never loads zod. A post-processing
//   step marks every schema constructor `@__PURE__`, so a bundler drops the schemas a page does not use.
// - sdk/generated/classic/: the same schemas in classic zod, for `card-issuing-sdk/internal` (the mock composes them
//   with methods: `.optional()`, `.shape`, `instanceof z.ZodObject`). Never part of the SDK's root entry.
export default defineConfig([
  {
    input: './spec/openapi.yaml',
    output: {
      path: './sdk/generated',
      // `npm run generate` empties sdk/generated first; the jobs run at once, so neither may clean (classic/ is inside).
      clean: false,
      postProcess: [{ name: 'annotate-pure', command: process.execPath, args: [annotatePure, '{{path}}/zod.gen.ts'] }],
    },
    parser,
    plugins: [
      '@hey-api/client-ky',
      '@hey-api/typescript',
      {
        name: 'zod',
        compatibilityVersion: 'mini',
        // RFC 3339 offsets (`+02:00`) are date-times too; the spec's Timestamp pattern states the rest.
        dates: { offset: true },
        requests: { shouldExtract: true },
        $resolvers: {
          // `async (data) => await (await import('./zod.gen')).zCreateUserData.parseAsync(data)`: the schema module
          // is loaded by the first validation, never by importing the functions.
          validator: ({ $, symbols }) => {
            const name = (symbols.schema as { name: string }).name;
            return $('import').call($.literal('./zod.gen')).await().attr(name).attr('parseAsync').call('data').await().return();
          },
        },
      },
      // No default client instance (a module-level side effect) and no auth plumbing: the SDK passes its own
      // client to every call and signs in ky's hooks.
      { name: '@hey-api/sdk', validator: true, client: false, auth: false },
      // operations.gen.ts: operationId, method, path, success status and schema names, for the mock's router.
      operationsPlugin(),
    ],
  },
  {
    input: './spec/openapi.yaml',
    output: { path: './sdk/generated/classic', clean: false, postProcess: [], entryFile: false },
    parser,
    // problems.gen.ts (code -> status) re-exported by zod.gen.ts, the module `card-issuing-sdk/internal` re-exports.
    plugins: [{ name: 'zod', dates: { offset: true } }, problemsPlugin({ exportFrom: ['zod'] })],
  },
]);
