/**
 * `card-issuing-contract usage`: what an app's test run exercised, as a usage file (operations, statuses, query
 * parameters and request fields sent, response fields received; JSON Schema `usage.schema.json` in the package) and
 * as a Pact v4 consumer contract (one interaction per operation and status, from the examples the mock kept).
 * Read from a running mock (`GET /__mock/usage`), a saved usage document, or a saved journal
 * (`GET /__mock/requests`, `mock.requests()`).
 * @module
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
// Types only (erased at build, so the package does not need the mock at run time): the usage document is the mock's
// (`GET /__mock/usage`), declared once there, and a change to its shape fails this package's type check.
import type { Usage, UsageOperation } from 'card-issuing-mock';
import { CannotRun } from '../run/probe';

/** An example exchange, as the mock's usage keeps one per status. */
export type UsageExample = UsageOperation['examples'][number];

/** One operation the app used: the mock's usage of it without the examples. */
export type UsedOperation = Omit<UsageOperation, 'examples'>;

/** The usage file (`--out`). */
export interface UsageFile {
  usageVersion: Usage['usageVersion'];
  /** Where it was read from: a URL or a file name. */
  source: string;
  operations: UsedOperation[];
}

/** Operations with their examples, before they are written out. */
type Read = { operations: UsageOperation[] };

interface JournalItem {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  request: { headers: Record<string, string>; body: unknown };
  response: { headers: Record<string, string>; body: unknown };
}

/** The spec's operations by id: method and path template. */
function operationsOf(specPath: string): Map<string, { method: string; path: string }> {
  const doc = parse(readFileSync(specPath, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const out = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(item))
      if (operation?.operationId) out.set(operation.operationId, { method: method.toUpperCase(), path });
  return out;
}

/** The children of a JSON value with their field paths, adding an object's field paths to `into`. */
function childrenOf(value: unknown, at: string, into: Set<string>): [unknown, string][] {
  if (Array.isArray(value)) return value.map((item) => [item, `${at}[]`]);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).map(([name, child]) => {
    const path = at ? `${at}.${name}` : name;
    into.add(path);
    return [child, path];
  });
}

/** Adds every field path of a JSON body to `into`: objects by name (`a.b`), array items as `[]`. */
function collectFields(body: unknown, into: Set<string>): void {
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    stack.push(...childrenOf(value, at, into));
  }
}

/** The usage of a saved journal: its API exchanges, grouped by operation. */
function fromJournal(items: JournalItem[], specPath: string): Read {
  const spec = operationsOf(specPath);
  const byId = new Map<
    string,
    {
      statuses: Set<number>;
      query: Set<string>;
      request: Set<string>;
      response: Map<number, Set<string>>;
      examples: Map<number, UsageExample>;
    }
  >();
  // The journal is newest first: the oldest exchange of each status is its example, as the mock's usage keeps it.
  for (const item of [...items].reverse()) {
    if (item.operationId === null || !spec.has(item.operationId) || item.status === 0) continue;
    const seen = byId.get(item.operationId) ?? {
      statuses: new Set(),
      query: new Set(),
      request: new Set(),
      response: new Map(),
      examples: new Map(),
    };
    byId.set(item.operationId, seen);
    seen.statuses.add(item.status);
    for (const name of new URL(item.path, 'http://journal.invalid').searchParams.keys()) seen.query.add(name);
    collectFields(item.request.body, seen.request);
    const received = seen.response.get(item.status) ?? new Set<string>();
    seen.response.set(item.status, received);
    collectFields(item.response.body, received);
    const contentType = (headers: Record<string, string>): Record<string, string> =>
      headers['content-type'] ? { 'content-type': headers['content-type'] } : {};
    if (!seen.examples.has(item.status))
      seen.examples.set(item.status, {
        request: {
          method: item.method,
          target: item.path,
          headers: contentType(item.request.headers),
          body: item.request.body,
        },
        response: { status: item.status, headers: contentType(item.response.headers), body: item.response.body },
      });
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return {
    operations: [...byId]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operationId, seen]) => {
        const statuses = [...seen.statuses].sort((a, b) => a - b);
        return {
          operationId,
          ...spec.get(operationId)!,
          statuses,
          queryParameters: sorted(seen.query),
          requestFields: sorted(seen.request),
          responseFields: Object.fromEntries(statuses.map((s) => [String(s), sorted(seen.response.get(s)!)])),
          examples: statuses.map((s) => seen.examples.get(s)!),
        };
      }),
  };
}

