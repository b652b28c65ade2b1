/**
 * Request and response validation of the client, with the generated zod schemas of each operation: the request
 * schema `z<Operation>Data` (path, query, headers and body, built once by the generator) and the response schema
 * `z<Operation>Response`. `./request` loads this module with `import()` on the first validated call, so a client
 * with validation off never loads zod or the schemas (a separate chunk in a bundle).
 * @module
 * @internal
 */
import type { $ZodType } from 'zod/v4/core';
import * as schemas from '../../generated/zod.gen';
import type { OperationId } from '../operation-table';
import type { FieldError } from './errors/base';
import { formatPath, issuesOf } from './zod-issues';

export type { OperationId };

// The generator names every operation's schemas after its operationId. Written as types, so an operation whose
// schema is missing or renamed fails to compile instead of going unvalidated.
type RequestSchemaName = `z${Capitalize<OperationId>}Data`;
type ResponseSchemaName = `z${Capitalize<OperationId>}Response`;

const capitalize = <S extends string>(text: S) => (text.charAt(0).toUpperCase() + text.slice(1)) as Capitalize<S>;

// Each operation's schemas, looked up by name once.
const requestSchemas = new Map<OperationId, $ZodType>();
const responseSchemas = new Map<OperationId, $ZodType>();

/**
 * The bad arguments of a call, as paths of the request (`body.email`, `path.userId`), or undefined when valid.
 * @public (read by the request engine through its lazy import)
 */
export function requestErrors(operation: OperationId, data: unknown): FieldError[] | undefined {
  let schema = requestSchemas.get(operation);
  if (!schema) {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the schema is found by the operation's name once, then cached; this module is its own lazily loaded chunk.
    schema = schemas[`z${capitalize(operation)}Data` as RequestSchemaName];
    requestSchemas.set(operation, schema);
  }
  // The request schema covers { body, path, query, headers }; paths read like the server's (body.items.0).
  return issuesOf(schema, data)?.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Where a response body departs from the spec (`items[0].status`), or undefined when it conforms. */
export function responseErrors(operation: OperationId, data: unknown): FieldError[] | undefined {
  let schema = responseSchemas.get(operation);
  if (!schema) {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: as above, found by name once and cached.
    schema = schemas[`z${capitalize(operation)}Response` as ResponseSchemaName];
    responseSchemas.set(operation, schema);
  }
  return issuesOf(schema, data)?.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** At most this many operation+path pairs are remembered as reported in `'warn'` mode. */
const MAX_WARNED = 1000;

/**
 * The differences of a response not yet reported for this operation and path (`validateResponses: 'warn'`), array
 * indices as `[]` (`items[].status`), each with its log line; `warned` remembers what was reported.
 * @public (read by the request engine through its lazy import)
 */
export function newDifferences(
  operation: string,
  errors: readonly FieldError[],
  warned: Set<string>,
): { path: string; message: string; line: string }[] {
  const out: { path: string; message: string; line: string }[] = [];
  for (const error of errors) {
    const path = error.path.replace(/\[\d+\]/g, '[]');
    const key = `${operation} ${path}`;
    if (warned.has(key) || warned.size >= MAX_WARNED) continue;
    warned.add(key);
    const line = `card-issuing-sdk: the response of ${operation} departs from the spec at ${path || '(body)'}: ${error.message}. Returned as sent (validateResponses: 'warn').`;
    out.push({ path, message: error.message, line });
  }
  return out;
}
