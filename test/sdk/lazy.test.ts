import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../sdk/src/load-once';

describe('loadOnce (the lazy chunks: validation, error mapping)', () => {
  it('loads once and shares the result', async () => {
    let loads = 0;
    const load = loadOnce(async () => ++loads);
    expect(await Promise.all([load(), load(), load()])).toEqual([1, 1, 1]);
    expect(await load()).toBe(1);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again (a chunk lost on a flaky network)', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads++;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return 'module';
    });
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(await load()).toBe('module');
    expect(await load()).toBe('module');
    expect(loads).toBe(2);
  });
});
