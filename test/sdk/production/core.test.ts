import { afterEach, describe, expect, it, vi } from 'vitest';
import { BROWSER_SECRET_MESSAGE, assertSecretAllowedHere, isBrowserRuntime } from '../../../sdk/src/core/browser-guard';
import { createClientClock } from '../../../sdk/src/core/clock';
import { offsetFromDate } from '../../../sdk/src/core/clock-skew';
import { mergeHeaders } from '../../../sdk/src/core/headers';
import { createLog, formatAttempt, type Logger } from '../../../sdk/src/core/logger';

const spy = () => {
  const lines: [string, string][] = [];
  const logger: Logger = {
    debug: (m) => lines.push(['debug', m]),
    info: (m) => lines.push(['info', m]),
    warn: (m) => lines.push(['warn', m]),
    error: (m) => lines.push(['error', m]),
  };
  return { lines, logger };
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('the log', () => {
  it('filters by level: warn by default, the option first, then CARD_ISSUING_LOG', () => {
    vi.stubEnv('CARD_ISSUING_LOG', '');
    const a = spy();
    const log = createLog({ logger: a.logger });
    log.debug('d');
    log.warn('w');
    expect(a.lines).toEqual([['warn', 'w']]);
    vi.stubEnv('CARD_ISSUING_LOG', 'DEBUG');
    expect(createLog({ logger: a.logger }).level).toBe('debug');
    expect(createLog({ logger: a.logger, logLevel: 'error' }).level).toBe('error');
    vi.stubEnv('CARD_ISSUING_LOG', 'loud');
    expect(createLog({ logger: a.logger }).level).toBe('warn');
  });

  it('redacts the secret and card data from every line, and survives a logger that throws', () => {
    const a = spy();
    const log = createLog({ logger: a.logger, logLevel: 'debug', secrets: ['sk_1'] });
    log.info('secret sk_1 card 4111111111111111');
    expect(a.lines).toEqual([['info', 'secret [REDACTED] card [REDACTED]']]);
    const throwing = createLog({
      logger: {
        ...a.logger,
        warn: () => {
          throw new Error('disk full');
        },
      },
    });
    expect(() => throwing.warn('x')).not.toThrow();
  });

  it('refuses a logger without the four methods and an unknown level', () => {
    expect(() => createLog({ logger: { info() {} } as unknown as Logger })).toThrow(
      /logger must have a debug\(\) method/,
    );
    expect(() => createLog({ logLevel: 'verbose' as never })).toThrow(/logLevel must be one of/);
  });

  it('formats an attempt as one key=value line', () => {
    expect(
      formatAttempt({
        method: 'GET',
        path: '/s2s/users/u1',
        status: 200,
        durationMs: 12.4,
        requestId: 'req_1',
        retry: 0,
        clockOffsetMs: -360000,
      }),
    ).toBe(
      'card-issuing-sdk: GET /s2s/users/u1 status=200 duration=12ms requestId=req_1 retry=0 clockOffset=-360000ms',
    );
  });
});

describe('the client clock', () => {
  it('reads the offset from a Date header, taking the middle of the exchange and the half second Date drops', () => {
    const sentAt = Date.parse('2026-11-25T10:00:00.000Z');
    expect(offsetFromDate('Wed, 25 Nov 2026 10:06:00 GMT', sentAt, sentAt + 200)).toBe(6 * 60_000 + 500 - 100);
    expect(offsetFromDate(null, sentAt)).toBeUndefined();
    expect(offsetFromDate('yesterday-ish', sentAt)).toBeUndefined();
  });

  it('is settable and refuses what is not a number of milliseconds', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const clock = createClientClock();
      clock.offsetMs = 5000;
      expect(clock.now()).toBe(1_005_000);
      expect(() => (clock.offsetMs = Number.NaN)).toThrow(/finite number/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('headers', () => {
  it('merges the client layer and the call layer, a call removing a client header with undefined', () => {
    expect(
      mergeHeaders('x', { traceparent: 'a', 'X-Tenant': 't1' }, { TraceParent: 'b', 'x-tenant': undefined }),
    ).toEqual({ traceparent: 'b' });
    expect(mergeHeaders('x', new Headers({ 'x-a': '1' }))).toEqual({ 'x-a': '1' });
  });

  it.each(['Authorization', 'authorization', 'Idempotency-Key'])('refuses %s', (name) => {
    expect(() => mergeHeaders('createCardIssuingClient', { [name]: 'x' })).toThrow(
      new RegExp(`the ${name} header cannot be set`),
    );
  });

  it('refuses a line break in a value (header injection)', () => {
    expect(() => mergeHeaders('x', { 'x-a': 'a\r\nAuthorization: b' })).toThrow(/without line breaks/);
  });
});

describe('the browser guard', () => {
  it('is no browser in Node, even with jsdom-like window and document', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(isBrowserRuntime()).toBe(false);
  });

  it('refuses a secret where window, document and navigator exist and Node does not, unless the flag is given', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('process', undefined);
    expect(isBrowserRuntime()).toBe(true);
    expect(() => assertSecretAllowedHere({ apiSecret: 's' })).toThrow(BROWSER_SECRET_MESSAGE);
    expect(() => assertSecretAllowedHere({ apiSecret: 's', dangerouslyAllowBrowser: true })).not.toThrow();
  });
});
