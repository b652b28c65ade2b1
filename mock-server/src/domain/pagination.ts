/**
 * Cursor pagination of every list (the spec's `limit` and `cursor`, `hasMore` and `nextCursor`), as Stripe's
 * `limit`/`starting_after`/`has_more`: a page is the items after the one the cursor names, in the list's stable
 * order, so items created while a client walks the list come on a later page and none is served twice.
 *
 * A cursor is `base64url({ l: list, a: key of the page's last item }).<mac>`: the list is the operation with its
 * path and filter parameters, and the mac binds it to the tenant (its seed and api key), so a cursor of another
 * list or another tenant, or an edited one, is 400 CURSOR_INVALID. The mac only refuses misuse; it guards no data
 * (a cursor never grants more than the tenant's own list).
 * @module
 */
import type { DomainContext } from './context';
import { ProblemError } from './errors';
import { hash53 } from '../hash';
import { DEFAULT_LIMIT, MAX_LIMIT } from './spec-bounds';

/** The page a client asks for. */
export interface PageQuery {
  /** 1 to {@link MAX_LIMIT}; default {@link DEFAULT_LIMIT}. */
  limit?: number | undefined;
  /** The `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

/** A page of a list, as every list response holds it. */
export interface Page<V> {
  items: V[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * One page of `records` (already in the list's stable order): those after the cursor's item, at most `limit`.
 * `list` names the list (operation and parameters), `keyOf` an item's stable key, `view` its API shape.
 */
export function paginate<T, V>(
  ctx: DomainContext,
  list: string,
  records: readonly T[],
  keyOf: (record: T) => string,
  query: PageQuery,
  view: (record: T) => V,
): Page<V> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ProblemError('VALIDATION_FAILED', `limit must be an integer from 1 to ${MAX_LIMIT}.`, {
      errors: [{ path: 'query.limit', message: `1 to ${MAX_LIMIT}` }],
    });
  }
  let start = 0;
  if (query.cursor !== undefined) {
    const after = readCursor(ctx, list, query.cursor);
    const index = records.findIndex((r) => keyOf(r) === after);
    if (index < 0) throw cursorInvalid('it names an item this list does not hold (was the state reset?)');
    start = index + 1;
  }
  const slice = records.slice(start, start + limit);
  const hasMore = start + slice.length < records.length;
  return {
    items: slice.map(view),
    hasMore,
    nextCursor: hasMore ? makeCursor(ctx, list, keyOf(slice[slice.length - 1]!)) : null,
  };
}

function makeCursor(ctx: DomainContext, list: string, after: string): string {
  const payload = base64url(JSON.stringify({ l: hash53(list), a: after }));
  return `${payload}.${mac(ctx, payload)}`;
}

function readCursor(ctx: DomainContext, list: string, cursor: string): string {
  const dot = cursor.lastIndexOf('.');
  const payload = cursor.slice(0, dot);
  if (dot < 1 || cursor.slice(dot + 1) !== mac(ctx, payload))
    throw cursorInvalid('it is not a cursor this api key was given');
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64url(payload));
  } catch {
    throw cursorInvalid('it is not a cursor this api key was given');
  }
  const { l, a } = (parsed ?? {}) as { l?: unknown; a?: unknown };
  if (typeof a !== 'string') throw cursorInvalid('it is not a cursor this api key was given');
  if (l !== hash53(list))
    throw cursorInvalid('it belongs to another list (another operation, or other path or query parameters)');
  return a;
}

function cursorInvalid(why: string): ProblemError {
  return new ProblemError(
    'CURSOR_INVALID',
    `The cursor is not valid for this list: ${why}. Start again without a cursor.`,
    {
      errors: [{ path: 'query.cursor', message: why }],
    },
  );
}

/** The tenant's mark on a cursor: another tenant (other seed or api key) computes another one. */
function mac(ctx: DomainContext, payload: string): string {
  return hash53(`${ctx.state.seed}\u0000${ctx.state.apiKey}\u0000${payload}`);
}

// Cursor payloads are ASCII (ids, tickers), so btoa/atob (browser and Node alike) suffice.
function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): string {
  return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
}
