import type { ListOptions, PageBody, PagePromise } from 'card-issuing-sdk';
import { expect } from './expect';

/**
 * Every item of a list read by hand with `limit`, checking the paging rules on the way: each page at most `limit`,
 * full unless it is the last, and `nextCursor` null exactly on the last. Used by the mock's tests and the contract
 * suite alike.
 */
export async function walkPages<B extends PageBody>(
  list: (options: ListOptions) => PagePromise<B>,
  limit: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await list({ limit, ...(cursor === undefined ? {} : { cursor }) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    expect(page.nextCursor === null, 'nextCursor is null exactly on the last page').toBe(!page.hasMore);
    if (page.hasMore) expect(page.items.length, 'a page before the last is full').toBe(limit);
    items.push(...page.items);
    if (!page.hasMore) return items;
    cursor = page.nextCursor!;
  }
  throw new Error('the list never ended');
}
