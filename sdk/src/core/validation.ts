/**
 * Request and response validation of the client, with the generated zod schemas of each operation: the request
 * schema `z<Operation>Data` (path, query, headers and body) and the response schema `z<Operation>Response`. The
 * engine loads this module with `import()` on the first validated call, and each operation's checks with `import()`
 * on that operation's first call (`sdk/generated/zod/checks.gen.ts`): a client with validation off never loads zod,
 * and a page that makes one call loads that operation's checks and no others.
 *
 * Whether a value passes is answered by a check: in a browser, the code zod's compiler wrote for the schema when it
 * was generated (`scripts/compile-zod.mjs`), so a page whose calls pass never loads zod; on servers, zod's
 * `compile`/`validate` of the schemas. A value a check refuses is parsed by zod's runtime (its schemas loaded then),
 * which alone says what is wrong, with zod's messages, and whether anything is.
 * @module
 * @internal
 */
import type { $ZodType } from 'zod/v4/core';
import { operationChecks } from '../../generated/zod/checks.gen';
import { loadOnce } from '../load-once';
import type { OperationId } from '../operation-table';
import type { FieldError } from './errors/base';

export type { OperationId };

/** A check of a value against a schema: true when it passes. */
type Check = (value: unknown) => boolean;

interface Checks {
  isRequest: Check;
  isResponse: Check;
  /** The operation's zod schemas, loaded once (on servers with the checks; in a browser on the first refusal). */
  schemas: () => Promise<{ request: $ZodType; response: $ZodType }>;
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

/** The reader of zod's issues (zod's runtime): loaded on the first refusal, or for a schema with no compiled check. */
const zodIssues = loadOnce(() => import('./zod-issues'));

/**
 * An operation's checks. On servers, zod's compiled check of each schema (a schema the compiler cannot model keeps
 * zod's runtime check: `compile` gives it back). Elsewhere, and on a server whose compiler cannot load (a bundle
 * without zod beside it), the generated check of each schema, or zod's runtime check where there is none.
 */
async function checksOf(module: Awaited<ReturnType<(typeof operationChecks)[OperationId]>>): Promise<Checks> {
  const schemas = loadOnce(async () => {
    const { request, response } = await module.schemas();
    return { request: request as $ZodType, response: response as $ZodType };
  });
  const zod = await compiler?.().catch(() => undefined);
  if (typeof zod?.compile === 'function') {
    const { request, response } = await schemas();
    const check = (schema: $ZodType): Check => {
      const compiled = zod.compile(schema);
      return (value) => zod.validate(compiled, value);
    };
    return { isRequest: check(request), isResponse: check(response), schemas };
  }
  const runtime = async (which: 'request' | 'response'): Promise<Check> => {
    const [{ isValid }, all] = await Promise.all([zodIssues(), schemas()]);
    return (value) => isValid(all[which], value);
  };
  return {
    isRequest: (module.request as Check | undefined) ?? (await runtime('request')),
    isResponse: (module.response as Check | undefined) ?? (await runtime('response')),
    schemas,
  };
}

// Each operation's checks once loaded, read without an await; and their loaders (a failed load is tried again).
const loaded = new Map<OperationId, Checks>();
const loaders = new Map<OperationId, () => Promise<Checks>>();

/** The checks of an operation: at once when loaded, else loaded once. */
function checksFor(operation: OperationId): Checks | Promise<Checks> {
  const ready = loaded.get(operation);
  if (ready) return ready;
  let load = loaders.get(operation);
  if (!load) {
    load = loadOnce(async () => {
      const checks = await checksOf(await operationChecks[operation]());
      loaded.set(operation, checks);
      return checks;
    });
    loaders.set(operation, load);
  }
  return load();
}

/**
 * True when the operation's checks are loaded and the call's arguments pass them: the check of every valid call
 * after an operation's first, with no promise and no await (false: ask {@link requestErrors}).
 * @public (read by the request engine through its lazy import)
 */
export function isValidRequest(operation: OperationId, data: unknown): boolean {
  return loaded.get(operation)?.isRequest(data) === true;
}

/** True when the operation's checks are loaded and the body passes its response schema (false: ask {@link responseErrors}). */
export function isValidResponse(operation: OperationId, data: unknown): boolean {
  return loaded.get(operation)?.isResponse(data) === true;
}

/**
 * The bad arguments of a call, as paths of the request (`body.email`, `path.userId`), or undefined when valid.
 * @public (read by the request engine through its lazy import)
 */
export async function requestErrors(operation: OperationId, data: unknown): Promise<FieldError[] | undefined> {
  const checks = await checksFor(operation);
  if (checks.isRequest(data)) return undefined;
  const [{ issuesOf }, { request }] = await Promise.all([zodIssues(), checks.schemas()]);
  // The request schema covers { body, path, query, headers }; paths read like the server's (body.items.0).
  return (await issuesOf(request, data))?.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Where a response body departs from the spec (`items[0].status`), or undefined when it conforms. */
export async function responseErrors(operation: OperationId, data: unknown): Promise<FieldError[] | undefined> {
  const checks = await checksFor(operation);
  if (checks.isResponse(data)) return undefined;
  const [{ issuesOf, formatPath }, { response }] = await Promise.all([zodIssues(), checks.schemas()]);
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
