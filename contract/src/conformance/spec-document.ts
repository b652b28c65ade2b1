/**
 * The raw OpenAPI document as the checker reads it: JSON pointers into it, `$ref` following, the operations with
 * their parameters, bodies and responses, and the matching of a method and path to one operation.
 */
import { escapeToken, valueAt } from '../json-pointer';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** The `$id` under which the whole document is registered with Ajv. */
export const SPEC_ID = 'urn:card-issuing-sdk:openapi';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

interface ParameterDef {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer of the parameter's schema inside the document. */
  schemaPointer: string | null;
}

interface ResponseDef {
  /** JSON pointer of the (resolved) response object. */
  pointer: string;
  content: Record<string, { schemaPointer: string | null }>;
  headers: Record<string, { required: boolean; schemaPointer: string | null }>;
}

export interface OperationDef {
  operationId: string;
  method: string;
  template: string;
  /** Template split in segments; `null` marks a parameter segment. */
  segments: (string | null)[];
  paramNames: (string | null)[];
  parameters: ParameterDef[];
  requestBody: { required: boolean; content: Record<string, { schemaPointer: string | null }> } | null;
  responses: Map<string, ResponseDef>;
  secured: boolean;
}

export const pointerOf = (...tokens: string[]): string => tokens.map((t) => `/${escapeToken(t)}`).join('');
/** A `$ref` to a pointer inside the document, its tokens percent-encoded as a URI fragment must be. */
export const refTo = (pointer: string): string =>
  `${SPEC_ID}#${pointer
    .split('/')
    .map((t) => encodeURIComponent(t))
    .join('/')}`;

export const resolvePointer = (doc: Json, pointer: string): Json | undefined =>
  valueAt(doc, pointer) as Json | undefined;

/** Follows a `$ref` object (`{ $ref: '#/components/...' }`) to its target; returns the target and its pointer. */
function deref(doc: Json, node: Json | undefined, pointer: string): { node: JsonObject; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; hops < 10 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only internal references are supported, got ${ref} at ${at}`);
    at = decodeURIComponent(ref.slice(1));
    current = resolvePointer(doc, at);
  }
  if (!isObject(current)) throw new Error(`Nothing at ${at}`);
  return { node: current, pointer: at };
}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readOperations(doc: JsonObject): OperationDef[] {
  const paths = doc.paths;
  if (!isObject(paths)) throw new Error('The document has no paths');
  const rootSecured = Array.isArray(doc.security) && doc.security.length > 0;
  const operations: OperationDef[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) operations.push(readOperation(doc, { template, item, method, op, rootSecured }));
    }
  }
  return operations;
}

/** One operation of a path item, its references resolved. */
function readOperation(
  doc: JsonObject,
  at: { template: string; item: JsonObject; method: string; op: JsonObject; rootSecured: boolean },
): OperationDef {
  const { template, item, method, op } = at;
  const opPointer = pointerOf('paths', template, method);
  const segments = template.split('/').slice(1);
  let requestBody: OperationDef['requestBody'] = null;
  if (op.requestBody !== undefined) {
    const { node, pointer } = deref(doc, op.requestBody, `${opPointer}/requestBody`);
    requestBody = { required: node.required === true, content: readContent(node, pointer) };
  }
  return {
    operationId: String(op.operationId),
    method: method.toUpperCase(),
    template,
    segments: segments.map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)),
    paramNames: segments.map((s) => /^\{([^}]+)\}$/.exec(s)?.[1] ?? null),
    parameters: readParameters(doc, item, op, template, opPointer),
    requestBody,
    responses: readResponses(doc, op, opPointer),
    secured: Array.isArray(op.security) ? op.security.length > 0 : at.rootSecured,
  };
}

/** Path-level parameters first, overridden by operation-level ones with the same name and location. */
function readParameters(
  doc: JsonObject,
  item: JsonObject,
  op: JsonObject,
  template: string,
  opPointer: string,
): ParameterDef[] {
  const byKey = new Map<string, ParameterDef>();
  for (const [list, listPointer] of [
    [item.parameters, pointerOf('paths', template, 'parameters')],
    [op.parameters, `${opPointer}/parameters`],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      const { node, pointer } = deref(doc, entry, `${listPointer}/${i}`);
      const def: ParameterDef = {
        name: String(node.name),
        in: node.in as ParameterDef['in'],
        required: node.required === true,
        schemaPointer: node.schema === undefined ? null : `${pointer}/schema`,
      };
      byKey.set(`${def.in}:${def.in === 'header' ? def.name.toLowerCase() : def.name}`, def);
    });
  }
  return [...byKey.values()];
}

/** The operation's responses by status (upper case, so `2XX` ranges match), with their content and headers. */
function readResponses(doc: JsonObject, op: JsonObject, opPointer: string): Map<string, ResponseDef> {
  const responses = new Map<string, ResponseDef>();
  if (!isObject(op.responses)) return responses;
  for (const [status, response] of Object.entries(op.responses)) {
    const { node, pointer } = deref(doc, response, `${opPointer}/responses/${escapeToken(status)}`);
    const headers: ResponseDef['headers'] = {};
    if (isObject(node.headers)) {
      for (const [name, header] of Object.entries(node.headers)) {
        const h = deref(doc, header, `${pointer}/headers/${escapeToken(name)}`);
        headers[name.toLowerCase()] = {
          required: h.node.required === true,
          schemaPointer: h.node.schema === undefined ? null : `${h.pointer}/schema`,
        };
      }
    }
    responses.set(status.toUpperCase(), { pointer, content: readContent(node, pointer), headers });
  }
  return responses;
}

function readContent(node: JsonObject, pointer: string): Record<string, { schemaPointer: string | null }> {
  const content: Record<string, { schemaPointer: string | null }> = {};
  if (!isObject(node.content)) return content;
  for (const [mediaType, media] of Object.entries(node.content)) {
    content[mediaType.toLowerCase()] = {
      schemaPointer:
        isObject(media) && media.schema !== undefined ? `${pointer}/content/${escapeToken(mediaType)}/schema` : null,
    };
  }
  return content;
}

/**
 * Picks the operation for a method and path. Among the templates that match, literal segments win over parameter
 * segments, compared from the left (so `/corporates/corporates/{corporateUuid}/approvals` beats
 * `/corporates/{corporateUuid}/...`, and `/s2s/deposits/{balanceId}/types` beats `/s2s/deposits/{balanceId}/{type}`).
 */
export function matchOperation(
  operations: OperationDef[],
  method: string,
  segments: string[],
): { operation: OperationDef | null; pathMatched: boolean } {
  const candidates = operations.filter(
    (op) => op.segments.length === segments.length && op.segments.every((s, i) => s === null || s === segments[i]),
  );
  const moreSpecific = (a: OperationDef, b: OperationDef): number => {
    for (let i = 0; i < a.segments.length; i++) {
      const al = a.segments[i] !== null;
      const bl = b.segments[i] !== null;
      if (al !== bl) return al ? -1 : 1;
    }
    return 0;
  };
  const withMethod = candidates.filter((op) => op.method === method).sort(moreSpecific);
  return { operation: withMethod[0] ?? null, pathMatched: candidates.length > 0 };
}
