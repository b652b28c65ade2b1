/**
 * What every builder works with: the tenant's state at its now, steps run at earlier instants (a builder writes
 * history, it never moves the clock), the names earlier scenario entries gave, and errors that name the option.
 *
 * How history is written: the tenant is settled at its now first, so nothing of its own is due before then; a
 * builder's back-dated step runs the domain's own operation in a context whose instant is earlier, then settles at
 * that instant, which runs only the transitions the builder's own records made due. The builder's caller settles at
 * now at the end, so what came due since (a FINISHED approval's end, a change request's expiry) runs at its instant.
 * @module
 */
import { iso } from '../../clock';
import { settle, validationFailed, type DomainContext } from '../../domain';
import { findCorporate } from '../../domain/lookups';
import type { CorporateRecord } from '../../store';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** How far back a builder makes the users it creates, so that any history written for them later finds them there. */
export const USER_HISTORY_MS = 90 * DAY;

/** What a builder made, as the names of a scenario remember it. */
export interface NamedRecord {
  user?: { userUuid: string } | { id: string };
  corporateUuid?: string;
}

/** The world a builder acts on. */
export interface BuildContext {
  /** The tenant at its now (settled). */
  ctx: DomainContext;
  /** The tenant's now (epoch ms). */
  now: number;
  /**
   * Prefix of an option's path in errors: `body.` for a call, `body.given.3.` for a scenario's fourth entry in a call,
   * `given.3.` in a scenario file.
   */
  path: string;
  /** What earlier scenario entries made, by their `as`. */
  names: ReadonlyMap<string, NamedRecord>;
}

/**
 * Runs a step of the builder's history at `ms` (never later than now): first what the builder's earlier steps made
 * due by then, then the step, then what it made due at once.
 */
export function at<R>(b: BuildContext, ms: number, step: (ctx: DomainContext) => R): R {
  const ctx: DomainContext = { ...b.ctx, now: Math.min(ms, b.now) };
  settle(ctx);
  const result = step(ctx);
  settle(ctx);
  return result;
}

/** 400 VALIDATION_FAILED naming the option. */
export function bad(b: BuildContext, option: string, message: string): never {
  throw validationFailed([{ path: `${b.path}${option}`, message }]);
}

/** The id a reference stands for: a name an earlier entry gave (its user of the wanted area), else the id itself. */
export function resolveUser(b: BuildContext, ref: string, area: 'business' | 's2s', option = 'user'): string {
  const named = b.names.get(ref);
  if (!named) return ref;
  const user = named.user;
  if (area === 'business' && user && 'userUuid' in user) return user.userUuid;
  if (area === 's2s' && user && 'id' in user) return user.id;
  return bad(b, option, `${ref} names no ${area === 'business' ? 'business' : 'Server2Server'} user`);
}

/** A corporate by corporateUuid, its name in the fixtures, or a name an earlier entry gave; default the first. */
export function resolveCorporate(b: BuildContext, ref: string | undefined, option = 'corporate'): CorporateRecord {
  const corporates = Object.values(b.ctx.state.corporates);
  if (ref === undefined) return corporates[0]!;
  const uuid = b.names.get(ref)?.corporateUuid ?? corporates.find((c) => c.name === ref)?.corporateUuid ?? ref;
  if (!b.ctx.state.corporates[uuid])
    return bad(
      b,
      option,
      `No corporate ${ref} (give its corporateUuid or its name: ${corporates.map((c) => c.name).join(', ')})`,
    );
  return findCorporate(b.ctx, uuid);
}

/** 400 unless `ms` is at or after `since`: a step of the history cannot come before the record it acts on. */
export function notBefore(b: BuildContext, option: string, ms: number, since: string, what: string): void {
  if (ms < Date.parse(since))
    bad(
      b,
      option,
      `The history starts at ${iso(ms)}, before ${what} (${since}); use one made by a builder (they are made 90 days back) or leave it out`,
    );
}
