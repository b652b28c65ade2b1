/**
 * The request journal: one entry per exchange the mock answered (API operations and control actions), kept
 * raw in a ring per tenant and redacted when read.
 * @module
 */
import { redactBody, redactHeaders, redactTarget, replaceSecrets } from './redact';

/** Bodies longer than this many characters are kept cut to it (and marked `truncated`). */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

/** What the pipeline hands the journal about one exchange (raw: secrets are removed when it is read). */
export interface ExchangeRecord {
  /** The tenant's api key. */
  tenant: string;
  method: string;
  /** Path and query as received. */
  target: string;
  /** The spec's operationId, a control action (`mock.clock.advance`), or null for a route that does not exist. */
  operationId: string | null;
  /** 0 for a dropped connection (an injected network fault). */
  status: number;
  /** The problem+json code of an error. */
  code: string | null;
  durationMs: number;
  requestId: string | null;
  /** As received (never changed afterwards): secret headers are replaced when the journal is read. */
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  /** Wall-clock epoch ms when the request arrived. */
  startedAt: number;
  /** The override that answered instead of the domain, when one did. */
  override?: string;
}

/**
 * A kept exchange: bodies cut to {@link JOURNAL_BODY_LIMIT}. What varies per request (target, headers, bodies) is
 * kept as UTF-8 bytes in the journal's {@link JournalBytes}, outside the JavaScript heap, and read back only when
 * the journal is read: an entry outlives many young-generation collections, and as strings and header objects
 * its text would be copied by each and promoted (most of the mock's garbage-collection time under load).
 */
export interface StoredExchange {
  seq: number;
  tenant: string;
  method: string;
  operationId: string | null;
  status: number;
  code: string | null;
  durationMs: number;
  requestId: string | null;
  startedAt: number;
  override?: string;
  requestTruncated: boolean;
  responseTruncated: boolean;
  /** The bytes of target, request headers (JSON), request body, response headers (JSON), response body. */
  bytes: Uint8Array;
  /** Where they start in `bytes`, where the target's end, where they all end. */
  start: number;
  targetEnd: number;
  end: number;
  /** The text lengths (UTF-16 units) of the pieces after the target; -1 for a body that is null. */
  requestHeadersLength: number;
  requestBodyLength: number;
  responseHeadersLength: number;
  /** The response body is the rest of the text (else it was null). */
  hasResponseBody: boolean;
}

/** The text of a kept exchange, read back from its bytes. */
export interface ExchangeText {
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The size of a block of {@link JournalBytes} (an entry larger than a block gets a block of its own). */
const BLOCK = 64 * 1024;

/**
 * Where a journal keeps its entries' text: UTF-8 in blocks of off-heap memory, written one after the other. A
 * block is garbage once no entry kept refers to it (the ring dropped them): nothing in it is copied by the
 * collector meanwhile.
 */
export class JournalBytes {
  #block = new Uint8Array(0);
  #used = 0;

