/**
 * Request and response validation of the client, with the generated zod schemas of each operation: the request
 * schema `z<Operation>Data` (path, query, headers and body) and the response schema `z<Operation>Response`. The
 * engine loads this module with `import()` on the first validated call, and each operation's schemas with
 * `import()` on that operation's first call (`sdk/generated/zod/operations.gen.ts`): a client with validation off
 * never loads zod, and a page that makes one call loads that operation's schemas and no others.
 * @module
 * @internal
 */
import { safeParse, type $ZodType } from 'zod/v4/core';
import { operationSchemas } from '../../generated/zod/operations.gen';
import { loadOnce } from '../load-once';
import type { OperationId } from '../operation-table';
import type { FieldError } from './errors/base';
import { formatPath, issuesOf } from './zod-issues';

export type { OperationId };

interface Schemas {
  request: $ZodType;
  response: $ZodType;
  /** Whether a value passes each schema: compiled on servers (`./zod-compile`), else zod's runtime parse. */
  isRequest: (value: unknown) => boolean;
  isResponse: (value: unknown) => boolean;
}

/**
 * zod's compiler (`compile` and `validate`, zod 4.6+): a check generated once per schema that answers valid or not
 * without the parsed copy a parse builds (a user: a seventh of a parse's time, and no garbage). Servers only (Node,
 * Bun, Deno: `process.versions.node`), through a specifier no bundler follows: bundlers split by file, and the
 * compiler, reached through `zod/v4/core` by every schema, would otherwise be loaded by every page that validates
 * (esbuild: 10 KiB gzip more); and a page never runs `new Function`, which its Content-Security-Policy may forbid.
 */
const ZOD_CORE = 'zod/v4/core';
type Compiler = Pick<typeof import('zod/v4/core'), 'compile' | 'validate'>;
const compiler = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node
  ? loadOnce((): Promise<Compiler> => import(/* webpackIgnore: true */ /* @vite-ignore */ ZOD_CORE))
  : undefined;

/** zod's runtime check of `schema`, where nothing is compiled. */
const runtimeCheck = (schema: $ZodType) => (value: unknown) => safeParse(schema, value).success;

/**
 * An operation's schemas with their checks. A schema the compiler cannot model keeps zod's runtime check (`compile`
 * gives it back), and a compiler that cannot load (a bundle without zod beside it) leaves the runtime check: never a
 * failed call. A value a check refuses is parsed again by zod's runtime before anything is reported.
 */
async function withChecks({ request, response }: { request: $ZodType; response: $ZodType }): Promise<Schemas> {
  const zod = await compiler?.().catch(() => undefined);
  const check =
    typeof zod?.compile === 'function'
      ? (schema: $ZodType) => {
          const compiled = zod.compile(schema);
          return (value: unknown) => zod.validate(compiled, value);
        }
      : runtimeCheck;
  return { request, response, isRequest: check(request), isResponse: check(response) };
}

// Each operation's schemas once loaded, read without an await; and their loaders (a failed load is tried again).
const loaded = new Map<OperationId, Schemas>();
const loaders = new Map<OperationId, () => Promise<Schemas>>();

/** The schemas of an operation: at once when loaded, else loaded once. */
function schemasOf(operation: OperationId): Schemas | Promise<Schemas> {
  const ready = loaded.get(operation);
  if (ready) return ready;
  let load = loaders.get(operation);
  if (!load) {
    load = loadOnce(async () => {
      const schemas = await withChecks(await operationSchemas[operation]());
      loaded.set(operation, schemas);
      return schemas;
    });
    loaders.set(operation, load);
  }
  return load();
}

/**
 * True when the operation's schemas are loaded and the call's arguments pass them: the check of every valid call
 * after an operation's first, with no promise and no await (false: ask {@link requestErrors}).
 * @public (read by the request engine through its lazy import)
 */
export function isValidRequest(operation: OperationId, data: unknown): boolean {
  return loaded.get(operation)?.isRequest(data) === true;
}

/** True when the operation's schemas are loaded and the body passes its response schema (false: ask {@link responseErrors}). */
export function isValidResponse(operation: OperationId, data: unknown): boolean {
  return loaded.get(operation)?.isResponse(data) === true;
}

/**
 * The bad arguments of a call, as paths of the request (`body.email`, `path.userId`), or undefined when valid.
 * @public (read by the request engine through its lazy import)
 */
export async function requestErrors(operation: OperationId, data: unknown): Promise<FieldError[] | undefined> {
  const { request } = await schemasOf(operation);
  // The request schema covers { body, path, query, headers }; paths read like the server's (body.items.0).
  return (await issuesOf(request, data))?.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Where a response body departs from the spec (`items[0].status`), or undefined when it conforms. */
export async function responseErrors(operation: OperationId, data: unknown): Promise<FieldError[] | undefined> {
  const { response } = await schemasOf(operation);
  return (await issuesOf(response, data))?.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
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
