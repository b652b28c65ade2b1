/**
 * The checks of one exchange against its operation: the request's parameters and body, then the response's status,
 * headers, content type and body. A non-conforming request counts only when the server accepted it, or refused it
 * with another status than the spec's.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeError, headerGetter, isEmptyBody, mediaTypeOf, parseBody } from './exchange-parts';
import type { SchemaValidators } from './schemas';
import {
  isObject,
  type Json,
  type JsonObject,
  matchOperation,
  type OperationDef,
  pointerOf,
  resolvePointer,
} from './spec-document';
import type { Exchange, Finding } from './types';

/** The spec's three areas; anything else but `/__mock/` is not the API's business. */
const API_PREFIXES = ['/s2s', '/app', '/corporates'];
/** The mock's control routes (contract section 7) are outside the spec. */
const CONTROL_PREFIX = '/__mock/';

/** What the checks of one exchange need to know of the spec and of the checker's options. */
export interface CheckSetting extends SchemaValidators {
  operations: OperationDef[];
  /** The path prefix before the spec's paths, without a trailing slash; `''` for none. */
  basePath: string;
  strictRequests: boolean;
}

/** One exchange being checked against the operation it matched. */
interface Checking {
  setting: CheckSetting;
  exchange: Exchange;
  operation: OperationDef;
  /** What every finding of the exchange starts with. */
  base: { operationId: string; method: string; path: string; url: string };
  url: URL;
  segments: string[];
  reqHeader: (name: string) => string | null;
  resHeader: (name: string) => string | null;
  /** Findings about the response, and about requests that succeeded unsigned. */
  findings: Finding[];
  /** Findings about the request: they count only as {@link mergeRequestFindings} decides. */
  requestFindings: Finding[];
}

type Parameter = OperationDef['parameters'][number];
type ResponseDefOf<M> = M extends Map<string, infer R> ? R : never;
type ResponseSpec = ResponseDefOf<OperationDef['responses']>;

/** The exchange's method, URL and API path (the base path removed); null for a control route or a path outside the API. */
function apiRequestOf(setting: CheckSetting, exchange: Exchange) {
  const method = exchange.method.toUpperCase();
  const url = new URL(exchange.url, 'http://conformance.invalid');
  let path = url.pathname;
  if (setting.basePath && path.startsWith(setting.basePath)) path = path.slice(setting.basePath.length) || '/';
  if (path.startsWith(CONTROL_PREFIX) || !API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return null;
  return { method, url, path, sent: `${path}${url.search}` };
}

/** Which part of the answer to a request of no operation is not the spec's 404 Problem: the status, the content type or the body. */
function wrongUnmatchedAnswer(setting: CheckSetting, exchange: Exchange): string | undefined {
  const contentType = headerGetter(exchange.responseHeaders)('content-type');
  const problem = parseBody(exchange.responseBody);
  const validate = setting.validatorFor('/components/schemas/Problem');
  if (exchange.status !== 404) return `the status was ${exchange.status}`;
  if (mediaTypeOf(contentType) !== 'application/problem+json') return `the content type was ${contentType ?? '(none)'}`;
  if (!problem.ok) return `the body is not JSON (${problem.error})`;
  if (validate(problem.value)) return undefined;
  const first = validate.errors?.[0];
  return `the body is not the spec's Problem (${first ? describeError('body', first).message : 'invalid'})`;
}

/** Adds a finding of the exchange to `list`. */
function add(c: Checking, list: Finding[], location: string, message: string, extra: Partial<Finding> = {}): void {
  list.push({ ...c.base, location, message, ...extra });
}

/** The value an error is about, in `root`; for additionalProperties the field's own value, which the error names. */
function actualAt(error: ErrorObject, root: unknown): unknown {
  const at = resolvePointer(root as Json, error.instancePath);
  return error.keyword === 'additionalProperties' && isObject(at as Json)
    ? (at as JsonObject)[String((error.params as { additionalProperty?: string }).additionalProperty)]
    : at;
}

/** Adds a schema's errors to `list`, each location and message once. */
function addErrors(
  c: Checking,
  list: Finding[],
  prefix: string,
  errors: ErrorObject[] | null | undefined,
  root?: unknown,
): void {
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const { location, message } = describeError(prefix, error);
    if (seen.has(location + message)) continue;
    seen.add(location + message);
    const schemaPointer = c.setting.pointerOfSchema(error.parentSchema);
    const extra: Partial<Finding> = {
      keyword: error.keyword,
      ...(schemaPointer === undefined ? {} : { schemaPointer }),
    };
    if (root !== undefined) extra.actual = actualAt(error, root);
    add(c, list, location, message, extra);
  }
}

/**
 * A parameter's raw value as sent (null when absent); undefined for a place not checked (cookie) or a path value
 * that is not valid percent-encoding (then a finding says so).
 */
