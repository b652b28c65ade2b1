import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Absolute path of a file in the repository. */
export const repoPath = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

// Parsing the spec's YAML takes 100-400 ms, and the SDK tests' handlers look up an example on every request: it is
// parsed once per version of the file (its mtime, for vitest's watch mode), and each caller gets its own copy to edit.
let parsed: { mtimeMs: number; spec: OpenApiDocument } | undefined;

/** The OpenAPI document, parsed (the raw document, not our generated code): a copy of its own for each caller. */
export function loadSpec(): OpenApiDocument {
  const path = repoPath('spec/openapi.yaml');
  const { mtimeMs } = statSync(path);
  if (parsed?.mtimeMs !== mtimeMs) parsed = { mtimeMs, spec: parse(readFileSync(path, 'utf8')) as OpenApiDocument };
  return structuredClone(parsed.spec);
}

/** The HTTP methods an OpenAPI path item can hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the spec as `{ method, path, operationId, operation }`. */
export function specOperations(spec: OpenApiDocument = loadSpec()): SpecOperation[] {
  const result: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) result.push({ method: method.toUpperCase(), path, operationId: operation.operationId, operation });
    }
  }
  return result;
}

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  operation: OpenApiOperation;
}

/** Just enough of the OpenAPI 3.1 shape for the tests that read the raw document. */
export interface OpenApiDocument {
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], OpenApiOperation>> & { parameters?: unknown[] }>;
  components: {
    schemas: Record<string, { examples?: unknown[] } & Record<string, unknown>>;
    parameters: Record<string, { name: string; in: string }>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  security?: Record<string, unknown>[];
}

export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, unknown>[];
  parameters?: ({ $ref: string } | { name: string; in: string })[];
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; examples?: unknown }> }>;
}

/** The spec's own success example for a request, with its status (so response validation runs on real examples). */
export function specExample(
  method: string,
  pathname: string,
): { operationId: string; status: number; example: unknown } {
  const spec = loadSpec();
  const op = specOperations(spec).find(
    (o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
  if (!op) throw new Error(`No operation for ${method} ${pathname}`);
  const [status, response] = Object.entries(op.operation.responses).find(([s]) => s.startsWith('2'))!;
  let example = response.content!['application/json']!.example as unknown;
  // Examples are $refs into schema examples: `#/components/schemas/X/examples/N`.
  const ref = (example as { $ref?: string }).$ref;
  if (ref) {
    const [, , , name, , index] = ref.split('/');
    example = spec.components.schemas[name!]!.examples![Number(index)];
  }
  return { operationId: op.operationId, status: Number(status), example };
}
