import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedLines } from '../../mock-server/src/node/log';

afterEach(() => {
  vi.useRealTimers();
});

describe('batchedLines (the request log)', () => {
  it('writes the lines of one interval in one write, in order, and nothing before it', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text), { delayMs: 10 });
    log.line('a');
    log.line('b');
    log.line('c');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(writes).toEqual(['a\nb\nc\n']);
    log.line('d');
    vi.advanceTimersByTime(10);
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes at once past maxBytes, and on flush; a flush with nothing kept writes nothing', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text), { delayMs: 10, maxBytes: 8 });
    log.line('1234');
    log.line('5678');
    expect(writes).toEqual(['1234\n5678\n']);
    log.line('x');
    log.flush();
    log.flush();
    expect(writes).toEqual(['1234\n5678\n', 'x\n']);
    vi.advanceTimersByTime(50);
    expect(writes).toHaveLength(2);
  });
});
