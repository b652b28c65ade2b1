/**
 * The journal keeps what varies per request (target, headers, bodies) as UTF-8 bytes off the JavaScript heap and
 * reads it back when the journal is read: what it shows is exactly what it was given (null and empty bodies,
 * text beyond ASCII, bodies cut at the limit, entries larger than a block, many entries across blocks).
 */
import { describe, expect, it } from 'vitest';
import {
  JOURNAL_BODY_LIMIT,
  JournalBytes,
  keep,
  targetOf,
  textOf,
  type ExchangeRecord,
} from '../../mock-server/src/observe/journal';

const record = (over: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
  tenant: 'test_key',
  method: 'POST',
  target: '/s2s/users?x=1&name=%C3%A9',
  operationId: 'createUser',
  status: 201,
  code: null,
  durationMs: 1.25,
  requestId: 'req_1',
  requestHeaders: { host: 'mock.test', authorization: 'HMAC-SHA256 k:s:n:t', 'x-note': 'café ☕' },
  requestBody: '{"firstName":"Zoë","emoji":"😀"}',
  responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
  responseBody: '{"id":"u_1","firstName":"Zoë"}',
  startedAt: 1_764_000_000_000,
  ...over,
});

/** What a kept exchange reads back as. */
const readBack = (e: ReturnType<typeof keep>) => ({ target: targetOf(e), ...textOf(e) });

describe('the journal kept as bytes', () => {
  it('reads back target, headers and bodies exactly, whatever the text', () => {
    const bytes = new JournalBytes();
    for (const over of [
      {},
      { requestBody: null, responseBody: null },
      { requestBody: '', responseBody: '' },
      { requestHeaders: {}, responseHeaders: {} },
      { target: '/', requestBody: 'plain text\nwith lines', responseBody: '"\\u0000 quoted"' },
    ]) {
      const given = record(over);
      const kept = keep(given, 1, bytes);
      expect(readBack(kept)).toEqual({
        target: given.target,
        requestHeaders: given.requestHeaders,
        requestBody: given.requestBody,
        responseHeaders: given.responseHeaders,
        responseBody: given.responseBody,
      });
      expect(Object.keys(textOf(kept).requestHeaders)).toEqual(Object.keys(given.requestHeaders));
      expect([kept.seq, kept.status, kept.requestTruncated, kept.responseTruncated]).toEqual([1, 201, false, false]);
    }
  });

  it('cuts long bodies at the limit, and keeps an entry larger than a block whole', () => {
    const long = 'é'.repeat(JOURNAL_BODY_LIMIT + 10);
    const kept = keep(record({ requestBody: long, responseBody: long }), 2, new JournalBytes());
    expect(kept.requestTruncated && kept.responseTruncated).toBe(true);
    expect(textOf(kept).requestBody).toBe(long.slice(0, JOURNAL_BODY_LIMIT));
    expect(textOf(kept).responseBody).toBe(long.slice(0, JOURNAL_BODY_LIMIT));
  });

  it('keeps every entry of many across blocks', () => {
    const bytes = new JournalBytes();
    const kept = Array.from({ length: 300 }, (_, i) =>
      keep(record({ target: `/s2s/users/${i}`, responseBody: `{"n":${i},"pad":"${'ü'.repeat(i * 3)}"}` }), i, bytes),
    );
    kept.forEach((e, i) => {
      expect(targetOf(e)).toBe(`/s2s/users/${i}`);
      expect(textOf(e).responseBody).toBe(`{"n":${i},"pad":"${'ü'.repeat(i * 3)}"}`);
      expect(textOf(e).requestBody).toBe(record().requestBody);
    });
    expect(new Set(kept.map((e) => e.bytes)).size).toBeGreaterThan(1);
  });
});
