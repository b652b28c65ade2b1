/**
 * When a record's next time-driven transition is due, for the due-time queue: a physical card's order completion, a
 * card hold's expiry (`AUTHORIZATION_TTL_MS` after it was made, `machines/authorization.ts`),
 * and, for an approval, the earliest due instant of the rows its status has in the approval table (`due`: PREPARED
 * until validFrom, CREATED until expiresAt, DELIVERED and ACCEPTED after validTo, ACCEPTED at registration). The
 * instants are the table's; this module only reads them and keeps the queue in step.
 * @module
 */
import type { ApprovalStatus } from 'card-issuing-sdk';
import { ORDER_COMPLETION_MS, approvalMachine, type ApprovalFacts, type ApprovalTrigger, type Row } from '../machines';
import type {
  ApprovalRecord,
  AuthorizationRecord,
  CardRecord,
  IndexedCollection,
  TenantIndex,
  TenantState,
} from '../store';

/** A row of the approval table. */
export type ApprovalRow = Row<
  ApprovalStatus,
  ApprovalTrigger,
  ApprovalFacts,
  NonNullable<ApprovalRecord['statusReason']>
>;

/** The queue key of a card. */
export const cardKey = (id: string): string => `card:${id}`;
/** The queue key of an authorization (a PENDING hold expires at its `expiresAt`). */
export const authorizationKey = (id: string): string => `authorization:${id}`;
/** The queue key of an approval instance. */
export const approvalKey = (id: string): string => `approval:${id}`;

/** When a card's order completes (ORDERED cards only). */
export function cardDueAt(card: CardRecord): number | undefined {
  return card.status === 'ORDERED' && card.orderedAt !== null
    ? Date.parse(card.orderedAt) + ORDER_COMPLETION_MS
    : undefined;
}

/** Parsed instants of a record's fixed dates (they never change once stored; `expiresAt` only to null). */
const instants = new WeakMap<
  ApprovalRecord,
  { validFrom: number; validTo: number; createdAt: number; expiresAtText: string | null; expiresAt: number | null }
>();

/** The facts the approval table's conditions and due instants read. */
export function approvalFacts(state: TenantState, a: ApprovalRecord): ApprovalFacts {
  let known = instants.get(a);
  if (!known || known.expiresAtText !== a.expiresAt) {
    known = {
      validFrom: Date.parse(a.validFrom),
      validTo: Date.parse(a.validTo),
      createdAt: Date.parse(a.createdAt),
      expiresAtText: a.expiresAt,
      expiresAt: a.expiresAt === null ? null : Date.parse(a.expiresAt),
    };
    instants.set(a, known);
  }
  // Registration moves only ACCEPTED instances (from the later of the registration and the instance's creation);
  // a change request reads the status of the instance it changes.
  const user = a.status === 'ACCEPTED' ? state.businessUsers[a.userUuid] : undefined;
  const registered =
    user?.registrationStatus === 'COMPLETED'
      ? Math.max(Date.parse(user.registeredAt ?? a.createdAt), known.createdAt)
      : null;
  const changed =
    a.status === 'CREATED' && a.previousApprovalUuid !== null ? state.approvals[a.previousApprovalUuid] : undefined;
  return {
    validFrom: known.validFrom,
    validTo: known.validTo,
    expiresAt: known.expiresAt,
    registeredAt: registered,
    changedStatus: changed?.status ?? null,
  };
}

/** The rows time or registration moves, per status they leave. */
const DUE_ROWS: ReadonlyMap<ApprovalStatus, readonly ApprovalRow[]> = (() => {
  const rows = new Map<ApprovalStatus, ApprovalRow[]>();
  for (const row of approvalMachine.rows)
    if (row.due) for (const from of row.from ?? []) rows.set(from, [...(rows.get(from) ?? []), row]);
  return rows;
})();

/** The earliest row of the approval's status that falls due (time or registration), with its instant. */
export function dueTransition(state: TenantState, a: ApprovalRecord): { row: ApprovalRow; at: number } | undefined {
  const rows = DUE_ROWS.get(a.status);
  if (!rows) return undefined;
  const facts = approvalFacts(state, a);
  let best: { row: ApprovalRow; at: number } | undefined;
  for (const row of rows) {
    const at = row.due!(facts);
    if (at !== null && (best === undefined || at < best.at)) best = { row, at };
  }
  return best;
}

/** Schedules (or unschedules) an approval at its next due instant. */
export function scheduleApproval(index: TenantIndex, state: TenantState, a: ApprovalRecord): void {
  const at = dueTransition(state, a)?.at;
  if (at === undefined) index.due.cancel(approvalKey(a.approvalUuid));
  else index.due.schedule(approvalKey(a.approvalUuid), at);
}

/** The index's insert hook: every stored card and approval is scheduled when it has a due instant. */
export function scheduleOnInsert(
  collection: IndexedCollection,
  record: unknown,
  index: TenantIndex,
  state: TenantState,
): void {
  if (collection === 'cards') {
    const card = record as CardRecord;
    const at = cardDueAt(card);
    if (at !== undefined) index.due.schedule(cardKey(card.id), at);
  } else if (collection === 'approvals') {
    scheduleApproval(index, state, record as ApprovalRecord);
  } else if (collection === 'authorizations') {
    // expiresAt never moves (increments do not extend a hold): scheduled once; a hold settled earlier is skipped when due.
    const auth = record as AuthorizationRecord;
    if (auth.state === 'PENDING' && auth.expiresAt !== null)
      index.due.schedule(authorizationKey(auth.id), Date.parse(auth.expiresAt));
  }
}
