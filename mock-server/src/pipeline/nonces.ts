/**
 * The nonce cache of signature checks, bounded: a nonce is kept while its timestamp is within the skew window
 * (so a replay inside the window is refused), and at most {@link MAX_NONCES} are kept in all, the oldest
 * forgotten first, so that a flood of requests cannot grow memory without end.
 * @module
 */
import { NonceCache } from 'card-issuing-sdk';
import { wallNow } from '../clock';

/** At most this many nonces are remembered (all tenants together). */
export const MAX_NONCES = 20_000;

/** A {@link NonceCache} (what `verifySignature` takes) with a count cap. */
export class BoundedNonceCache extends NonceCache {
  // Insertion order is arrival order; expiries grow with it (timestamp + window), so both prunes work on the head.
  readonly #seen = new Map<string, number>();

  constructor(readonly max = MAX_NONCES) {
    super();
  }

  /** How many nonces are kept now. */
  get size(): number {
    return this.#seen.size;
  }

  override checkAndRecord(apiKey: string, nonce: string, nowSeconds: number, expiresAt: number): boolean {
    for (const [id, until] of this.#seen) {
      if (until > nowSeconds && this.#seen.size < this.max) break;
      this.#seen.delete(id);
    }
    const id = `${apiKey}:${nonce.toLowerCase()}`;
    if (this.#seen.has(id)) return true;
    this.#seen.set(id, expiresAt);
    return false;
  }

  /** Forgets every nonce (a reset of the whole mock). */
  clear(): void {
    this.#seen.clear();
  }
}

/** Seconds of the wall clock (what signatures are checked against). */
export function wallSeconds(): number {
  return Math.floor(wallNow() / 1000);
}
