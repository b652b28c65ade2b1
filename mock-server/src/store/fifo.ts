/**
 * A first-in, first-out queue made of two stacks: `push` onto the back one; when the front one is empty, the back
 * one is reversed into it. Each item moves once, so push, peek and shift cost O(1) amortised. What "forget the
 * oldest" needs (the idempotency records). Not a Map pruned from its first key: V8 keeps deleted entries in a Map's
 * table until it is rebuilt, so each walk from the head would step over all those deleted before.
 * @module
 */

/** A first-in, first-out queue. */
export class Fifo<T> {
  #back: T[] = [];
  /** The oldest item last. */
  #front: T[] = [];

  /** Queues an item at the tail. */
  push(item: T): void {
    this.#back.push(item);
  }

  /** The oldest item, left in place (undefined when empty). */
  peek(): T | undefined {
    this.#turn();
    return this.#front.at(-1);
  }

  /** Takes the oldest item out (undefined when empty). */
  shift(): T | undefined {
    this.#turn();
    return this.#front.pop();
  }

  #turn(): void {
    if (this.#front.length > 0 || this.#back.length === 0) return;
    this.#front = this.#back.reverse();
    this.#back = [];
  }
}