  /** Writes `texts` one after the other; the block they are in, and in `offsets` where they start and each ends. */
  write(texts: readonly string[], offsets: number[]): Uint8Array {
    let most = 0;
    for (const text of texts) most += text.length * 3;
    if (most > this.#block.length - this.#used) {
      this.#block = new Uint8Array(Math.max(BLOCK, most));
      this.#used = 0;
    }
    const block = this.#block;
    offsets.push(this.#used);
    for (const text of texts) {
      this.#used += encoder.encodeInto(text, block.subarray(this.#used)).written;
      offsets.push(this.#used);
    }
    return block;
  }
}

/** The bytes a kept exchange is written to when no journal's are given (a usage example). */
const scratch = () => new JournalBytes();

/** Cuts a body to the journal's limit and keeps what varies per request as bytes. */
export function keep(exchange: ExchangeRecord, seq: number, into: JournalBytes = scratch()): StoredExchange {
  const requestTruncated = exchange.requestBody !== null && exchange.requestBody.length > JOURNAL_BODY_LIMIT;
  const responseTruncated = exchange.responseBody !== null && exchange.responseBody.length > JOURNAL_BODY_LIMIT;
  const requestBody = requestTruncated ? cut(exchange.requestBody!) : exchange.requestBody;
  const responseBody = responseTruncated ? cut(exchange.responseBody!) : exchange.responseBody;
  const requestHeaders = JSON.stringify(exchange.requestHeaders);
  const responseHeaders = JSON.stringify(exchange.responseHeaders);
  const offsets: number[] = [];
  const rest = requestHeaders + (requestBody ?? '') + responseHeaders + (responseBody ?? '');
  const bytes = into.write([exchange.target, rest], offsets);
  const stored: StoredExchange = {
    seq,
    tenant: exchange.tenant,
    method: exchange.method,
    operationId: exchange.operationId,
    status: exchange.status,
    code: exchange.code,
    durationMs: exchange.durationMs,
    requestId: exchange.requestId,
    startedAt: exchange.startedAt,
    requestTruncated,
    responseTruncated,
    bytes,
    start: offsets[0]!,
    targetEnd: offsets[1]!,
    end: offsets[2]!,
    requestHeadersLength: requestHeaders.length,
    requestBodyLength: requestBody === null ? -1 : requestBody.length,
    responseHeadersLength: responseHeaders.length,
    hasResponseBody: responseBody !== null,
  };
  if (exchange.override !== undefined) stored.override = exchange.override;
  return stored;
}

/** The path and query of a kept exchange, as received. */
export function targetOf(e: StoredExchange): string {
  return decoder.decode(e.bytes.subarray(e.start, e.targetEnd));
}

/** The headers and bodies of a kept exchange. */
export function textOf(e: StoredExchange): ExchangeText {
  const text = decoder.decode(e.bytes.subarray(e.targetEnd, e.end));
  let at = 0;
  const next = (length: number) => {
    if (length < 0) return null;
    at += length;
    return text.slice(at - length, at);
  };
  const requestHeaders = JSON.parse(next(e.requestHeadersLength)!) as Record<string, string>;
  const requestBody = next(e.requestBodyLength);
  const responseHeaders = JSON.parse(next(e.responseHeadersLength)!) as Record<string, string>;
  const responseBody = e.hasResponseBody ? text.slice(at) : null;
  return { requestHeaders, requestBody, responseHeaders, responseBody };
}

/** One side of an exchange as the journal shows it. */
export interface JournalMessage {
  headers: Record<string, string>;
  /** Parsed JSON (secret members replaced, card numbers masked), or text, or null for none. */
  body: unknown;
  /** The body was longer than the journal keeps. */
  truncated?: true;
}

/** An exchange as `requests()` and `GET /__mock/requests` show it, newest first. */
export interface JournalSummary {
  /** Increasing over the whole mock: the order requests were answered in. */
  seq: number;
  tenant: string;
  /** Wall-clock time the request arrived (RFC 3339). */
  time: string;
  method: string;
  /** Path and query (secret-looking query values replaced). */
  path: string;
  operationId: string | null;
  status: number;
  code: string | null;
  durationMs: number;
  requestId: string | null;
  /** Present when an override answered instead of the domain: its id (`override_3`). */
  override?: string;
}

/** A journal entry with both bodies. */
export interface JournalEntry extends JournalSummary {
  request: JournalMessage;
  response: JournalMessage;
}

/** What `requests(filter)` and `GET /__mock/requests` select by. Every given field must match. */
export interface RequestFilter {
  /** The operationId (`createCard`) or control action (`mock.kyc`). */
  operation?: string;
  /** An exact status (409) or a class (`4xx`). */
  status?: number | string;
  /** A problem code (`INSUFFICIENT_FUNDS`). */
  code?: string;
  /** The `X-Request-Id` of the exchange (what a typed SDK error carries as `requestId`). */
  requestId?: string;
  /** The method (any case). */
  method?: string;
  /** The one entry with this sequence number. */
  seq?: number;
  /** Only the answers of an override (true), of this override (its id), or of none (false). */
  overridden?: boolean | string;
  /** Only entries after this sequence number (for polling). */
  after?: number;
  /** At most this many (the newest). */
  limit?: number;
}

/**
 * The beginning of a long body, copied: a plain `slice` may stay a view of the whole string (a 32 MiB snapshot
 * restored by PUT /__mock/state would then stay alive in the journal).
 */
function cut(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text.slice(0, JOURNAL_BODY_LIMIT)));
}

/** Whether a kept exchange matches a filter. */
export function exchangeMatches(e: StoredExchange, filter: RequestFilter): boolean {
  if (filter.operation !== undefined && e.operationId !== filter.operation) return false;
  if (filter.status !== undefined && !statusMatches(e.status, filter.status)) return false;
  if (filter.code !== undefined && e.code !== filter.code) return false;
  if (filter.method !== undefined && e.method !== filter.method.toUpperCase()) return false;
  if (!idMatches(e, filter)) return false;
  if (filter.overridden !== undefined && !overrideMatches(e.override, filter.overridden)) return false;
  return true;
}

/** The filters on which exchange: its request id, its sequence number, or those after one. */
function idMatches(e: StoredExchange, filter: RequestFilter): boolean {
  if (filter.requestId !== undefined && e.requestId !== filter.requestId) return false;
  if (filter.seq !== undefined && e.seq !== filter.seq) return false;
  return filter.after === undefined || e.seq > filter.after;
}

/** A status filter: the status itself, or a class such as `4xx`. */
function statusMatches(status: StoredExchange['status'], filter: NonNullable<RequestFilter['status']>): boolean {
  const wanted = String(filter).toLowerCase();
  return /^[1-5]xx$/.test(wanted) ? String(status)[0] === wanted[0] : String(status) === wanted;
}

/** An override filter: an override's id, or whether one answered. */
function overrideMatches(
  override: StoredExchange['override'],
  filter: NonNullable<RequestFilter['overridden']>,
): boolean {
  return typeof filter === 'string' ? override === filter : filter === (override !== undefined);
}

/** The summary of a kept exchange. */
export function summaryOf(e: StoredExchange, secrets: readonly string[]): JournalSummary {
  return {
    seq: e.seq,
    tenant: e.tenant,
    time: new Date(e.startedAt).toISOString(),
    method: e.method,
    path: redactTarget(targetOf(e), secrets),
    operationId: e.operationId,
    status: e.status,
    code: e.code,
    durationMs: Math.round(e.durationMs * 100) / 100,
    requestId: e.requestId,
    ...(e.override !== undefined ? { override: e.override } : {}),
  };
}

/** The redacted entry of a kept exchange. */
export function entryOf(e: StoredExchange, secrets: readonly string[]): JournalEntry {
  const message = (headers: Record<string, string>, body: string | null, truncated: boolean): JournalMessage => ({
    headers: Object.fromEntries(
      Object.entries(redactHeaders(Object.entries(headers))).map(([k, v]) => [k, replaceSecrets(v, secrets)]),
    ),
    body: redactBody(body, secrets, truncated),
    ...(truncated ? { truncated: true as const } : {}),
  });
  const text = textOf(e);
  return {
    ...summaryOf(e, secrets),
    request: message(text.requestHeaders, text.requestBody, e.requestTruncated),
    response: message(text.responseHeaders, text.responseBody, e.responseTruncated),
  };
}
