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

/**
 * Checks one exchange. Returns `null` for a control route or a path outside the API (not checked, not counted),
 * else the operation it matched (`null` for none) and its findings.
 */
export function checkExchange(
  setting: CheckSetting,
  exchange: Exchange,
): { operationId: string | null; findings: Finding[] } | null {
  const { operations, basePath, validatorFor, pointerOfSchema } = setting;
  const method = exchange.method.toUpperCase();
  const url = new URL(exchange.url, 'http://conformance.invalid');
  let path = url.pathname;
  if (basePath && path.startsWith(basePath)) path = path.slice(basePath.length) || '/';
  const sent = `${path}${url.search}`;
  if (path.startsWith(CONTROL_PREFIX) || !API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return null;

  const findings: Finding[] = [];
  const requestFindings: Finding[] = [];
  const reqHeader = headerGetter(exchange.requestHeaders);
  const resHeader = headerGetter(exchange.responseHeaders);
  const segments = path.split('/').slice(1);
  const { operation } = matchOperation(operations, method, segments);

  if (!operation) {
    // The spec has no such operation: the only right answer is the spec's 404 problem (`ROUTE_NOT_FOUND`).
    const base = { operationId: null, method, path, url: sent };
    // Say which part of the answer is wrong: the status, the content type, or a body that is not the spec's Problem.
    const contentType = resHeader('content-type');
    const problem = parseBody(exchange.responseBody);
    const validate = validatorFor('/components/schemas/Problem');
    let wrong: string | undefined;
    if (exchange.status !== 404) wrong = `the status was ${exchange.status}`;
    else if (mediaTypeOf(contentType) !== 'application/problem+json')
      wrong = `the content type was ${contentType ?? '(none)'}`;
    else if (!problem.ok) wrong = `the body is not JSON (${problem.error})`;
    else if (!validate(problem.value)) {
      const first = validate.errors?.[0];
      wrong = `the body is not the spec's Problem (${first ? describeError('body', first).message : 'invalid'})`;
    }
    if (wrong !== undefined) {
      findings.push({
        ...base,
        location: 'response',
        message: `no operation of the spec: the answer is the 404 ROUTE_NOT_FOUND Problem, yet ${wrong}`,
        actual: exchange.status,
      });
    }
    return { operationId: null, findings };
  }

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
          add(findings, 'response.body/status', `a problem's status is the HTTP status, ${exchange.status}`, {
            actual: (parsed.value as JsonObject).status,
          });
        }
      }
    }
  }

  // A non-conforming request is the client's fault; the server is only wrong to accept it, or to refuse it otherwise
  // than the spec says (400 VALIDATION_FAILED or MALFORMED_JSON; 401, 429 and 5xx come before validation).
  const refused =
    exchange.status === 400 || exchange.status === 401 || exchange.status === 429 || exchange.status >= 500;
  if (setting.strictRequests || exchange.status < 400) {
    findings.unshift(
      ...requestFindings.map((f) => ({ ...f, message: `${f.message}; the server answered ${exchange.status}` })),
    );
  } else if (!refused && requestFindings.length > 0) {
    // One difference, the status, however many fields broke the spec: the first one says which request it was.
    const [first] = requestFindings as [Finding];
    const more = requestFindings.length > 1 ? `, and ${requestFindings.length - 1} more` : '';
    findings.unshift({
      ...base,
      location: 'response.status',
      message: 'a request that breaks the spec is refused with 400',
      actual: exchange.status,
      keyword: 'status',
      cause: `${first.location} ${first.message}${more}`,
    });
  }
  return { operationId: operation.operationId, findings };
}
