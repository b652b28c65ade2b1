/**
 * A fixed-capacity ring buffer: the request journal and the event log keep the latest N entries and drop the
 * oldest, so a mock left running all day holds a bounded amount of history.
 * @module
 */

/** The latest `capacity` items pushed, oldest dropped first. A capacity of 0 keeps nothing. */
export class Ring<T> {
  readonly #items: (T | undefined)[];
  #next = 0;
  #count = 0;
  #pushed = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new TypeError(`A ring's capacity is a whole number ≥ 0, not ${capacity}.`);
    this.#items = new Array<T | undefined>(capacity);
  }

  /** Adds an item, dropping the oldest when full. */
  push(item: T): void {
    this.#pushed++;
    if (this.capacity === 0) return;
    this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count++;
  }

  /** How many items it holds now. */
  get size(): number {
    return this.#count;
  }

  /** How many items were ever pushed (so `pushed - size` were dropped). */
  get pushed(): number {
    return this.#pushed;
  }

  /** The items, newest first. */
  newestFirst(): T[] {
    const out: T[] = [];
    for (let i = 1; i <= this.#count; i++) out.push(this.#items[(this.#next - i + this.capacity) % this.capacity]!);
    return out;
  }

  /** The items, oldest first. */
  oldestFirst(): T[] {
    return this.newestFirst().reverse();
  }

  /** Forgets every item (the count of pushed items stays). */
  clear(): void {
    this.#items.fill(undefined);
    this.#next = 0;
    this.#count = 0;
  }
}
