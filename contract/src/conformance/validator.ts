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
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { escapeToken, valueAt } from '../json-pointer';

// ajv-formats is CommonJS; under Node's ESM loader its default export may arrive wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/** One HTTP exchange as it crossed the wire (or the MSW boundary). */
export interface Exchange {
  /** HTTP method, any case. */
  method: string;
  /** Absolute URL, or a path with its query (`/s2s/balances?userId=...`). */
  url: string;
  requestHeaders?: HeadersLike;
  /** The raw request body text, or an already parsed JSON value; `undefined`, `null` or `''` for none. */
  requestBody?: unknown;
  status: number;
  responseHeaders?: HeadersLike;
  /** The raw response body text, or an already parsed JSON value; `undefined`, `null` or `''` for none. */
  responseBody?: unknown;
}

/** Headers as a `Headers` object, a plain record or a list of pairs. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined> | [string, string][];

/** One way in which an exchange departs from the spec. */
export interface Finding {
  /** The operation the exchange was matched to; `null` when it matched none. */
  operationId: string | null;
  /** HTTP method, upper case. */
  method: string;
  /** The spec's path template, or the request's path when no operation matched. */
  path: string;
  /** The request's path and query as sent. */
  url: string;
  /** Where the problem is: `request.path.userId`, `request.query.userId`, `request.body/email`,
   *  `response.status`, `response.headers.content-type`, `response.body/items/0/status`, ... */
  location: string;
  /** What the spec says, in words. */
  message: string;
  /** What the server (or client) sent at `location`, when it is a value: the status, the field's value, ... */
  actual?: unknown;
  /** The Ajv keyword that failed (`required`, `additionalProperties`, `type`, `format`, `enum`, ...), if any. */
  keyword?: string;
  /** The JSON pointer, inside the spec, of the schema that failed (for proposals such as an overlay). */
  schemaPointer?: string;
}

/** Which operations of the spec the checked exchanges touched. */
export interface Coverage {
  /** The operationIds touched by at least one checked exchange, sorted. */
  operations: string[];
  /** The operationIds of the spec that no checked exchange touched, sorted. */
  missing: string[];
  covered: number;
  /** The number of operations in the spec (32 today). */
  total: number;
}

/** Options of {@link createConformanceChecker}. */
export interface ConformanceCheckerOptions {
  /** Path of the OpenAPI document (YAML or JSON). */
  specPath: string;
  /** A path prefix before the spec's paths on the server under test (e.g. `/api` for `https://host/api/s2s/...`). */
  basePath?: string;
  /**
   * When a request breaks the spec, the server is right to refuse it; a finding is raised only when it answered with
   * anything other than a refusal the spec allows for such a request (400, or 401/429/5xx which come before
   * validation). `strictRequests: true` reports every non-conforming request whatever the answer (for a client's
   * own traffic, as in the demo, where every request should conform).
   */
  strictRequests?: boolean;
}

/** The checker returned by {@link createConformanceChecker}. */
export interface ConformanceChecker {
  /** Checks one exchange; returns its findings and keeps them (see {@link ConformanceChecker.findings}). */
  check(exchange: Exchange): Finding[];
  /** Every finding of every exchange checked so far. */
  findings(): Finding[];
  /** How many exchanges were checked (control routes and foreign paths are skipped, not counted). */
  checked(): number;
  coverage(): Coverage;
  /** A human-readable summary: coverage, then one line per finding. */
  report(): string;
  /** The operationId a method and path (with or without query) match, or null. */
  operationOf(method: string, url: string): string | null;
}

// ------------------------------------------------------------------------------------------------ the raw document

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** The `$id` under which the whole document is registered with Ajv. */
const SPEC_ID = 'urn:card-issuing-sdk:openapi';
/** The spec's three areas; anything else but `/__mock/` is not the API's business. */
const API_PREFIXES = ['/s2s', '/app', '/corporates'];
/** The mock's control routes (contract section 7) are outside the spec. */
const CONTROL_PREFIX = '/__mock/';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

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

