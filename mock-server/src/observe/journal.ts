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

/** A kept exchange: bodies cut to {@link JOURNAL_BODY_LIMIT}. */
export interface StoredExchange extends ExchangeRecord {
  seq: number;
  requestTruncated: boolean;
  responseTruncated: boolean;
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

/** Cuts a body to the journal's limit. */
export function keep(exchange: ExchangeRecord, seq: number): StoredExchange {
  const stored = exchange as StoredExchange;
  stored.seq = seq;
  stored.requestTruncated = exchange.requestBody !== null && exchange.requestBody.length > JOURNAL_BODY_LIMIT;
  stored.responseTruncated = exchange.responseBody !== null && exchange.responseBody.length > JOURNAL_BODY_LIMIT;
  if (stored.requestTruncated) stored.requestBody = cut(exchange.requestBody!);
  if (stored.responseTruncated) stored.responseBody = cut(exchange.responseBody!);
  return stored;
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
    path: redactTarget(e.target, secrets),
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
  return {
    ...summaryOf(e, secrets),
    request: message(e.requestHeaders, e.requestBody, e.requestTruncated),
    response: message(e.responseHeaders, e.responseBody, e.responseTruncated),
  };
}
