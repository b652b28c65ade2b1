/**
 * Cursor pages of every list operation (the spec's `limit`, `cursor`, `hasMore`, `nextCursor`), the way Stainless
 * SDKs page: a list method returns the first page (awaitable, with `withResponse()`), and the same value is
 * async-iterable over every item of every page, fetching each next page only when the loop reaches it.
 *
 * @example
 * ```ts
 * const page = await client.s2s.cards.list(userId, { limit: 10 });   // one page: items, hasMore, nextCursor
 * for await (const card of client.s2s.cards.list(userId)) { ... }   // every card, page by page on demand
 * for await (const p of page.iterPages()) console.log(p.items.length);
 * ```
 * @module
 */
import { ApiPromise } from './api-promise';
import { CardIssuingError } from './errors/base';

/** What every list response holds. */
export interface PageBody {
  items: readonly unknown[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Which page to ask for; on every list method's options. */
export interface PageParams {
  /** Items per page, 1 to 100 (the server's default is 20). Kept for every next page. */
  limit?: number;
  /** Start after this cursor (a page's `nextCursor`); omitted: the first page. */
  cursor?: string;
}

/** An item of a list response. */
export type PageItem<B extends PageBody> = B['items'][number];

/** Moving on from a page. */
export interface PageNavigation<B extends PageBody> {
  /** True when another page follows (`hasMore` with a `nextCursor`). */
  hasNextPage(): boolean;
  /** Fetches the next page with the same parameters and options; throws `NO_NEXT_PAGE` on the last one. */
  getNextPage(): PagePromise<B>;
  /** This page, then every next one, each fetched when the loop asks for it. */
  iterPages(): AsyncGenerator<Page<B>, void, undefined>;
  /** Every item of this page and of every next one, fetched on demand. */
  [Symbol.asyncIterator](): AsyncGenerator<PageItem<B>, void, undefined>;
}

/** A page: the list response as the spec types it (`items`, `hasMore`, `nextCursor`, ...), and how to go on. */
export type Page<B extends PageBody> = B & PageNavigation<B>;

/** Fetches the page that starts after `cursor` of the same list. */
export type FetchPage<B extends PageBody> = (cursor: string) => PagePromise<B>;

class ListPage<B extends PageBody> implements PageNavigation<B> {
  declare readonly items: B['items'];
  declare readonly hasMore: boolean;
  declare readonly nextCursor: string | null;
  readonly #fetch: FetchPage<B>;

  constructor(body: B, fetch: FetchPage<B>) {
    // The body's fields are the page's own (enumerable, so JSON and equality see exactly the response).
    Object.assign(this, body);
    this.#fetch = fetch;
  }

  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== null;
  }

  getNextPage(): PagePromise<B> {
    if (!this.hasNextPage() || this.nextCursor === null) {
      throw new CardIssuingError({
        code: 'NO_NEXT_PAGE',
        detail: 'This is the last page (hasMore is false); check hasNextPage() first.',
      });
    }
    return this.#fetch(this.nextCursor);
  }

  async *iterPages(): AsyncGenerator<Page<B>, void, undefined> {
    let page = this as unknown as Page<B>;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<PageItem<B>, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items as readonly PageItem<B>[];
  }
}

/** A response body as a {@link Page} whose next pages come from `fetch`. */
export function toPage<B extends PageBody>(body: B, fetch: FetchPage<B>): Page<B> {
  return new ListPage(body, fetch) as unknown as Page<B>;
}

/** Every item of the page `first` resolves to and of every next page, fetched on demand. */
export async function* itemsFrom<B extends PageBody>(
  first: PromiseLike<Page<B>>,
): AsyncGenerator<PageItem<B>, void, undefined> {
  yield* await first;
}

/**
 * What every list method returns: the first page (await it, or `.withResponse()`), and, with `for await`, every
 * item of every page, each next page fetched only when the loop reaches it.
 */
export class PagePromise<B extends PageBody> extends ApiPromise<Page<B>> implements AsyncIterable<PageItem<B>> {
  /** Every item of this list, page after page, fetched on demand. */
  [Symbol.asyncIterator](): AsyncGenerator<PageItem<B>, void, undefined> {
    return itemsFrom(this);
  }
}
