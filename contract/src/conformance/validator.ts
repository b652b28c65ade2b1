/**
 * An independent conformance checker: it reads `spec/openapi.yaml` as raw YAML and validates HTTP exchanges against
 * it with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1). It shares nothing with our generated code (no zod
 * schema, no generated type, no path table of ours), so a mistake in the generator or in the SDK cannot hide itself.
 *
 * Schemas are never copied out of the document: the whole document is registered with Ajv under one `$id`, and every
 * validator is compiled from a `$ref` to a JSON pointer inside it, so the document's own `#/components/...` references
 * resolve exactly as they are written.
 *
 * Why Ajv and this small matcher rather than a ready-made OpenAPI proxy such as Prism: the demo and the in-process
 * tests never touch the network (msw intercepts fetch), so a validator that sits on a port would see nothing of
 * them; and the checks the contract needs beyond schemas (content type per status, `X-Request-Id`, a problem's
 * `status` equal to the HTTP status, coverage of the 32 operations) are ours to state. Ajv is the JSON Schema
 * 2020-12 validator most OpenAPI tooling is built on; ajv-formats adds `uuid`, `date-time`, `email` and `uri`.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkExchange } from './check-exchange';
import { compileSchemas } from './schemas';
import { isObject, type Json, matchOperation, readOperations } from './spec-document';
import type { ConformanceChecker, ConformanceCheckerOptions, Coverage, Exchange, Finding } from './types';

export type { ConformanceChecker, ConformanceCheckerOptions, Exchange, Finding } from './types';

/**
 * Creates a checker for the OpenAPI document at `specPath`. Throws when the document cannot be read or one of its
 * schemas does not compile (a broken spec is not a conformance finding).
 */
export function createConformanceChecker(options: ConformanceCheckerOptions): ConformanceChecker {
  const doc = parse(readFileSync(options.specPath, 'utf8')) as Json;
  if (!isObject(doc)) throw new Error(`${options.specPath} is not an OpenAPI document`);
  const operations = readOperations(doc);
  const basePath = (options.basePath ?? '').replace(/\/$/, '');
  const setting = {
    ...compileSchemas(doc, operations),
    operations,
    basePath,
    strictRequests: options.strictRequests === true,
  };

  const all: Finding[] = [];
  const touched = new Set<string>();
  let count = 0;
  function check(exchange: Exchange): Finding[] {
    const result = checkExchange(setting, exchange);
    if (!result) return [];
    count++;
    if (result.operationId !== null) touched.add(result.operationId);
    all.push(...result.findings);
    return result.findings;
  }

  function coverage(): Coverage {
    const ids = operations.map((op) => op.operationId);
    return {
      operations: ids.filter((id) => touched.has(id)).sort(),
      missing: ids.filter((id) => !touched.has(id)).sort(),
      covered: touched.size,
      total: ids.length,
    };
  }

  function report(): string {
    const c = coverage();
    const lines = [
      `Conformance against the spec: ${count} exchange(s) checked, ${all.length} finding(s); ${c.covered} of ${c.total} operations covered.`,
    ];
    if (c.missing.length > 0) lines.push(`Not covered: ${c.missing.join(', ')}`);
    for (const f of all) {
      lines.push(`- ${f.operationId ?? '(no operation)'} ${f.method} ${f.path} [${f.url}] ${f.location}: ${f.message}`);
    }
    return lines.join('\n');
  }

  function operationOf(method: string, url: string): string | null {
    let path = new URL(url, 'http://conformance.invalid').pathname;
    if (basePath && path.startsWith(basePath)) path = path.slice(basePath.length) || '/';
    return matchOperation(operations, method.toUpperCase(), path.split('/').slice(1)).operation?.operationId ?? null;
  }

  return { check, findings: () => [...all], checked: () => count, coverage, report, operationOf };
}