/** The usage document (or journal) a mock serves: `from` itself when it names a control route, else its usage. */
async function fetchDocument(from: string): Promise<unknown> {
  const url = new URL(from);
  if (!url.pathname.includes('/__mock/')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/__mock/usage`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new CannotRun(`cannot reach ${url.origin}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new CannotRun(`${url.href} answered ${response.status}: not a card-issuing-mock`);
  return response.json().catch(() => {
    throw new CannotRun(`${url.href} did not answer JSON`);
  });
}

/** A saved usage document or journal, as JSON. */
function readDocument(from: string): unknown {
  let text: string;
  try {
    text = readFileSync(from, 'utf8');
  } catch (error) {
    throw new CannotRun(`cannot read ${from}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CannotRun(`${from} is not JSON`);
  }
}

/** Reads what the app used from `from`: a mock's base URL, a usage document's URL or file, or a saved journal. */
export async function readUsage(from: string, specPath: string): Promise<Read> {
  const document = /^https?:\/\//.test(from) ? await fetchDocument(from) : readDocument(from);
  const doc = document as Partial<Usage> & { items?: unknown };
  if (doc.usageVersion === 1 && Array.isArray(doc.operations)) {
    if (doc.recording === false)
      throw new CannotRun(
        `${from}: the mock does not record usage (start it with recordUsage: true; the standalone server does by default)`,
      );
    // A document saved without its examples still reads (its Pact then has no interactions).
    const operations = doc.operations as (Omit<UsageOperation, 'examples'> & Partial<UsageOperation>)[];
    return { operations: operations.map((o) => ({ ...o, examples: o.examples ?? [] })) };
  }
  const items = Array.isArray(document) ? document : Array.isArray(doc.items) ? doc.items : undefined;
  if (items) return fromJournal(items as JournalItem[], specPath);
  throw new CannotRun(
    `${from} is neither a usage document (GET /__mock/usage, mock.usage()) nor a journal (GET /__mock/requests, mock.requests())`,
  );
}

/** The usage file of what was read. */
export function usageFile(read: Read, source: string): UsageFile {
  return {
    usageVersion: 1,
    source,
    operations: read.operations.map(({ examples: _examples, ...operation }) => operation),
  };
}

/**
 * The Authorization header of every interaction: a signature is fresh for every request, so the Pact carries a
 * sample (no real key or signature) and a regex matching rule for the scheme's form.
 */
const AUTHORIZATION_SAMPLE = 'HMAC-SHA256 api-key:c2lnbmF0dXJl:0123456789abcdef0123456789abcdef:1700000000';
const AUTHORIZATION_RULE = {
  header: {
    authorization: {
      combine: 'AND',
      matchers: [{ match: 'regex', regex: '^HMAC-SHA256 [^:\\s]+:[A-Za-z0-9+/]+=*:[0-9a-fA-F-]{32,36}:[0-9]{1,12}$' }],
    },
  },
};

/** What the journal puts for a secret value (card details, secrets). */
const REDACTED = '[redacted]';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Follows `$ref`s inside the spec. */
function deref(doc: Json, node: Json | undefined): Json | undefined {
  let at = node;
  for (
    let hops = 0;
    at && typeof at === 'object' && !Array.isArray(at) && typeof at.$ref === 'string' && hops < 10;
    hops++
  ) {
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>(
        (n, key) => (n && typeof n === 'object' && !Array.isArray(n) ? n[key] : undefined),
        doc,
      );
  }
  return at;
}

/** The spec's example of an operation's response body for a status (the schema's first `examples` entry). */
function responseExample(doc: Json, path: string, method: string, status: number): Json | undefined {
  const member = (n: Json | undefined, key: string) =>
    n && typeof n === 'object' && !Array.isArray(n) ? deref(doc, n[key]) : undefined;
  const responses = member(member(member(doc, 'paths'), path), method.toLowerCase());
  const response = member(member(responses, 'responses'), String(status));
  const content = member(response, 'content');
  const media = content && typeof content === 'object' ? Object.keys(content)[0] : undefined;
  const examples = member(member(member(content, media ?? ''), 'schema'), 'examples');
  return Array.isArray(examples) ? examples[0] : undefined;
}

/**
 * A body with each redacted value (encrypted card details) replaced by the spec's example of the same field, so
 * that the Pact still conforms to the spec: the value was never the app's to rely on, its shape is.
 */
function unredact(body: Json, example: Json | undefined): Json {
  if (body === REDACTED && example !== undefined) return example;
  if (Array.isArray(body)) return body.map((item) => unredact(item, Array.isArray(example) ? example[0] : undefined));
  if (body && typeof body === 'object') {
    const sample = example && typeof example === 'object' && !Array.isArray(example) ? example : {};
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, unredact(value, sample[key])]));
  }
  return body;
}

/** A Pact v4 consumer contract: one HTTP interaction per operation and status, from the examples. */
export function pactOf(read: Read, names: { consumer: string; provider: string }, specPath: string): object {
  const doc = parse(readFileSync(specPath, 'utf8')) as Json;
  const body = (headers: Record<string, string>, content: unknown) =>
    content === null || content === undefined
      ? {}
      : { body: { content, contentType: headers['content-type'] ?? 'application/json', encoded: false } };
  const interactions = read.operations.flatMap((operation) =>
    operation.examples.map((example) => {
      const url = new URL(example.request.target, 'http://pact.invalid');
      const query: Record<string, string[]> = {};
      for (const [name, value] of url.searchParams) query[name] = [...(query[name] ?? []), value];
      return {
        type: 'Synchronous/HTTP',
        description: `${operation.operationId} ${example.response.status}`,
        providerStates: [],
        request: {
          method: example.request.method,
          path: url.pathname,
          ...(Object.keys(query).length > 0 ? { query } : {}),
          headers: {
            authorization: [AUTHORIZATION_SAMPLE],
            ...Object.fromEntries(Object.entries(example.request.headers).map(([k, v]) => [k, [v]])),
          },
          matchingRules: AUTHORIZATION_RULE,
          ...body(example.request.headers, example.request.body),
        },
        response: {
          status: example.response.status,
          headers: Object.fromEntries(Object.entries(example.response.headers).map(([k, v]) => [k, [v]])),
          ...body(
            example.response.headers,
            example.response.body === null || example.response.body === undefined
              ? example.response.body
              : unredact(
                  example.response.body as Json,
                  responseExample(doc, operation.path, operation.method, example.response.status),
                ),
          ),
        },
      };
    }),
  );
  return {
    consumer: { name: names.consumer },
    provider: { name: names.provider },
    interactions,
    metadata: { pactSpecification: { version: '4.0' }, generatedBy: { name: 'card-issuing-contract usage' } },
  };
}
