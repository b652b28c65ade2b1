import { fileURLToPath } from 'node:url';
import { defineConfig } from '@hey-api/openapi-ts';

// One command (`npm run generate`) turns spec/openapi.yaml into generated code that is never edited by hand; CI
// regenerates and diffs it (test/spec/generated.test.ts). Two outputs of the same spec:
//
// - sdk/generated/: what the SDK ships. Types, one function per operation on the ky client, and zod schemas in
//   zod's smaller build (`zod/mini`: functions instead of methods, so a bundler keeps only what is used; all the
//   schemas of the spec are 13 KiB gzip with it, 31 KiB with classic zod, and the client with validation must stay
//   under 40 KiB). The request schema of each operation is a named export (`zCreateUserData`), built once, not a
//   `z.object` per call. The functions import no zod: their validators load the schemas with `import()` on first
//   use, so a client with validation off never loads zod. A post-processing step marks every schema constructor
//   `@__PURE__`, so a bundler drops the schemas a page does not use.
// - sdk/generated-classic/: the same schemas in classic zod, for `card-issuing-sdk/internal` (the mock composes them
//   with methods: `.optional()`, `.shape`, `instanceof z.ZodObject`). Never part of the SDK's root entry.
const annotatePure = fileURLToPath(new URL('./scripts/annotate-pure.mjs', import.meta.url));

export default defineConfig([
  {
    input: './spec/openapi.yaml',
    output: {
      path: './sdk/generated',
      postProcess: [{ name: 'annotate-pure', command: process.execPath, args: [annotatePure, '{{path}}/zod.gen.ts'] }],
    },
    plugins: [
      '@hey-api/client-ky',
      '@hey-api/typescript',
      {
        name: 'zod',
        compatibilityVersion: 'mini',
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
    ],
  },
  {
    input: './spec/openapi.yaml',
    output: { path: './sdk/generated-classic', postProcess: [], entryFile: false },
    plugins: [{ name: 'zod' }],
  },
]);
