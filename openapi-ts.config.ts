import { defineConfig } from '@hey-api/openapi-ts';
import { operationsPlugin } from './scripts/operations-plugin';

// One command (`npm run generate`) turns spec/openapi.yaml into sdk/generated/: types, zod schemas and one
// function per operation on the ky client, and the operation table. The folder is never edited by hand; CI regenerates and diffs it.
export default defineConfig({
  input: './spec/openapi.yaml',
  output: {
    path: './sdk/generated',
    postProcess: [],
  },
  plugins: [
    '@hey-api/client-ky',
    '@hey-api/typescript',
    { name: 'zod' },
    { name: '@hey-api/sdk', validator: true },
    // operations.gen.ts: operationId, method, path, success status and schema names, for the mock's router.
    operationsPlugin(),
  ],
});
