import { defineConfig } from '@hey-api/openapi-ts';
import { operationsPlugin } from './scripts/operations-plugin';

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

// One command (`npm run generate`) turns spec/openapi.yaml into sdk/generated/: types, zod schemas and one
// function per operation on the ky client, and the operation table. The folder is never edited by hand; CI regenerates and diffs it.
export default defineConfig({
  input: './spec/openapi.yaml',
  output: {
    path: './sdk/generated',
    postProcess: [],
  },
  parser: { patch: { input: (spec) => numbersThatFit(spec) } },
  plugins: [
    '@hey-api/client-ky',
    '@hey-api/typescript',
    // RFC 3339 offsets (`+02:00`) are date-times too; the spec's Timestamp pattern states the rest.
    { name: 'zod', dates: { offset: true } },
    { name: '@hey-api/sdk', validator: true },
    // operations.gen.ts: operationId, method, path, success status and schema names, for the mock's router.
    operationsPlugin(),
  ],
});
