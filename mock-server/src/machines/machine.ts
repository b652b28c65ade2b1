/**
 * State machines as tables that read like the interface document's section 3: one row per transition with
 * `from`, `trigger`, `condition`, `to` and `also`. The domain asks a table for the row of a trigger; when no
 * row matches, {@link transition} refuses with a 409 naming the current status and the operation. Rows that
 * time moves say when they fall due (`due`), so the settling code reads the instants from the table.
 * @module
 */
import { ProblemError, type CodeOfStatus } from './problem-error';

/** `to` of a row that leaves the status as it is (the trigger makes a new instance elsewhere). */
export const UNCHANGED = 'unchanged';

/** One transition. `from: null` is the creation of a new instance. */
export interface Row<S extends string, T extends string, C = void, R extends string = string> {
  from: readonly S[] | null;
  trigger: T;
  /** The condition in words, as the document writes it. */
  condition?: string;
  /** The condition as code, when rows of the same trigger differ by it. */
  when?: (ctx: C) => boolean;
  /**
   * For rows that time (or an outside event with an instant) moves: the instant the row falls due, or null while
   * it is not due at all. The earliest due row of a status runs, at its instant.
   */
  due?: (ctx: C) => number | null;
  to: S | typeof UNCHANGED;
  /** Why the instance leaves its status by this row, when the machine records reasons. */
  reason?: R;
  /** What else happens, in words (the domain does it). */
  also?: string;
}

/** Which code a refused trigger gets; the first matching refusal wins, else `INVALID_TRANSITION`. */
export interface Refusal<S extends string, T extends string> {
  trigger: T;
  from: readonly S[] | '*';
  code: CodeOfStatus<409>;
}

/** A state machine: its name (used in messages: "while the approval is CANCELED"), rows and refusals. */
export interface Machine<S extends string, T extends string, C = void, R extends string = string> {
  name: string;
  rows: readonly Row<S, T, C, R>[];
  refusals?: readonly Refusal<S, T>[];
}

/** The row for `trigger` from `current` (null: creation) whose condition holds, or undefined. */
export function findTransition<S extends string, T extends string, C, R extends string>(
  machine: Machine<S, T, C, R>,
  current: S | null,
  trigger: T,
  ctx?: C,
): Row<S, T, C, R> | undefined {
  return machine.rows.find(
    (row) =>
      row.trigger === trigger &&
      (current === null ? row.from === null : row.from?.includes(current)) &&
      (row.when === undefined || row.when(ctx as C)),
  );
}

/**
 * The status after `trigger` from `current`. Throws a 409 ProblemError (`INVALID_TRANSITION` unless the table
 * names a more precise code) with `currentStatus` and `operation` when the table has no row for it.
 */
export function transition<S extends string, T extends string, C, R extends string>(
  machine: Machine<S, T, C, R>,
  current: S,
  trigger: T,
  options: { operation?: string; ctx?: C } = {},
): S {
  const row = findTransition(machine, current, trigger, options.ctx);
  const operation = options.operation ?? trigger;
  if (!row) {
    const refusal = machine.refusals?.find(
      (r) => r.trigger === trigger && (r.from === '*' || r.from.includes(current)),
    );
    throw new ProblemError(
      refusal?.code ?? 'INVALID_TRANSITION',
      `${operation} is not allowed while the ${machine.name} is ${current}.`,
      { currentStatus: current, operation },
    );
  }
  return row.to === UNCHANGED ? current : row.to;
}

/** The initial status of a new instance made by `trigger` (a `from: null` row). */
export function initialStatus<S extends string, T extends string, C, R extends string>(
  machine: Machine<S, T, C, R>,
  trigger: T,
  ctx?: C,
): S {
  const row = findTransition(machine, null, trigger, ctx);
  if (!row || row.to === UNCHANGED) throw new Error(`The ${machine.name} machine has no creation row for ${trigger}.`);
  return row.to;
}
