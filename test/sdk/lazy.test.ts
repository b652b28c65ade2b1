import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadOnce } from '../../sdk/src/load-once';
import { createSigner } from '../../sdk/src/signing/sign';

describe('loadOnce (every lazy chunk and key import: validation, the error reader, card details, node-forge, keys)', () => {
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

describe('the key imports forget a failed import', () => {
  afterEach(() => vi.restoreAllMocks());

  it("the signer's Web Crypto key (where node:crypto is not at hand): a failed import is tried again", async () => {
    // As in a browser: no process.getBuiltinModule, so the signer imports its HMAC key into Web Crypto.
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    const importKey = vi
      .spyOn(crypto.subtle, 'importKey')
      .mockRejectedValueOnce(new DOMException('The operation failed', 'OperationError'));
    const signer = createSigner({ apiKey: 'k', apiSecret: 's' });
    await expect(signer.sign({ method: 'GET', url: 'https://api.example/x' })).rejects.toThrow('The operation failed');
    const signed = await signer.sign({ method: 'GET', url: 'https://api.example/x' });
    expect(signed.authorization).toMatch(/^HMAC-SHA256 k:/);
    await signer.sign({ method: 'GET', url: 'https://api.example/x' });
    expect(importKey).toHaveBeenCalledTimes(2); // once failed, once kept
  });
});