interface OperationDef {
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

const pointerOf = (...tokens: string[]): string => tokens.map((t) => `/${escapeToken(t)}`).join('');
/** A `$ref` to a pointer inside the document, its tokens percent-encoded as a URI fragment must be. */
const refTo = (pointer: string): string =>
  `${SPEC_ID}#${pointer
    .split('/')
    .map((t) => encodeURIComponent(t))
    .join('/')}`;

const resolvePointer = (doc: Json, pointer: string): Json | undefined => valueAt(doc, pointer) as Json | undefined;

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

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function readOperations(doc: JsonObject): OperationDef[] {
  const paths = doc.paths;
  if (!isObject(paths)) throw new Error('The document has no paths');
  const rootSecured = Array.isArray(doc.security) && doc.security.length > 0;
  const operations: OperationDef[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const segments = template.split('/').slice(1);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const opPointer = pointerOf('paths', template, method);
      // Path-level parameters first, overridden by operation-level ones with the same name and location.
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
      let requestBody: OperationDef['requestBody'] = null;
      if (op.requestBody !== undefined) {
        const { node, pointer } = deref(doc, op.requestBody, `${opPointer}/requestBody`);
        requestBody = { required: node.required === true, content: readContent(node, pointer) };
      }
      const responses = new Map<string, ResponseDef>();
      if (isObject(op.responses)) {
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
      }
      operations.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        template,
        segments: segments.map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)),
        paramNames: segments.map((s) => /^\{([^}]+)\}$/.exec(s)?.[1] ?? null),
        parameters: [...byKey.values()],
        requestBody,
        responses,
        secured: Array.isArray(op.security) ? op.security.length > 0 : rootSecured,
      });
    }
  }
  return operations;
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
function matchOperation(
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

// ------------------------------------------------------------------------------------------------ the checker

function headerGetter(headers: HeadersLike | undefined): (name: string) => string | null {
  if (!headers) return () => null;
  if (headers instanceof Headers) return (name) => headers.get(name);
  const map = new Map<string, string>();
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    map.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  return (name) => map.get(name.toLowerCase()) ?? null;
}

const mediaTypeOf = (contentType: string | null): string | null =>
  contentType ? (contentType.split(';')[0] ?? '').trim().toLowerCase() : null;

const isEmptyBody = (body: unknown): boolean => body === undefined || body === null || body === '';

/** Parses a raw body as JSON; a value that is not a string was parsed already. */
function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof body !== 'string') {
    if (body instanceof Uint8Array || body instanceof ArrayBuffer) return parseBody(new TextDecoder().decode(body));
    return { ok: true, value: body };
  }
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    return { ok: false, error: `is not JSON (${(error as Error).message})` };
  }
}

/** One Ajv error as `location` and `message`, with the detail Ajv keeps in `params`. */
function describeError(prefix: string, error: ErrorObject): { location: string; message: string } {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? error.keyword;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    // A long closed set (the problem codes) is named by its size and first values, not listed in full.
    const values = params.allowedValues as unknown[];
    message +=
      values.length > 12 ? ` (${values.length} values: ${values.slice(0, 5).join(', ')}, …)` : `: ${values.join(', ')}`;
  }
  if (error.keyword === 'additionalProperties') message += `: '${String(params.additionalProperty)}'`;
  if (error.keyword === 'const') message += `: ${JSON.stringify(params.allowedValue)}`;
  return { location: `${prefix}${error.instancePath}`, message };
}

/**
 * Creates a checker for the OpenAPI document at `specPath`. Throws when the document cannot be read or one of its
 * schemas does not compile (a broken spec is not a conformance finding).
 */
