/**
 * An open state file: every change to the mock's state is written to its SQLite database before the change is
 * acknowledged. The tenants' states are watched (track.ts), so a commit writes the rows that changed, whatever the
 * size of the state; every change of one event-loop tick, and every change made while a commit is on its way, shares
 * one commit (group commit); commits run in a thread of their own (commit-thread.ts). A commit that fails is never
 * acknowledged (the requests get 503) and its rows go with the next one.
 * @module
 */
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { forgetIndex, type Tenant, type TenantRegistry } from '../../store';
import type { WriteAheadLog } from '../../pipeline/wal';
import type { CommitThread, RowOp } from './commit-thread';
import { isCollection, track, unwrap, type Tracked } from './track';

/** What changed in one tenant since the last commit. */
interface Dirty {
  /** Everything (a new tenant, a reset, a restore). */
  all: boolean;
  /** The tenant's row (its fields other than the state: faults, ...). */
  fields: boolean;
  /** Parts written whole. */
  parts: Set<string>;
  /** Entries of collections. */
  entries: Map<string, Set<string>>;
}

interface Changes {
  replaced: boolean;
  tenants: Map<string, Dirty>;
}

interface Waiter {
  ticket: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Fields of a tenant that are not kept as its row: its key (the row's key) and its state (parts and entries). */
const NOT_FIELDS = new Set(['apiKey', 'state']);

/** Options of a state file. */
export interface StateFileOptions {
  /** Told why a commit failed (the requests of that batch get 503); the server logs it. */
  onError?: (error: unknown) => void;
}

/** An open state file: the mock's durability seam (the runtime's `WriteAheadLog`). */
export class StateFile implements WriteAheadLog {
  /** True when the file held a state at open. */
  readonly loaded: boolean;
  /** How many times a server has started on this file, this start included (1: the first); kept in the file. */
  readonly starts: number;
  /** The file an older state file was moved to when it was converted at open, else undefined. */
  readonly convertedFrom: string | undefined;
  /** Counts since open: commits (one fsync each) and rows written. */
  readonly stats = { batches: 0, records: 0 };
  readonly #registry: TenantRegistry;
  readonly #thread: CommitThread;
  readonly #release: () => Promise<void>;
  readonly #options: StateFileOptions;
  readonly #tracked = new WeakMap<Tenant, Tracked<Record<string, unknown>>>();
  #changes: Changes = { replaced: false, tenants: new Map() };
  #writtenDefault: string | undefined;
  #seq = 0;
  #durable = 0;
  #waiters: Waiter[] = [];
  #running: Promise<void> | undefined;
  #scheduled = false;
  #closed = false;

  constructor(
    file: string,
    registry: TenantRegistry,
    thread: CommitThread,
    release: () => Promise<void>,
    options: StateFileOptions,
    at: {
      loaded: boolean;
      convertedFrom?: string | undefined;
      writtenDefault?: string | undefined;
      /** The tenants the file held (any other tenant now was added since, and is written whole at start). */
      stored?: readonly string[];
      /** This start's number ({@link StateFile.starts}; default 1). */
      starts?: number;
    },
  ) {
    this.#registry = registry;
    this.#thread = thread;
    this.#release = release;
    this.#options = options;
    this.loaded = at.loaded;
    this.starts = at.starts ?? 1;
    this.convertedFrom = at.convertedFrom;
    this.#writtenDefault = at.writtenDefault;
    this.#stored = new Set(at.stored ?? []);
    this.#sideFiles = ['-wal', '-shm'].map((end) => ({ path: `${file}${end}`, existed: existsSync(`${file}${end}`) }));
  }

  readonly #sideFiles: { path: string; existed: boolean }[];

  readonly #stored: Set<string>;

  /**
   * Watches every tenant from now on and commits once: the whole state when the file was new or converted, else
   * nothing but the proof that the file can be written (a read-only file or a full disk fails here, at start).
   */
  async start(writeAll: boolean): Promise<void> {
    this.#registry.onTenants = (tenants, replacedAll) => {
      for (const tenant of tenants) this.#watch(tenant);
      if (replacedAll) this.#changes = { replaced: true, tenants: new Map() };
      else for (const tenant of tenants) this.#dirtyOf(tenant.apiKey).all = true;
      this.#touch();
    };
    for (const tenant of this.#registry.all()) {
      this.#watch(tenant);
      if (!this.#stored.has(tenant.apiKey)) this.#dirtyOf(tenant.apiKey).all = true;
    }
    if (writeAll) this.#changes.replaced = true;
    const ops = this.#take().ops;
    ops.push(['meta', 'openedAt', new Date().toISOString()]);
    // Counted before the server listens, so that even a start killed at once is never given to the next one again.
    ops.push(['meta', 'starts', String(this.starts)]);
    try {
      await this.#thread.commit(ops);
    } catch (error) {
      // Refused at start: close, and take away the -wal and -shm that SQLite made for this try (and only those),
      // so that the folder is as it was.
      this.#closed = true;
      this.#registry.onTenants = undefined;
      await this.#thread.close().catch(() => undefined);
      for (const side of this.#sideFiles) if (!side.existed) await unlink(side.path).catch(() => undefined);
      await this.#release();
      throw error;
    }
  }

  /** The ticket of the last change made (every change is marked as it happens). */
  head(): number {
    return this.#seq;
  }

  /** A command the mock recorded: its change was marked as it happened; the ticket covers it. */
  record(): number {
    return this.#seq;
  }

  /** Resolves once every change up to `ticket` is committed; rejects when its commit failed. */
  durable(ticket: number): Promise<void> {
    if (ticket <= this.#durable) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ ticket, resolve, reject }));
  }

  /** Commits what is pending, closes the database and releases the lock. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#registry.onTenants = undefined;
    await this.#running;
    try {
      if (this.#pending()) await this.#commitOnce();
    } finally {
      await this.#thread.close().catch(() => undefined);
      await this.#release();
    }
  }

  /** Makes `tenant.state` and the tenant's other fields tracked properties of the tenant object. */
  #watch(tenant: Tenant): void {
    const apiKey = tenant.apiKey;
    const markState = (part: string, key: string | undefined) => this.#mark(apiKey, part, key);
    const markFields = () => {
      this.#dirtyOf(apiKey).fields = true;
      this.#touch();
    };
    const adopt = (value: unknown) => {
      const tracked = track(value as Record<string, unknown>, markState);
      forgetIndex(tracked.raw as never);
      this.#tracked.set(tenant, tracked);
      return tracked;
    };
    let state = adopt(tenant.state);
    Object.defineProperty(tenant, 'state', {
      get: () => state.proxy,
      set: (value: unknown) => {
        state = adopt(value);
        this.#dirtyOf(apiKey).all = true;
        this.#touch();
      },
      enumerable: true,
      configurable: true,
    });
    for (const name of Object.keys(tenant)) {
      if (NOT_FIELDS.has(name)) continue;
      const wrap = (value: unknown) =>
        typeof value === 'object' && value !== null ? track(value, markFields, false).proxy : value;
      let current = wrap((tenant as unknown as Record<string, unknown>)[name]);
      Object.defineProperty(tenant, name, {
        get: () => current,
        set: (value: unknown) => {
          current = wrap(value);
          markFields();
        },
        enumerable: true,
        configurable: true,
      });
    }
  }

  #dirtyOf(apiKey: string): Dirty {
    let dirty = this.#changes.tenants.get(apiKey);
    if (!dirty) {
      dirty = { all: false, fields: false, parts: new Set(), entries: new Map() };
      this.#changes.tenants.set(apiKey, dirty);
    }
    return dirty;
  }

  #mark(apiKey: string, part: string, key: string | undefined): void {
    const dirty = this.#dirtyOf(apiKey);
    if (!dirty.all) {
      if (key === undefined) dirty.parts.add(part);
      else {
        const keys = dirty.entries.get(part);
        if (keys) keys.add(key);
        else dirty.entries.set(part, new Set([key]));
      }
    }
    this.#touch();
  }

  #touch(): void {
    this.#seq++;
    if (this.#scheduled || this.#running || this.#closed) return;
    this.#scheduled = true;
    // setImmediate: every change of this tick (all the requests the poll phase handed over) shares the commit.
    setImmediate(() => {
      this.#scheduled = false;
      if (!this.#closed) this.#running = this.#drain();
    });
  }

  #pending(): boolean {
    return (
      this.#changes.replaced || this.#changes.tenants.size > 0 || this.#registry.default.apiKey !== this.#writtenDefault
    );
  }

  /** Commits until nothing is pending; stops at a failure (a timer tries again, or the next change). */
  async #drain(): Promise<void> {
    try {
      while (this.#pending() && !this.#closed) {
        if (!(await this.#commitOnce())) return;
      }
    } finally {
      this.#running = undefined;
    }
  }

  /** One commit of everything pending now; false when it failed (its changes stay pending). */
  async #commitOnce(): Promise<boolean> {
    const upTo = this.#seq;
    const { ops, taken } = this.#take();
    const defaultKey = this.#registry.default.apiKey;
    try {
      await this.#thread.commit(ops);
      this.#writtenDefault = defaultKey;
      this.stats.batches++;
      this.stats.records += ops.length;
      this.#settle(upTo);
      return true;
    } catch (error) {
      this.#putBack(taken);
      this.#fail(upTo, error);
      this.#options.onError?.(error);
      setTimeout(() => {
        if (!this.#closed && !this.#running && this.#pending()) this.#running = this.#drain();
      }, 1000).unref();
      return false;
    }
  }

  /** The row operations of everything pending, serialised now (the state keeps changing after this turn). */
  #take(): { ops: RowOp[]; taken: Changes } {
    const taken = this.#changes;
    this.#changes = { replaced: false, tenants: new Map() };
    const ops: RowOp[] = [];
    if (taken.replaced) {
      ops.push(['clear']);
      const all = (): Dirty => ({ all: true, fields: true, parts: new Set(), entries: new Map() });
      for (const tenant of this.#registry.all()) this.#tenantOps(ops, tenant, all());
    } else {
      for (const [apiKey, dirty] of taken.tenants) {
        const tenant = this.#registry.get(apiKey);
        if (tenant) this.#tenantOps(ops, tenant, dirty);
        else ops.push(['dropTenant', apiKey]);
      }
    }
    if (taken.replaced || this.#registry.default.apiKey !== this.#writtenDefault) {
      ops.push(['meta', 'defaultApiKey', this.#registry.default.apiKey]);
    }
    // `clear` empties the mock table too: the count of starts is written again with everything else.
    if (taken.replaced) ops.push(['meta', 'starts', String(this.starts)]);
    return { ops, taken };
  }

  #tenantOps(ops: RowOp[], tenant: Tenant, dirty: Dirty): void {
    const apiKey = tenant.apiKey;
    if (dirty.all || dirty.fields) ops.push(fieldsOp(tenant));
    const raw = this.#tracked.get(tenant)?.raw ?? (unwrap(tenant.state) as unknown as Record<string, unknown>);
    if (dirty.all) {
      ops.push(['clearTenant', apiKey]);
      for (const part of Object.keys(raw)) partOps(ops, apiKey, part, raw);
      return;
    }
    for (const part of dirty.parts) partOps(ops, apiKey, part, raw);
    for (const [part, keys] of dirty.entries) {
      if (!dirty.parts.has(part)) entryOps(ops, apiKey, part, keys, raw);
    }
  }

  /** A failed commit's changes, pending again (before anything marked since). */
  #putBack(taken: Changes): void {
    if (taken.replaced || this.#changes.replaced) {
      this.#changes = { replaced: true, tenants: new Map() };
      return;
    }
    for (const [apiKey, was] of taken.tenants) {
      const now = this.#dirtyOf(apiKey);
      now.all ||= was.all;
      now.fields ||= was.fields;
      for (const part of was.parts) now.parts.add(part);
      for (const [part, keys] of was.entries) {
        const into = now.entries.get(part) ?? new Set<string>();
        for (const key of keys) into.add(key);
        now.entries.set(part, into);
      }
    }
  }

  #settle(upTo: number): void {
    if (upTo > this.#durable) this.#durable = upTo;
    const still: Waiter[] = [];
    for (const w of this.#waiters) w.ticket <= this.#durable ? w.resolve() : still.push(w);
    this.#waiters = still;
  }

  #fail(upTo: number, error: unknown): void {
    const still: Waiter[] = [];
    for (const w of this.#waiters) w.ticket <= upTo ? w.reject(error) : still.push(w);
    this.#waiters = still;
  }
}

/** The tenant's row: its fields other than the api key and the state (secret, faults, overrides, ...). */
function fieldsOp(tenant: Tenant): RowOp {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(tenant)) if (!NOT_FIELDS.has(name)) fields[name] = unwrap(value);
  return ['tenant', tenant.apiKey, JSON.stringify(fields)];
}

/** The rows of the changed entries of a collection (the part whole when it is no longer a collection). */
function entryOps(
  ops: RowOp[],
  apiKey: string,
  part: string,
  keys: Iterable<string>,
  raw: Record<string, unknown>,
): void {
  const collection = unwrap(raw[part]);
  if (!isCollection(collection)) {
    partOps(ops, apiKey, part, raw);
    return;
  }
  for (const key of keys) {
    const value = collection[key];
    if (value === undefined) ops.push(['delete', apiKey, part, key]);
    else ops.push(['put', apiKey, part, key, JSON.stringify(value)]);
  }
}

/** The rows of one part written whole: its row (JSON, or NULL for a collection) and, for a collection, every entry. */
function partOps(ops: RowOp[], apiKey: string, part: string, raw: Record<string, unknown>): void {
  const value = unwrap(raw[part]);
  if (value === undefined) {
    ops.push(['dropPart', apiKey, part]);
    return;
  }
  ops.push(['clearPart', apiKey, part]);
  if (!isCollection(value)) {
    ops.push(['part', apiKey, part, JSON.stringify(value)]);
    return;
  }
  ops.push(['part', apiKey, part, null]);
  for (const [key, entry] of Object.entries(value)) ops.push(['put', apiKey, part, key, JSON.stringify(entry)]);
}
