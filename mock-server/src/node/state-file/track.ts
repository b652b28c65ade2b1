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

/** Every proxy made here → the object it stands for. */
const targetOf = new WeakMap<object, object>();

/** The plain object or array behind `value` (through our proxies and the index's filing proxies). */
export function unwrap<T>(value: T): T {
  let at: unknown = value;
  for (;;) {
    if (typeof at !== 'object' || at === null) return at as T;
    const next = targetOf.get(at) ?? indexedCollectionOf.get(at);
    if (next === undefined) return at as T;
    at = next;
  }
}

/** True for a plain JSON object (a collection part), not an array. */
export function isCollection(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A property read through a tracking proxy: an object comes wrapped by `wrap` (so writes inside it are seen), except
 * the index's filing proxy, which wraps our proxy of the collection already and is handed out as it is.
 */
function read(target: object, k: string | symbol, wrap: (value: object, name: string) => object): unknown {
  const value: unknown = Reflect.get(target, k);
  if (typeof value !== 'object' || value === null || typeof k !== 'string') return value;
  if (indexedCollectionOf.has(value)) return value;
  return wrap(value, k);
}

/** A tracked root: the raw object (for writing it out) and the proxy the mock uses instead of it. */
export interface Tracked<T extends object> {
  readonly raw: T;
  readonly proxy: T;
}

/**
 * Wraps `raw` (taken apart from any earlier proxies first) so that every write through the result calls `mark`.
 * `byKey: false` marks every write as a write of its whole part (tenant fields, where one row holds all).
 */
export function track<T extends object>(given: T, mark: Mark, byKey = true): Tracked<T> {
  const raw = unwrap(given);
  // Writes store raw values: a proxy put into the state (an object read through it) is taken apart again.
  for (const key of Object.keys(raw)) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) (raw as Record<string, unknown>)[key] = unwrap(value);
  }
  const proxies = new WeakMap<object, object>();
  const wrap = (target: object, part: string, key: string | undefined, depth: number): object => {
    let proxy = proxies.get(target);
    if (!proxy) {
      proxy = new Proxy(target, handler(part, key, depth));
      proxies.set(target, proxy);
      targetOf.set(proxy, target);
    }
    return proxy;
  };
  const handler = (part: string, key: string | undefined, depth: number): ProxyHandler<object> => {
    // depth 1: the part itself; its keys are entries when it is a collection. Deeper: inside entry `key`.
    const entry = (k: string | symbol) =>
      depth === 1 ? (isCollection(targetAt(part)) && typeof k === 'string' ? k : undefined) : key;
    return {
      get: (target, k) => read(target, k, (value, name) => wrap(value, part, entry(name), depth + 1)),
      set(target, k, value) {
        mark(part, byKey ? entry(k) : undefined);
        return Reflect.set(target, k, unwrap(value));
      },
      deleteProperty(target, k) {
        mark(part, byKey ? entry(k) : undefined);
        return Reflect.deleteProperty(target, k);
      },
      defineProperty(target, k, descriptor) {
        mark(part, byKey ? entry(k) : undefined);
        return Reflect.defineProperty(target, k, descriptor);
      },
    };
  };
  const targetAt = (part: string) => unwrap((raw as Record<string, unknown>)[part]);
  const proxy = new Proxy(raw, {
    get: (target, k) => read(target, k, (value, name) => wrap(value, name, undefined, 1)),
    set(target, k, value) {
      // The index wrapping a collection in its filing proxy changes no data: not a write.
      if (!(typeof k === 'string' && unwrap(value) === targetAt(k))) mark(String(k), undefined);
      return Reflect.set(target, k, indexedCollectionOf.has(value as object) ? value : unwrap(value));
    },
    deleteProperty(target, k) {
      mark(String(k), undefined);
      return Reflect.deleteProperty(target, k);
    },
    defineProperty(target, k, descriptor) {
      mark(String(k), undefined);
      return Reflect.defineProperty(target, k, descriptor);
    },
  });
  targetOf.set(proxy, raw);
  return { raw, proxy: proxy as T };
}
