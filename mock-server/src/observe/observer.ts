/**
 * The observer of one mock: per tenant, a ring of the latest exchanges (the request journal) and a ring of the
 * latest domain events, and the live subscribers (the event stream, the browser mock's devtools hook).
 * Transport-free and browser-safe: the msw handlers, the standalone server and the service worker share it.
 * @module
 */
import { iso } from '../clock';
import type { DomainObserver } from '../domain/events';
import type { MockEventInput } from '../domain/events';
import { eventMatches, type EventFilter, type MockEvent } from './events';
import {
  entryOf,
  exchangeMatches,
  keep,
  summaryOf,
  type ExchangeRecord,
  type JournalEntry,
  type JournalSummary,
  type RequestFilter,
  type StoredExchange,
} from './journal';
import { Ring } from './ring';
import { type Usage, UsageRecorder } from './usage';

/** How much each tenant keeps (ring buffer sizes). */
export interface ObserveOptions {
  /** Exchanges kept in the request journal per tenant (default {@link DEFAULT_JOURNAL_SIZE}; 0 keeps none). */
  requests?: number;
  /** Domain events kept per tenant (default {@link DEFAULT_EVENT_LOG_SIZE}; 0 keeps none). */
  events?: number;
  /** Aggregate what each tenant's consumer used (operations, statuses, fields): `usage()`, `GET /__mock/usage`. */
  usage?: boolean;
}

/** Exchanges the journal keeps per tenant by default: with bodies cut at 16 KiB, at most about 16 MiB. */
export const DEFAULT_JOURNAL_SIZE = 500;
/** Domain events kept per tenant by default (a few hundred bytes each). */
export const DEFAULT_EVENT_LOG_SIZE = 1000;

/** What a live subscriber receives. */
export type ObservedMessage = { kind: 'request'; request: JournalSummary } | { kind: 'event'; event: MockEvent };

/** A live subscriber. */
export type ObservedListener = (message: ObservedMessage) => void;

/** An event as kept: instants as numbers, made into text only when it is read. */
interface StoredEvent {
  input: MockEventInput;
  seq: number;
  at: number;
  recordedAt: number;
  requestId: string | null;
}

interface TenantLog {
  requests: Ring<StoredExchange>;
  events: Ring<StoredEvent>;
}

function eventOf(tenant: string, e: StoredEvent): MockEvent {
  return {
    ...e.input,
    seq: e.seq,
    tenant,
    at: iso(e.at),
    recordedAt: iso(e.recordedAt),
    requestId: e.requestId,
  } as MockEvent;
}

/** What the observer reads from the mock: the api secrets to redact and each tenant's virtual clock. */
export interface ObserverSource {
  /** Every api secret the mock holds now (redacted wherever they appear). */
  secrets(): readonly string[];
  /** Epoch ms of a tenant's virtual clock now. */
  virtualNow(tenant: string): number;
}

/** The request journal and event log of one mock. */
export class Observer {
  readonly journalSize: number;
  readonly eventLogSize: number;
  /** What each tenant's consumer used, when the mock records usage. */
  readonly usage: UsageRecorder | undefined;
  readonly #logs = new Map<string, TenantLog>();
  readonly #listeners = new Set<{ tenant: string | null; listener: ObservedListener }>();
  #seq = 0;
  /** The request whose control action runs now (set around a synchronous control route). */
  #during: string | null = null;

  constructor(
    private readonly source: ObserverSource,
    options: ObserveOptions = {},
  ) {
    this.journalSize = checkSize(options.requests ?? DEFAULT_JOURNAL_SIZE, 'requests');
    this.eventLogSize = checkSize(options.events ?? DEFAULT_EVENT_LOG_SIZE, 'events');
    this.usage = options.usage ? new UsageRecorder() : undefined;
  }

  /** Forgets what every tenant's journal and event log kept (a test that starts afresh sees only its own). */
  forget(): void {
    this.#logs.clear();
  }

