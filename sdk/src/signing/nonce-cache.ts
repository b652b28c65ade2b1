/**
 * The verifier's memory of nonces: a replayed request is refused while its timestamp is within the window.
 * @module
 */
import { ArrivalQueue } from '../arrival-queue';

/** What {@link NonceCache} takes. */
export interface NonceCacheOptions {
  /**
   * The most nonces kept (default: no limit but the window). Past it, the oldest is forgotten first: a server
   * facing a flood keeps bounded memory, and refuses replays only of the newest `max` nonces of the window.
   */
  max?: number;
}

/**
 * Remembers the nonces seen within the tolerance window, so that a replayed request is refused; each nonce until
 * its request's timestamp leaves the window, and at most `max` of them.
 */
export class NonceCache {
  // Arrival order beside a Set for the look-ups: ids and their expiries in two queues, no object per nonce.
  readonly #seen = new Set<string>();
  readonly #ids = new ArrivalQueue<string>();
  readonly #expiries = new ArrivalQueue<number>();
  readonly #max: number;

  constructor(options: NonceCacheOptions = {}) {
    const max = options.max ?? Number.POSITIVE_INFINITY;
    if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max > 0)))
      throw new TypeError('NonceCache: max must be a positive whole number.');
    this.#max = max;
  }

  /** How many nonces are kept now. */
  get size(): number {
    return this.#seen.size;
  }

  /** True when this key's nonce was already seen; otherwise records it (until `expiresAt`, Unix seconds). */
  checkAndRecord(apiKey: string, nonce: string, nowSeconds: number, expiresAt: number): boolean {
    // Expiries grow roughly with arrival: stop at the first live entry.
    for (
      let oldest = this.#expiries.peek();
      oldest !== undefined && oldest <= nowSeconds;
      oldest = this.#expiries.peek()
    )
      this.#forgetOldest();
    const id = `${apiKey}:${nonce.toLowerCase()}`;
    if (this.#seen.has(id)) return true;
    if (this.#seen.size >= this.#max) this.#forgetOldest();
    this.#seen.add(id);
    this.#ids.push(id);
    this.#expiries.push(expiresAt);
    return false;
  }

  /** Forgets every nonce. */
  clear(): void {
    this.#seen.clear();
    this.#ids.clear();
    this.#expiries.clear();
  }

  #forgetOldest(): void {
    const oldest = this.#ids.shift();
    this.#expiries.shift();
    if (oldest !== undefined) this.#seen.delete(oldest);
  }
}
