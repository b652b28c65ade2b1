/**
 * What a consumer's tests exercised, for `createMock({ recordUsage: true })`, `mock.usage()` and
 * `GET /__mock/usage`: per tenant and operation, the statuses answered, the query parameters and request body fields
 * sent, the response body fields received, and one example exchange per status (redacted as the journal is, for a
 * consumer contract). Aggregated as requests are answered, so it covers a whole test run whatever the journal keeps.
 * @module
 */
import { operationTable } from 'card-issuing-sdk/server';
import type { ExchangeRecord } from './journal';
import { entryOf, keep } from './journal';

/** One side of an example exchange. */
export interface UsageMessage {
  headers: Record<string, string>;
  body: unknown;
}

/** One operation as a consumer used it. */
export interface UsageOperation {
  operationId: string;
  method: string;
  /** The spec's path template. */
  path: string;
  /** Every status it was answered with, ascending. */
  statuses: number[];
  /** The query parameters sent, by name. */
  queryParameters: string[];
  /** The request body fields sent: `email`, `address.country`, `items[].id`. */
  requestFields: string[];
  /** The response body fields received, per status. */
  responseFields: Record<string, string[]>;
  /** The first exchange of each status: the request target and body sent, the answer received. */
  examples: {
    request: UsageMessage & { method: string; target: string };
    response: UsageMessage & { status: number };
  }[];
}

/** The usage document (`GET /__mock/usage`): what `card-issuing-contract usage` turns into a usage file and a Pact. */
export interface Usage {
  usageVersion: 1;
  generatedBy: 'card-issuing-mock';
  tenant: string;
  /** False when the mock was not started to record usage (`recordUsage`): `operations` is then empty. */
  recording: boolean;
  operations: UsageOperation[];
}

interface Aggregate {
  statuses: Set<number>;
  query: Set<string>;
  request: FieldTree;
  response: Map<number, FieldTree>;
  examples: Map<number, ExchangeRecord>;
}

const templates = new Map<string, { method: string; path: string }>(
  operationTable.map((row) => [row.operationId, { method: row.method, path: row.path }]),
);

/** One field path met so far, and the paths met under it (by key, and for array items). */
interface PathNode {
  path: string;
  keys: Map<string, PathNode> | undefined;
  items: PathNode | undefined;
}

const pathNode = (path: string): PathNode => ({ path, keys: undefined, items: undefined });

/**
 * The field paths of every JSON value recorded under one root. Why a tree: most bodies of an operation have the
 * paths of the last one, and a known path costs a map lookup here instead of its text built and hashed again for
 * every field of every body.
 */
class FieldTree {
  readonly paths = new Set<string>();
  readonly #root = pathNode('');
  /** The last JSON text added: the same text again has no path that is not here yet (a client polling one resource). */
  #last: string | null = null;

  /** Adds the field paths of a JSON text (none when it is null or not JSON). */
  addJson(text: string | null): void {
    if (text === null || text === this.#last) return;
    this.#last = text;
    walk(parsed(text), this.#root, this.paths);
  }
}

/**
 * Adds the field paths under `node` of a JSON value to `into` (`a`, `a.b`, `list[].id`: array items share one path),
 * each path's text made once, when its node is made.
 */
function walk(value: unknown, node: PathNode, into: Set<string>): void {
  if (Array.isArray(value)) walkItems(value, node, into);
  else if (value !== null && typeof value === 'object') walkKeys(value as Record<string, unknown>, node, into);
}

/** An array's object items, under the one path they share (`list[]`). */
function walkItems(items: unknown[], node: PathNode, into: Set<string>): void {
  node.items ??= pathNode(`${node.path}[]`);
  for (const item of items) if (item !== null && typeof item === 'object') walk(item, node.items, into);
}

/** An object's keys, each a path of its own (made, and added to `into`, the first time it is seen). */
function walkKeys(value: Record<string, unknown>, node: PathNode, into: Set<string>): void {
  node.keys ??= new Map();
  for (const key of Object.keys(value)) {
    let child = node.keys.get(key);
    if (child === undefined) {
      child = pathNode(node.path === '' ? key : `${node.path}.${key}`);
      node.keys.set(key, child);
      into.add(child.path);
    }
    walk(value[key], child, into);
  }
}

/** A message with its content type only: the rest of the headers are the transport's, not the contract's. */
function contentOnly(message: UsageMessage): UsageMessage {
  const type = message.headers['content-type'];
  return { headers: type === undefined ? {} : { 'content-type': type }, body: message.body };
}

function parsed(body: string | null): unknown {
  if (body === null) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The usage of every tenant of one mock. */
export class UsageRecorder {
  readonly #tenants = new Map<string, Map<string, Aggregate>>();

  /** Counts an answered exchange of an API operation (control actions and unknown routes are not usage). */
  record(exchange: ExchangeRecord): void {
    const { operationId } = exchange;
    if (operationId === null || !templates.has(operationId) || exchange.status === 0) return;
    const operations = this.#tenants.get(exchange.tenant) ?? new Map<string, Aggregate>();
    this.#tenants.set(exchange.tenant, operations);
    let aggregate = operations.get(operationId);
    if (!aggregate) {
      aggregate = {
        statuses: new Set(),
        query: new Set(),
        request: new FieldTree(),
        response: new Map(),
        examples: new Map(),
      };
      operations.set(operationId, aggregate);
    }
    const { status } = exchange;
    aggregate.statuses.add(status);
    const query = exchange.target.indexOf('?');
    if (query >= 0)
      for (const name of new URLSearchParams(exchange.target.slice(query)).keys()) aggregate.query.add(name);
    aggregate.request.addJson(exchange.requestBody);
    let received = aggregate.response.get(status);
    if (received === undefined) {
      received = new FieldTree();
      aggregate.response.set(status, received);
    }
    received.addJson(exchange.responseBody);
    if (!aggregate.examples.has(status)) aggregate.examples.set(status, { ...exchange });
  }

  /** The usage of a tenant so far; examples are redacted with `secrets` as the journal's entries are. */
  usage(tenant: string, secrets: readonly string[]): Usage {
    const operations = [...(this.#tenants.get(tenant) ?? new Map<string, Aggregate>())]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operationId, a]): UsageOperation => {
        const sorted = (set: Set<string>) => [...set].sort();
        const statuses = [...a.statuses].sort((x, y) => x - y);
        return {
          operationId,
          ...templates.get(operationId)!,
          statuses,
          queryParameters: sorted(a.query),
          requestFields: sorted(a.request.paths),
          responseFields: Object.fromEntries(
            statuses.map((s) => [String(s), sorted(a.response.get(s)?.paths ?? new Set())]),
          ),
          examples: statuses.map((status) => {
            const entry = entryOf(keep({ ...a.examples.get(status)! }, 0), secrets);
            return {
              request: { method: entry.method, target: entry.path, ...contentOnly(entry.request) },
              response: { status, ...contentOnly(entry.response) },
            };
          }),
        };
      });
    return { usageVersion: 1, generatedBy: 'card-issuing-mock', tenant, recording: true, operations };
  }

  /** Forgets a tenant's usage (`reset`). */
  clear(tenant?: string): void {
    if (tenant === undefined) this.#tenants.clear();
    else this.#tenants.delete(tenant);
  }
}