  #log(tenant: string): TenantLog {
    let log = this.#logs.get(tenant);
    if (!log) {
      log = { requests: new Ring(this.journalSize), events: new Ring(this.eventLogSize) };
      this.#logs.set(tenant, log);
    }
    return log;
  }

  /** Records an answered exchange. */
  record(exchange: ExchangeRecord): void {
    this.usage?.record(exchange);
    if (this.journalSize === 0 && this.#listeners.size === 0) return;
    const stored = keep(exchange, ++this.#seq);
    this.#log(exchange.tenant).requests.push(stored);
    if (this.#listeners.size > 0)
      this.#tell(exchange.tenant, { kind: 'request', request: summaryOf(stored, this.source.secrets()) });
  }

  /** What a tenant's consumer used so far (empty, `recording: false`, when the mock does not record usage). */
  usageOf(tenant: string): Usage {
    return (
      this.usage?.usage(tenant, this.source.secrets()) ?? {
        usageVersion: 1,
        generatedBy: 'card-issuing-mock',
        tenant,
        recording: false,
        operations: [],
      }
    );
  }

  /** Records a domain event of a tenant; `at` defaults to the tenant's virtual now. */
  emit(tenant: string, input: MockEventInput, options: { at?: number; requestId?: string | null } = {}): void {
    if (this.eventLogSize === 0 && this.#listeners.size === 0) return;
    const stored: StoredEvent = {
      input,
      seq: ++this.#seq,
      at: options.at ?? this.source.virtualNow(tenant),
      recordedAt: Date.now(),
      requestId: options.requestId ?? this.#during,
    };
    this.#log(tenant).events.push(stored);
    if (this.#listeners.size > 0) this.#tell(tenant, { kind: 'event', event: eventOf(tenant, stored) });
  }

  /**
   * The emitter a domain context of `tenant` uses, linking its events to `requestId` (default: the request whose
   * control action runs now, if any).
   */
  emitter(tenant: string, requestId: string | null = this.#during): DomainObserver | undefined {
    if (this.eventLogSize === 0 && this.#listeners.size === 0) return undefined;
    return ({ at, ...input }) => {
      this.emit(tenant, input, { at: Date.parse(at), requestId });
    };
  }

  /** Runs a control route's synchronous action, so that the events it emits name the request that asked for it. */
  during<T>(requestId: string, action: () => T): T {
    const outer = this.#during;
    this.#during = requestId;
    try {
      return action();
    } finally {
      this.#during = outer;
    }
  }

  /** A tenant's journal, newest first, redacted. */
  requests(tenant: string, filter: RequestFilter = {}): JournalEntry[] {
    const secrets = this.source.secrets();
    return this.#select(tenant, filter, (e) => entryOf(e, secrets));
  }

  /** A tenant's journal without bodies, newest first. */
  requestSummaries(tenant: string, filter: RequestFilter = {}): JournalSummary[] {
    const secrets = this.source.secrets();
    return this.#select(tenant, filter, (e) => summaryOf(e, secrets));
  }

  #select<T>(tenant: string, filter: RequestFilter, map: (e: StoredExchange) => T): T[] {
    const out: T[] = [];
    const limit = filter.limit ?? Number.POSITIVE_INFINITY;
    for (const e of this.#logs.get(tenant)?.requests.newestFirst() ?? []) {
      if (out.length >= limit) break;
      if (exchangeMatches(e, filter)) out.push(map(e));
    }
    return out;
  }

  /** A tenant's events, oldest first (the order they happened in); `limit` keeps the newest of them. */
  events(tenant: string, filter: EventFilter = {}): MockEvent[] {
    const matching = (this.#logs.get(tenant)?.events.oldestFirst() ?? [])
      .map((e) => eventOf(tenant, e))
      .filter((e) => eventMatches(e, filter));
    const limit = filter.limit;
    return limit !== undefined && matching.length > limit ? matching.slice(matching.length - limit) : matching;
  }

  /** How many exchanges and events of a tenant were recorded and how many are still kept. */
  stats(tenant: string): {
    requests: { kept: number; recorded: number; capacity: number };
    events: { kept: number; recorded: number; capacity: number };
  } {
    const log = this.#log(tenant);
    return {
      requests: { kept: log.requests.size, recorded: log.requests.pushed, capacity: this.journalSize },
      events: { kept: log.events.size, recorded: log.events.pushed, capacity: this.eventLogSize },
    };
  }

  /** Calls `listener` with every exchange and event of `tenant` (null: of every tenant); returns the function that stops it. */
  subscribe(tenant: string | null, listener: ObservedListener): () => void {
    const entry = { tenant, listener };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  #tell(tenant: string, message: ObservedMessage): void {
    for (const { tenant: wanted, listener } of this.#listeners) {
      if (wanted !== null && wanted !== tenant) continue;
      try {
        listener(message);
      } catch {
        // A subscriber's failure (a closed stream) must not fail the request that produced the message.
      }
    }
  }
}

function checkSize(size: number, what: string): number {
  if (!Number.isInteger(size) || size < 0 || size > 1_000_000)
    throw new TypeError(`observe.${what} is a whole number from 0 to 1000000, not ${size}.`);
  return size;
}