function rawParameter(c: Checking, param: Parameter, pathValues: Map<string, string>): string | null | undefined {
  if (param.in === 'query') return c.url.searchParams.get(param.name);
  if (param.in === 'header') return c.reqHeader(param.name);
  if (param.in !== 'path') return undefined;
  const value = pathValues.get(param.name);
  try {
    return value === undefined ? null : decodeURIComponent(value);
  } catch {
    add(c, c.requestFindings, `request.path.${param.name}`, `is not valid percent-encoding: ${value}`);
    return undefined;
  }
}

/** The request's path, query and header parameters: present when required, and as their schemas say. */
function checkParameters(c: Checking): void {
  const pathValues = new Map<string, string>();
  c.operation.paramNames.forEach((name, i) => {
    if (name !== null) pathValues.set(name, c.segments[i] ?? '');
  });
  for (const param of c.operation.parameters) {
    const raw = rawParameter(c, param, pathValues);
    if (raw === undefined) continue;
    const location = `request.${param.in}.${param.name}`;
    if (raw === null) {
      if (param.required) add(c, c.requestFindings, location, `is required`);
      continue;
    }
    if (!param.schemaPointer) continue;
    const validate = c.setting.validatorFor(param.schemaPointer, true);
    if (validate({ value: raw })) continue;
    for (const error of validate.errors ?? []) {
      const { message } = describeError('', error);
      add(c, c.requestFindings, location, `${message} (got ${JSON.stringify(raw)})`);
    }
  }
}

/** A request body sent: a documented media type, and for JSON the schema's. */
function checkRequestMedia(c: Checking, requestBody: NonNullable<OperationDef['requestBody']>): void {
  const requestType = mediaTypeOf(c.reqHeader('content-type'));
  const documented = Object.keys(requestBody.content);
  const mediaType = requestType ?? (documented.includes('application/json') ? 'application/json' : null);
  const media = mediaType ? requestBody.content[mediaType] : undefined;
  if (!media) {
    add(
      c,
      c.requestFindings,
      'request.headers.content-type',
      `${requestType ?? '(none)'} is not one of ${documented.join(', ')}`,
    );
    return;
  }
  if (!media.schemaPointer || !mediaType?.endsWith('json')) return;
  const parsed = parseBody(c.exchange.requestBody);
  if (!parsed.ok) {
    add(c, c.requestFindings, 'request.body', parsed.error);
    return;
  }
  const validate = c.setting.validatorFor(media.schemaPointer);
  if (!validate(parsed.value)) addErrors(c, c.requestFindings, 'request.body', validate.errors, parsed.value);
}

/** The request's body: present when required, absent when the operation takes none. */
function checkRequestBody(c: Checking): void {
  const { requestBody } = c.operation;
  const empty = isEmptyBody(c.exchange.requestBody);
  if (!requestBody) {
    if (!empty) add(c, c.requestFindings, 'request.body', 'the operation takes no request body, yet one was sent');
  } else if (empty) {
    if (requestBody.required) add(c, c.requestFindings, 'request.body', 'is required');
  } else checkRequestMedia(c, requestBody);
}

/** The response's headers: the required ones present, each as its schema says. */
function checkResponseHeaders(c: Checking, response: ResponseSpec): void {
  for (const [name, header] of Object.entries(response.headers)) {
    const value = c.resHeader(name);
    // Required as the spec marks it (X-Request-Id on every response); and by its convention a 429 carries
    // Retry-After, which the shared header object cannot mark required for that status alone.
    const required = header.required || (name === 'retry-after' && c.exchange.status === 429);
    if (value === null) {
      if (required) add(c, c.findings, `response.headers.${name}`, 'is required');
      continue;
    }
    if (!header.schemaPointer) continue;
    const validate = c.setting.validatorFor(header.schemaPointer, true);
    if (!validate({ value })) addErrors(c, c.findings, `response.headers.${name}`, validate.errors, { value });
  }
}

/** A response body of a documented JSON media type: not empty, JSON, its schema's, and a problem's status the HTTP one. */
function checkResponseJson(c: Checking, mediaType: string, schemaPointer: string | null | undefined): void {
  const { exchange } = c;
  const parsed = parseBody(exchange.responseBody);
  if (isEmptyBody(exchange.responseBody)) add(c, c.findings, 'response.body', `is empty; ${mediaType} is documented`);
  else if (!parsed.ok) add(c, c.findings, 'response.body', parsed.error);
  else if (schemaPointer) {
    const validate = c.setting.validatorFor(schemaPointer);
    if (!validate(parsed.value)) addErrors(c, c.findings, 'response.body', validate.errors, parsed.value);
    else checkProblemStatus(c, mediaType, parsed.value as Json);
  }
}

