import { describe, expect, it } from 'vitest';
import { Fifo } from '../../mock-server/src/store/fifo';

describe('Fifo (the idempotency records in arrival order)', () => {
  it('gives items back oldest first, across pushes between shifts', () => {
    const queue = new Fifo<number>();
    expect(queue.peek()).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
    for (const n of [1, 2, 3]) queue.push(n);
    expect(queue.peek()).toBe(1);
    expect(queue.shift()).toBe(1);
    queue.push(4);
    expect([queue.shift(), queue.shift(), queue.peek(), queue.shift(), queue.shift()]).toEqual([2, 3, 4, 4, undefined]);
  });

  it('keeps order over many items (each moves once)', () => {
    const queue = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      queue.push(i);
      if (i % 3 === 0) out.push(queue.shift()!);
    }
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) out.push(next);
    expect(out).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });
});
