/**
 * A due-time queue: keys scheduled at instants, popped once their instant has come, earliest first. Time-driven
 * transitions come from it, so a request that finds nothing due looks at nothing (one comparison with the head),
 * whatever the number of records.
 *
 * ```ts
 * queue.schedule('approval:1f…', validFrom);   // replaces any earlier schedule of that key
 * queue.cancel('approval:1f…');
 * for (const key of queue.popDue(now)) …        // due keys, earliest first; each is removed
 * ```
 * @module
 */

interface Entry<K> {
  dueAt: number;
  seq: number;
  key: K;
  live: boolean;
}

/** A min-heap of (dueAt, scheduling order) with one live entry per key; cancelled entries are dropped lazily. */
export class DueQueue<K> {
  readonly #heap: Entry<K>[] = [];
  readonly #live = new Map<K, Entry<K>>();
  #seq = 0;

  /** How many keys are scheduled. */
  get size(): number {
    return this.#live.size;
  }

  /** The earliest instant a key is due, or undefined when none is scheduled. */
  nextDueAt(): number | undefined {
    this.#dropDead();
    return this.#heap[0]?.dueAt;
  }

  /** Schedules `key` at `dueAt` (epoch ms; -Infinity: due at once), replacing its earlier schedule. */
  schedule(key: K, dueAt: number): void {
    this.cancel(key);
    const entry: Entry<K> = { dueAt, seq: this.#seq++, key, live: true };
    this.#live.set(key, entry);
    this.#push(entry);
    // Cancelled entries wait in the heap until they reach its head; rebuild when they outnumber the live ones.
    if (this.#heap.length > 64 && this.#heap.length > 2 * this.#live.size) this.#rebuild();
  }

  /** Unschedules `key` (nothing when it is not scheduled). */
  cancel(key: K): void {
    const entry = this.#live.get(key);
    if (!entry) return;
    entry.live = false;
    this.#live.delete(key);
  }

  /**
   * The earliest key due at `now` (dueAt ≤ now), unscheduled, or undefined. For callers whose every transition may
   * reschedule others: they take one at a time, so transitions run in the order of their instants.
   */
  popNext(now: number): K | undefined {
    this.#dropDead();
    const head = this.#heap[0];
    if (!head || head.dueAt > now) return undefined;
    this.#pop();
    head.live = false;
    this.#live.delete(head.key);
    return head.key;
  }

  /** The keys due at `now` (dueAt ≤ now), earliest first, each unscheduled. */
  popDue(now: number): K[] {
    const due: K[] = [];
    for (;;) {
      this.#dropDead();
      const head = this.#heap[0];
      if (!head || head.dueAt > now) return due;
      this.#pop();
      head.live = false;
      this.#live.delete(head.key);
      due.push(head.key);
    }
  }

  #dropDead(): void {
    while (this.#heap.length > 0 && !this.#heap[0]!.live) this.#pop();
  }

  #rebuild(): void {
    const live = this.#heap.filter((e) => e.live);
    this.#heap.length = 0;
    for (const entry of live) this.#push(entry);
  }

  #before(a: Entry<K>, b: Entry<K>): boolean {
    return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
  }

  #push(entry: Entry<K>): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.#before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && this.#before(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
}