export function createConformanceChecker(options: ConformanceCheckerOptions): ConformanceChecker {
  const doc = parse(readFileSync(options.specPath, 'utf8')) as Json;
  if (!isObject(doc)) throw new Error(`${options.specPath} is not an OpenAPI document`);
  const operations = readOperations(doc);
  const basePath = (options.basePath ?? '').replace(/\/$/, '');

  // OpenAPI 3.1 schemas are JSON Schema 2020-12 plus a few OpenAPI keywords (discriminator, xml, externalDocs);
  // strict: false lets those through as annotations. oneOf still decides Card against Draft on its own.
  // verbose: each error carries the schema object that failed, so a finding can name it by pointer (for an overlay).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, SPEC_ID, undefined, false);
  // Parameters travel as strings: a second instance coerces them to the schema's type before validating.
  const paramAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true, logger: false });
  addFormats(paramAjv);
  paramAjv.addSchema(doc as object, SPEC_ID, undefined, false);

  // The pointer of every schema object of the document, by identity, made on the first finding that needs one.
  let pointers: Map<object, string> | undefined;
  const pointerOfSchema = (schema: unknown): string | undefined => {
    if (!pointers) {
      pointers = new Map();
      const walk = (node: Json, at: string): void => {
        if (node === null || typeof node !== 'object') return;
        if (!pointers!.has(node)) pointers!.set(node, at);
        if (Array.isArray(node)) for (const [i, child] of node.entries()) walk(child, `${at}/${i}`);
        else for (const [key, child] of Object.entries(node)) walk(child, `${at}/${escapeToken(key)}`);
      };
      walk(doc, '');
    }
    return typeof schema === 'object' && schema !== null ? pointers.get(schema) : undefined;
  };

  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (pointer: string, forParams = false): ValidateFunction => {
    const key = `${forParams ? 'p' : 's'}${pointer}`;
    let fn = compiled.get(key);
    if (!fn) {
      const instance = forParams ? paramAjv : ajv;
      fn = forParams
        ? instance.compile({ type: 'object', properties: { value: { $ref: refTo(pointer) } } })
        : instance.compile({ $ref: refTo(pointer) });
      compiled.set(key, fn);
    }
    return fn;
  };
  // Compile everything up front so that a schema the spec gets wrong fails at once, not in the middle of a run.
  for (const op of operations) {
    for (const p of op.parameters) if (p.schemaPointer) validatorFor(p.schemaPointer, true);
    for (const media of Object.values(op.requestBody?.content ?? {}))
      if (media.schemaPointer) validatorFor(media.schemaPointer);
    for (const response of op.responses.values()) {
      for (const media of Object.values(response.content)) if (media.schemaPointer) validatorFor(media.schemaPointer);
      for (const header of Object.values(response.headers))
        if (header.schemaPointer) validatorFor(header.schemaPointer, true);
    }
  }

  const all: Finding[] = [];
  const touched = new Set<string>();
  let count = 0;

  function check(exchange: Exchange): Finding[] {
    const method = exchange.method.toUpperCase();
    const url = new URL(exchange.url, 'http://conformance.invalid');
    let path = url.pathname;
    if (basePath && path.startsWith(basePath)) path = path.slice(basePath.length) || '/';
    const sent = `${path}${url.search}`;
    if (path.startsWith(CONTROL_PREFIX) || !API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return [];
    count++;

    const findings: Finding[] = [];
    const requestFindings: Finding[] = [];
    const reqHeader = headerGetter(exchange.requestHeaders);
    const resHeader = headerGetter(exchange.responseHeaders);
    const segments = path.split('/').slice(1);
    const { operation } = matchOperation(operations, method, segments);

    if (!operation) {
      // The spec has no such operation: the only right answer is the spec's 404 problem (`ROUTE_NOT_FOUND`).
      const base = { operationId: null, method, path, url: sent };
      const problem = parseBody(exchange.responseBody);
      const isProblem404 =
        exchange.status === 404 &&
        mediaTypeOf(resHeader('content-type')) === 'application/problem+json' &&
        problem.ok &&
        validatorFor('/components/schemas/Problem')(problem.value);
      if (!isProblem404) {
        findings.push({
          ...base,
          location: 'request',
          message: `${method} ${path} is not an operation of the spec, yet the answer was ${exchange.status} ${
            resHeader('content-type') ?? '(no content type)'
          } instead of a 404 application/problem+json problem`,
        });
      }
      all.push(...findings);
      return findings;
    }

    touched.add(operation.operationId);
    const base = { operationId: operation.operationId, method, path: operation.template, url: sent };
    const add = (list: Finding[], location: string, message: string, extra: Partial<Finding> = {}) =>
      list.push({ ...base, location, message, ...extra });
    const addErrors = (list: Finding[], prefix: string, errors: ErrorObject[] | null | undefined, root?: unknown) => {
      const seen = new Set<string>();
      for (const error of errors ?? []) {
        const { location, message } = describeError(prefix, error);
        if (seen.has(location + message)) continue;
        seen.add(location + message);
        const schemaPointer = pointerOfSchema(error.parentSchema);
        const extra: Partial<Finding> = {
          keyword: error.keyword,
          ...(schemaPointer === undefined ? {} : { schemaPointer }),
        };
        if (root !== undefined) {
          const at = resolvePointer(root as Json, error.instancePath);
          // additionalProperties names the field; the value shown is the field's own.
          extra.actual =
            error.keyword === 'additionalProperties' && isObject(at as Json)
              ? (at as JsonObject)[String((error.params as { additionalProperty?: string }).additionalProperty)]
              : at;
        }
        add(list, location, message, extra);
      }
    };

    // ---- request: path, query and header parameters
    const pathValues = new Map<string, string>();
    operation.paramNames.forEach((name, i) => {
      if (name !== null) pathValues.set(name, segments[i] ?? '');
    });
    for (const param of operation.parameters) {
      let raw: string | null;
      if (param.in === 'path') {
        const value = pathValues.get(param.name);
        try {
          raw = value === undefined ? null : decodeURIComponent(value);
        } catch {
          add(requestFindings, `request.path.${param.name}`, `is not valid percent-encoding: ${value}`);
          continue;
        }
      } else if (param.in === 'query') raw = url.searchParams.get(param.name);
      else if (param.in === 'header') raw = reqHeader(param.name);
      else continue;
      const location = `request.${param.in}.${param.name}`;
      if (raw === null) {
        if (param.required) add(requestFindings, location, `is required`);
        continue;
      }
      if (!param.schemaPointer) continue;
      const validate = validatorFor(param.schemaPointer, true);
      if (!validate({ value: raw })) {
        for (const error of validate.errors ?? []) {
          const { message } = describeError('', error);
          add(requestFindings, location, `${message} (got ${JSON.stringify(raw)})`);
        }
      }
    }
    if (operation.secured && !reqHeader('authorization') && exchange.status >= 200 && exchange.status < 300) {
      add(
        findings,
        'request.headers.authorization',
        'the operation requires HMACSHA256 authentication, yet an unsigned request succeeded',
      );
    }

    // ---- request: body
    const requestType = mediaTypeOf(reqHeader('content-type'));
    if (operation.requestBody) {
      if (isEmptyBody(exchange.requestBody)) {
        if (operation.requestBody.required) add(requestFindings, 'request.body', 'is required');
      } else {
        const documented = Object.keys(operation.requestBody.content);
        const mediaType = requestType ?? (documented.includes('application/json') ? 'application/json' : null);
        const media = mediaType ? operation.requestBody.content[mediaType] : undefined;
        if (!media) {
          add(
            requestFindings,
            'request.headers.content-type',
            `${requestType ?? '(none)'} is not one of ${documented.join(', ')}`,
          );
        } else if (media.schemaPointer && mediaType?.endsWith('json')) {
          const parsed = parseBody(exchange.requestBody);
          if (!parsed.ok) add(requestFindings, 'request.body', parsed.error);
          else {
            const validate = validatorFor(media.schemaPointer);
            if (!validate(parsed.value)) addErrors(requestFindings, 'request.body', validate.errors, parsed.value);
          }
        }
      }
    } else if (!isEmptyBody(exchange.requestBody)) {
      add(requestFindings, 'request.body', 'the operation takes no request body, yet one was sent');
    }

    // ---- response: status
    const statusKey = String(exchange.status);
    const response =
      operation.responses.get(statusKey) ??
      operation.responses.get(`${statusKey[0]}XX`) ??
      operation.responses.get('DEFAULT');
    if (!response) {
      add(
        findings,
        'response.status',
        `${exchange.status} is not documented (documented: ${[...operation.responses.keys()].join(', ')})`,
        {
          actual: exchange.status,
          keyword: 'status',
          schemaPointer: pointerOf('paths', operation.template, operation.method.toLowerCase(), 'responses'),
        },
      );
    } else {
      // ---- response: headers
      const contentType = resHeader('content-type');
      for (const [name, header] of Object.entries(response.headers)) {
        const value = resHeader(name);
        // Required as the spec marks it (X-Request-Id on every response); and by its convention a 429 carries
        // Retry-After, which the shared header object cannot mark required for that status alone.
        const required = header.required || (name === 'retry-after' && exchange.status === 429);
        if (value === null) {
          if (required) add(findings, `response.headers.${name}`, 'is required');
          continue;
        }
        if (header.schemaPointer) {
          const validate = validatorFor(header.schemaPointer, true);
          if (!validate({ value })) addErrors(findings, `response.headers.${name}`, validate.errors, { value });
        }
      }
      // ---- response: content type and body
      const documented = Object.keys(response.content);
      const mediaType = mediaTypeOf(contentType);
      if (documented.length === 0) {
        if (!isEmptyBody(exchange.responseBody))
          add(findings, 'response.body', `${exchange.status} documents no body, yet one was sent`);
      } else if (!mediaType || !documented.includes(mediaType)) {
        add(findings, 'response.headers.content-type', `${contentType ?? '(none)'} is not ${documented.join(' or ')}`);
      } else {
        const schemaPointer = response.content[mediaType]?.schemaPointer;
        const parsed = parseBody(exchange.responseBody);
        if (isEmptyBody(exchange.responseBody)) add(findings, 'response.body', `is empty; ${mediaType} is documented`);
        else if (!parsed.ok) add(findings, 'response.body', parsed.error);
        else if (schemaPointer) {
          const validate = validatorFor(schemaPointer);
          if (!validate(parsed.value)) addErrors(findings, 'response.body', validate.errors, parsed.value);
          else if (
            mediaType === 'application/problem+json' &&
            isObject(parsed.value as Json) &&
            (parsed.value as JsonObject).status !== exchange.status
          ) {
            add(
              findings,
              'response.body/status',
              `is ${String((parsed.value as JsonObject).status)}, the HTTP status is ${exchange.status}`,
            );
          }
        }
      }
    }

    // A non-conforming request is the client's fault; the server is only wrong to accept it.
    const refused =
      exchange.status === 400 || exchange.status === 401 || exchange.status === 429 || exchange.status >= 500;
    if (options.strictRequests || !refused) {
      findings.unshift(
        ...requestFindings.map((f) => ({ ...f, message: `${f.message}; the server answered ${exchange.status}` })),
      );
    }
    all.push(...findings);
    return findings;
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
