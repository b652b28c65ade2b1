/**
 * The SDK's log: any logger with `debug`, `info`, `warn` and `error` (console, pino, winston, a test's spy), a level,
 * and the environment variable `CARD_ISSUING_LOG` (`debug`, `info`, `warn`, `error`, `off`) that sets the level
 * where the code does not. Every line goes through redaction first: never the secret, an `Authorization` header,
 * a card number, a CVV or a JWE.
 * @module
 */
import { redactText } from './errors/redaction';

/** What the SDK logs to: console, pino, winston, or anything else with these four methods. */
export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

/** How much the SDK logs: `debug` (a line per attempt), `info`, `warn` (the default), `error`, or `off`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** True for the names of {@link LogLevel}. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** The level `CARD_ISSUING_LOG` asks for, where the runtime has an environment (Node, Deno, Bun). */
export function envLogLevel(): LogLevel | undefined {
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.CARD_ISSUING_LOG;
  } catch {
    return undefined; // Deno without --allow-env throws on read
  }
  const level = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return isLogLevel(level) ? level : undefined;
}

/** A level-filtered, redacting log. `enabled(level)` lets a caller skip building a line nobody reads. */
export interface Log {
  readonly level: LogLevel;
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What {@link createLog} takes: the client's options and the values that must never show. */
export interface LogOptions {
  logger?: Logger | undefined;
  logLevel?: LogLevel | undefined;
  /** Values redacted from every line (the api secret); card data is redacted by its form. */
  secrets?: readonly string[];
}

/**
 * The log of one client: `logLevel`, else `CARD_ISSUING_LOG`, else `warn`; to `logger`, else the console. A
 * logger that throws is ignored, so logging can never break a payment.
 */
export function createLog(options: LogOptions = {}): Log {
  if (options.logLevel !== undefined && !isLogLevel(options.logLevel)) {
    throw new TypeError(`createCardIssuingClient: logLevel must be one of ${Object.keys(RANK).join(', ')}.`);
  }
  const level = options.logLevel ?? envLogLevel() ?? 'warn';
  const logger = options.logger ?? (globalThis as { console?: Logger }).console;
  if (options.logger !== undefined) {
    for (const method of ['debug', 'info', 'warn', 'error'] as const) {
      if (typeof options.logger?.[method] !== 'function')
        throw new TypeError(`createCardIssuingClient: logger must have a ${method}() method.`);
    }
  }
  const secrets = options.secrets ?? [];
  const at = RANK[level];
  const write = (method: Exclude<LogLevel, 'off'>) => (message: string) => {
    if (RANK[method] < at || !logger) return;
    try {
      logger[method](redactText(message, secrets));
    } catch {
      // A logger's failure must never fail a request.
    }
  };
  return {
    level,
    enabled: (method) => RANK[method] >= at && logger !== undefined,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}

/** What one attempt's debug line says. */
export interface AttemptLine {
  method: string;
  /** The URL's path, without the query (a query may carry a public key: long, and no help in a log). */
  path: string;
  /** The status, or undefined when no response came (network error, timeout). */
  status: number | undefined;
  durationMs: number;
  requestId: string | undefined;
  /** 0 for the first attempt, 1 for the first retry, ... */
  retry: number;
  clockOffsetMs: number;
  /** The SDK error code of a failed attempt (`NETWORK_ERROR`, `AUTH_TIMESTAMP_SKEW`), when there is one. */
  code?: string | undefined;
}

/**
 * The one line an attempt logs at debug, `key=value` pairs after a fixed prefix so that a person reads it and a
 * log pipeline parses it: `card-issuing-sdk: GET /s2s/users/… status=200 duration=12ms requestId=req_… retry=0 clockOffset=0ms`.
 */
export function formatAttempt(line: AttemptLine): string {
  const parts = [
    `card-issuing-sdk: ${line.method} ${line.path}`,
    `status=${line.status ?? 'none'}`,
    `duration=${Math.round(line.durationMs)}ms`,
    `requestId=${line.requestId ?? 'none'}`,
    `retry=${line.retry}`,
    `clockOffset=${Math.round(line.clockOffsetMs)}ms`,
  ];
  if (line.code) parts.push(`code=${line.code}`);
  return parts.join(' ');
}
