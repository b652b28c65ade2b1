/**
 * Change tracking for the state file: a tenant's state (and its other persisted fields, such as faults) is reached
 * through proxies that note which part of it every write touches, so that a commit writes only what changed. The
 * state is plain JSON data; a *part* is one of its top-level fields, and a part that is an object (a collection:
 * `users`, `authorizations`, `clock`, or any part another module adds) is kept one row per key, every other part
 * (arrays, numbers) as one row. A write anywhere inside a collection's entry marks that entry; any other write marks
 * its whole part. Nothing here knows the parts by name: new state persists with no change here.
 * @module
 */
import { indexedCollectionOf } from '../../store/indexes';

/** Told of every write: the part, and the key inside it (undefined: the whole part). */
export type Mark = (part: string, key: string | undefined) => void;

/**
 * Read through any proxy made here, the object it stands for (a key no JSON state has). A trap answers it, rather
 * than a WeakMap of every proxy ever made: that map held an entry per record read, which every garbage collection
 * walked.
 */
const RAW: unique symbol = Symbol('tracked object');

/** The plain object or array behind `value` (through our proxies and the index's filing proxies). */
export function unwrap<T>(value: T): T {
  let at: unknown = value;
  for (;;) {
    if (typeof at !== 'object' || at === null) return at as T;
    const next = (at as { [RAW]?: object })[RAW] ?? indexedCollectionOf.get(at);
    if (next === undefined || next === at) return at as T;
    at = next;
  }
}

/** True for a plain JSON object (a collection part), not an array. */
export function isCollection(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A tracked root: the raw object (for writing it out) and the proxy the mock uses instead of it. */
export interface Tracked<T extends object> {
  readonly raw: T;
  readonly proxy: T;
}

/** The array methods that {@link Inner} runs itself: each calls back once per element and changes nothing. */
const SCANS = new Set(['filter', 'map', 'find', 'findIndex', 'some', 'every', 'forEach']);
type Scan = 'filter' | 'map' | 'find' | 'findIndex' | 'some' | 'every' | 'forEach';

/** What every proxy of one tracked root shares. */
interface Root {
  readonly raw: Record<string, unknown>;
  readonly mark: Mark;
  readonly byKey: boolean;
  /** Each object reached → its one proxy (the same object always comes back as the same proxy). */
  readonly proxies: WeakMap<object, object>;
}

/**
 * The traps of the proxy of an object inside part `part` (depth 1: the part itself; deeper: inside entry `key`).
 * One handler object per proxy, its methods on the prototype: a read makes no closure, and a part's kind (a
 * collection or not) is looked up once per value of the part, not on every trap (a read is the mock's commonest
 * operation, dozens per request).
 */
class Inner implements ProxyHandler<object> {
  /** The value of the part when `#collection` was computed. */
  #partSeen: unknown;
  #collection = false;

  constructor(
    readonly root: Root,
    readonly part: string,
    readonly key: string | undefined,
    readonly depth: number,
  ) {}

  /** The entry a write or a read of property `k` of this object is in (undefined: the whole part). */
  entry(k: string | symbol): string | undefined {
    if (this.depth !== 1) return this.key;
    const now = this.root.raw[this.part];
    if (now !== this.#partSeen) {
      this.#partSeen = now;
      this.#collection = isCollection(unwrap(now));
    }
    return this.#collection && typeof k === 'string' ? k : undefined;
  }

  get(target: object, k: string | symbol): unknown {
    if (k === RAW) return target;
    const value: unknown = Reflect.get(target, k);
    if (typeof value === 'function' && Array.isArray(target) && typeof k === 'string' && SCANS.has(k)) {
      return this.#scan(target, k as Scan);
    }
    if (typeof value !== 'object' || value === null || typeof k !== 'string') return value;
    if (indexedCollectionOf.has(value)) return value;
    return wrap(this.root, value, this.part, this.entry(k), this.depth + 1);
  }

  /**
   * An array's `filter`, `map`, `find`, ... run over its elements as a read through this proxy hands them out
   * (wrapped), as the builtins do over an array that the callback does not change. The builtins run over a proxy take
   * their slow path, a trap or two per element plus the species lookups: the domain scans small arrays (the
   * catalogue's consents) several times per request.
   */
  #scan(target: unknown[], name: Scan): (...args: never[]) => unknown {
    const proxy = this.root.proxies.get(target);
    return (callback: (value: unknown, index: number, array: unknown) => unknown, thisArg?: unknown) => {
      // The elements as reads hand them out (the array's holes kept), then the builtin over that plain array.
      const elements = target.map((value, i) => {
        if (typeof value !== 'object' || value === null || indexedCollectionOf.has(value)) return value;
        return wrap(this.root, value, this.part, this.depth === 1 ? this.entry(String(i)) : this.key, this.depth + 1);
      });
      return (elements[name] as (f: (value: unknown, index: number) => unknown) => unknown)((value, i) =>
        callback.call(thisArg, value, i, proxy),
      );
    };
  }

  set(target: object, k: string | symbol, value: unknown): boolean {
    this.root.mark(this.part, this.root.byKey ? this.entry(k) : undefined);
    return Reflect.set(target, k, unwrap(value));
  }

  deleteProperty(target: object, k: string | symbol): boolean {
    this.root.mark(this.part, this.root.byKey ? this.entry(k) : undefined);
    return Reflect.deleteProperty(target, k);
  }

  defineProperty(target: object, k: string | symbol, descriptor: PropertyDescriptor): boolean {
    this.root.mark(this.part, this.root.byKey ? this.entry(k) : undefined);
    return Reflect.defineProperty(target, k, descriptor);
  }
}