/** A problem's `status` is the HTTP status. */
function checkProblemStatus(c: Checking, mediaType: string, value: Json): void {
  if (mediaType === 'application/problem+json' && isObject(value) && (value as JsonObject).status !== c.exchange.status)
    add(c, c.findings, 'response.body/status', `a problem's status is the HTTP status, ${c.exchange.status}`, {
      actual: (value as JsonObject).status,
    });
}

/** The response's content type and body. */
function checkResponseBody(c: Checking, response: ResponseSpec): void {
  const contentType = c.resHeader('content-type');
  const documented = Object.keys(response.content);
  const mediaType = mediaTypeOf(contentType);
  if (documented.length === 0) {
    if (!isEmptyBody(c.exchange.responseBody))
      add(c, c.findings, 'response.body', `${c.exchange.status} documents no body, yet one was sent`);
  } else if (!mediaType || !documented.includes(mediaType)) {
    add(c, c.findings, 'response.headers.content-type', `${contentType ?? '(none)'} is not ${documented.join(' or ')}`);
  } else checkResponseJson(c, mediaType, response.content[mediaType]?.schemaPointer);
}

/** The response: a documented status, then its headers and body. */
function checkResponse(c: Checking): void {
  const { operation, exchange } = c;
  const statusKey = String(exchange.status);
  const response =
    operation.responses.get(statusKey) ??
    operation.responses.get(`${statusKey[0]}XX`) ??
    operation.responses.get('DEFAULT');
  if (!response) {
    add(
      c,
      c.findings,
      'response.status',
      `${exchange.status} is not documented (documented: ${[...operation.responses.keys()].join(', ')})`,
      {
        actual: exchange.status,
        keyword: 'status',
        schemaPointer: pointerOf('paths', operation.template, operation.method.toLowerCase(), 'responses'),
      },
    );
    return;
  }
  checkResponseHeaders(c, response);
  checkResponseBody(c, response);
}

/**
 * A non-conforming request is the client's fault; the server is only wrong to accept it, or to refuse it otherwise
 * than the spec says (400 VALIDATION_FAILED or MALFORMED_JSON; 401, 429 and 5xx come before validation).
 */
function mergeRequestFindings(c: Checking): void {
  const { exchange, requestFindings, findings } = c;
  const refused =
    exchange.status === 400 || exchange.status === 401 || exchange.status === 429 || exchange.status >= 500;
  if (c.setting.strictRequests || exchange.status < 400) {
    findings.unshift(
      ...requestFindings.map((f) => ({ ...f, message: `${f.message}; the server answered ${exchange.status}` })),
    );
  } else if (!refused && requestFindings.length > 0) {
    // One difference, the status, however many fields broke the spec: the first one says which request it was.
    const [first] = requestFindings as [Finding];
    const more = requestFindings.length > 1 ? `, and ${requestFindings.length - 1} more` : '';
    findings.unshift({
      ...c.base,
      location: 'response.status',
      message: 'a request that breaks the spec is refused with 400',
      actual: exchange.status,
      keyword: 'status',
      cause: `${first.location} ${first.message}${more}`,
    });
  }
}

/**
 * Checks one exchange. Returns `null` for a control route or a path outside the API (not checked, not counted),
 * else the operation it matched (`null` for none) and its findings.
 */
export function checkExchange(
  setting: CheckSetting,
  exchange: Exchange,
): { operationId: string | null; findings: Finding[] } | null {
  const request = apiRequestOf(setting, exchange);
  if (!request) return null;
  const { method, url, path, sent } = request;
  const segments = path.split('/').slice(1);
  const { operation } = matchOperation(setting.operations, method, segments);
  if (!operation) {
    // The spec has no such operation: the only right answer is the spec's 404 problem (`ROUTE_NOT_FOUND`).
    const wrong = wrongUnmatchedAnswer(setting, exchange);
    const findings: Finding[] =
      wrong === undefined
        ? []
        : [
            {
              operationId: null,
              method,
              path,
              url: sent,
              location: 'response',
              message: `no operation of the spec: the answer is the 404 ROUTE_NOT_FOUND Problem, yet ${wrong}`,
              actual: exchange.status,
            },
          ];
    return { operationId: null, findings };
  }
  const c: Checking = {
    setting,
    exchange,
    operation,
    base: { operationId: operation.operationId, method, path: operation.template, url: sent },
    url,
    segments,
    reqHeader: headerGetter(exchange.requestHeaders),
    resHeader: headerGetter(exchange.responseHeaders),
    findings: [],
    requestFindings: [],
  };
  checkParameters(c);
  if (operation.secured && !c.reqHeader('authorization') && exchange.status >= 200 && exchange.status < 300)
    add(
      c,
      c.findings,
      'request.headers.authorization',
      'the operation requires HMACSHA256 authentication, yet an unsigned request succeeded',
    );
  checkRequestBody(c);
  checkResponse(c);
  mergeRequestFindings(c);
  return { operationId: operation.operationId, findings: c.findings };
}