/** The traps of a root's own proxy: each property is a part. */
class Outer implements ProxyHandler<Record<string, unknown>> {
  constructor(readonly root: Root) {}

  get(target: Record<string, unknown>, k: string | symbol): unknown {
    if (k === RAW) return target;
    const value: unknown = Reflect.get(target, k);
    if (typeof value !== 'object' || value === null || typeof k !== 'string') return value;
    if (indexedCollectionOf.has(value)) return value;
    return wrap(this.root, value, k, undefined, 1);
  }

  set(target: Record<string, unknown>, k: string | symbol, value: unknown): boolean {
    // The index wrapping a collection in its filing proxy changes no data: not a write.
    if (!(typeof k === 'string' && unwrap(value) === unwrap(target[k]))) this.root.mark(String(k), undefined);
    return Reflect.set(target, k, indexedCollectionOf.has(value as object) ? value : unwrap(value));
  }

  deleteProperty(target: Record<string, unknown>, k: string | symbol): boolean {
    this.root.mark(String(k), undefined);
    return Reflect.deleteProperty(target, k);
  }

  defineProperty(target: Record<string, unknown>, k: string | symbol, descriptor: PropertyDescriptor): boolean {
    this.root.mark(String(k), undefined);
    return Reflect.defineProperty(target, k, descriptor);
  }
}

/** The one proxy of `target` (made on first reach). */
function wrap(root: Root, target: object, part: string, key: string | undefined, depth: number): object {
  let proxy = root.proxies.get(target);
  if (!proxy) {
    proxy = new Proxy(target, new Inner(root, part, key, depth));
    root.proxies.set(target, proxy);
  }
  return proxy;
}

/**
 * Wraps `raw` (taken apart from any earlier proxies first) so that every write through the result calls `mark`.
 * `byKey: false` marks every write as a write of its whole part (tenant fields, where one row holds all).
 */
export function track<T extends object>(given: T, mark: Mark, byKey = true): Tracked<T> {
  const raw = unwrap(given) as Record<string, unknown>;
  // Writes store raw values: a proxy put into the state (an object read through it) is taken apart again.
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    if (typeof value === 'object' && value !== null) raw[key] = unwrap(value);
  }
  const root: Root = { raw, mark, byKey, proxies: new WeakMap() };
  const proxy = new Proxy(raw, new Outer(root));
  return { raw: raw as T, proxy: proxy as T };
}
