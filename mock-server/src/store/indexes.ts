/**
 * Indexes of a tenant's state, for every lookup a request makes (e-mail → user, cards by user, approvals by
 * corporate and user, ...), and its due-time queue. Derived data: never in a snapshot, built once per state object
 * (the first time the domain touches it) and kept up to date from then on by the collections themselves: each
 * indexed collection is wrapped in a Proxy whose `set` trap files a new record, so no code path that stores a
 * record can forget an index. Indexed fields never change after a record is stored (ids, e-mails, owners).
 * @module
 */
import { DueQueue } from './due-queue';
import { Fifo } from './fifo';
import type {
  ApprovalRecord,
  AuthorizationRecord,
  BalanceRecord,
  CardRecord,
  CorporateDepositAddressRecord,
  CorporateRecord,
  DepositAddressRecord,
  IdempotencyRecord,
  OutboxMessage,
  TenantState,
  TopUpRecord,
  VerificationRecord,
} from './records';

/** Most messages kept in a user's outbox (the oldest go first). */
export const MAX_OUTBOX_PER_USER = 20;

/** Called for every record filed (at build and on every insert): the domain schedules due transitions here. */
export type InsertHook = (
  collection: IndexedCollection,
  record: unknown,
  index: TenantIndex,
  state: TenantState,
) => void;

/** The collections whose records are filed in an index. */
export type IndexedCollection =
  | 'users'
  | 'businessUsers'
  | 'balances'
  | 'cards'
  | 'approvals'
  | 'depositAddresses'
  | 'verifications'
  | 'corporates'
  | 'corporateDepositAddresses'
  | 'topUps'
  | 'authorizations';

const COLLECTIONS: readonly IndexedCollection[] = [
  'users',
  'businessUsers',
  'balances',
  'cards',
  'approvals',
  'depositAddresses',
  'verifications',
  'corporates',
  'corporateDepositAddresses',
  'topUps',
  'authorizations',
];

/** A list per key, in insertion (creation) order. */
export class Multi<V> {
  readonly #lists = new Map<string, V[]>();

  /** The values of a key, oldest first (an empty list when none). */
  get(key: string): readonly V[] {
    return this.#lists.get(key) ?? EMPTY;
  }

  add(key: string, value: V): void {
    const list = this.#lists.get(key);
    if (list) list.push(value);
    else this.#lists.set(key, [value]);
  }

  remove(key: string, value: V): void {
    const list = this.#lists.get(key);
    const at = list?.indexOf(value) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    if (list?.length === 0) this.#lists.delete(key);
  }
}
const EMPTY: readonly never[] = Object.freeze([]);

/** The indexes and due queue of one tenant state. */
export class TenantIndex {
  /** Lower-cased e-mail → Server2Server user id. */
  readonly userByEmail = new Map<string, string>();
  /** Lower-cased e-mail → business user uuid. */
  readonly businessUserByEmail = new Map<string, string>();
  readonly balancesByUser = new Multi<BalanceRecord>();
  readonly cardsByUser = new Multi<CardRecord>();
  /** `corporateUuid userUuid` → approval instances. */
  readonly approvalsByCorporateUser = new Multi<ApprovalRecord>();
  readonly approvalsByCorporate = new Multi<ApprovalRecord>();
  readonly approvalsByCard = new Multi<ApprovalRecord>();
  /** Business user uuid → approval instances. */
  readonly approvalsByUser = new Multi<ApprovalRecord>();
  /** `balanceId type` → deposit addresses. */
  readonly depositAddressesByBalanceType = new Multi<DepositAddressRecord>();
  readonly verificationsByUser = new Multi<VerificationRecord>();
  readonly verificationsByBalance = new Multi<VerificationRecord>();
  readonly corporateByBalanceId = new Map<string, CorporateRecord>();
  readonly corporateDepositAddressesByCorporate = new Multi<CorporateDepositAddressRecord>();
  readonly topUpsByCorporate = new Multi<TopUpRecord>();
  readonly authorizationsByCard = new Multi<AuthorizationRecord>();
  readonly outboxByUser = new Multi<OutboxMessage>();
  /**
   * Idempotency records in the order they were stored (pruned from the head). An entry whose key now holds another
   * record (the key was stored again after it expired) is stale and is skipped.
   */
  readonly idempotencyOrder = new Fifo<{ key: string; record: IdempotencyRecord }>();
  /** How many keys `state.idempotency` holds (counting them would walk them all). */
  idempotencyCount = 0;
  /** Keys `card:<id>`, `approval:<id>` and `authorization:<id>` at the instant their next time-driven transition may be due. */
  readonly due = new DueQueue<string>();

  /** Files a record of a collection. */
  add(collection: IndexedCollection, record: unknown): void {
    this.#file(collection, record, true);
  }

  /** Takes a record of a collection out of the indexes (it was replaced). */
  remove(collection: IndexedCollection, record: unknown): void {
    this.#file(collection, record, false);
  }

  #file(collection: IndexedCollection, record: unknown, add: boolean): void {
    const m = <V>(multi: Multi<V>, key: string, value: V) => (add ? multi.add(key, value) : multi.remove(key, value));
    switch (collection) {
      case 'users': {
        const u = record as { id: string; email: string };
        if (add) this.userByEmail.set(u.email.toLowerCase(), u.id);
        else if (this.userByEmail.get(u.email.toLowerCase()) === u.id) this.userByEmail.delete(u.email.toLowerCase());
        return;
      }
      case 'businessUsers': {
        const u = record as { userUuid: string; email: string };
        if (add) this.businessUserByEmail.set(u.email.toLowerCase(), u.userUuid);
        else if (this.businessUserByEmail.get(u.email.toLowerCase()) === u.userUuid)
          this.businessUserByEmail.delete(u.email.toLowerCase());
        return;
      }
      case 'balances': {
        const b = record as BalanceRecord;
        m(this.balancesByUser, b.userId, b);
        return;
      }
      case 'cards': {
        const c = record as CardRecord;
        m(this.cardsByUser, c.userId, c);
        return;
      }
      case 'approvals': {
        const a = record as ApprovalRecord;
        m(this.approvalsByCorporateUser, `${a.corporateUuid} ${a.userUuid}`, a);
        m(this.approvalsByCorporate, a.corporateUuid, a);
        m(this.approvalsByCard, a.cardId, a);
        m(this.approvalsByUser, a.userUuid, a);
        return;
      }
      case 'depositAddresses': {
        const d = record as DepositAddressRecord;
        m(this.depositAddressesByBalanceType, `${d.balanceId} ${d.type}`, d);
        return;
      }
      case 'verifications': {
        const v = record as VerificationRecord;
        m(this.verificationsByUser, v.userId, v);
        m(this.verificationsByBalance, v.balanceId, v);
        return;
      }
      case 'corporates': {
        const c = record as CorporateRecord;
        if (add) this.corporateByBalanceId.set(c.balanceId, c);
        else this.corporateByBalanceId.delete(c.balanceId);
        return;
      }
      case 'corporateDepositAddresses': {
        const d = record as CorporateDepositAddressRecord;
        m(this.corporateDepositAddressesByCorporate, d.corporateUuid, d);
        return;
      }
      case 'topUps': {
        const t = record as TopUpRecord;
        m(this.topUpsByCorporate, t.corporateUuid, t);
        return;
      }
      case 'authorizations': {
        const a = record as AuthorizationRecord;
        m(this.authorizationsByCard, a.cardId, a);
        return;
      }
    }
  }
}

const indexes = new WeakMap<TenantState, TenantIndex>();

/**
 * The collection behind each filing proxy this module put into a state, so that a layer that watches the state
 * (the state file's change tracking) can tell the index's wrapping of a collection from a new collection.
 */
export const indexedCollectionOf = new WeakMap<object, object>();

/** Forgets the index of `state` (its holder now reaches the state through another object). */
export function forgetIndex(state: TenantState): void {
  indexes.delete(state);
}

/**
 * The index of a state: built on first use (one pass over the records), after which the state's indexed
 * collections file every new record themselves. `onInsert` runs for each record filed.
 */
export function tenantIndex(state: TenantState, onInsert: InsertHook): TenantIndex {
  const existing = indexes.get(state);
  if (existing) return existing;
  const index = new TenantIndex();
  indexes.set(state, index);
  for (const collection of COLLECTIONS) {
    const records = state[collection] as Record<string, unknown>;
    for (const record of Object.values(records)) {
      index.add(collection, record);
      onInsert(collection, record, index, state);
    }
    const filing = new Proxy(records, {
      set(target, key, value: unknown) {
        const old = target[key as string];
        target[key as string] = value;
        // Filed as read back: a watching layer beneath (the state file's change tracking) may hand out a wrapper of
        // the record, and the index must reach the record through it, as every other path does.
        const stored = target[key as string];
        if (old !== stored && typeof key === 'string') {
          if (old !== undefined) index.remove(collection, old);
          index.add(collection, stored);
          onInsert(collection, stored, index, state);
        }
        return true;
      },
      deleteProperty(target, key) {
        const old = target[key as string];
        delete target[key as string];
        if (old !== undefined) index.remove(collection, old);
        return true;
      },
    });
    indexedCollectionOf.set(filing, records);
    (state as unknown as Record<string, unknown>)[collection] = filing;
  }
  for (const message of state.outbox) index.outboxByUser.add(message.userId, message);
  const byAge = Object.entries(state.idempotency).sort(
    ([, a], [, b]) => (a.storedAtWall ?? a.storedAt) - (b.storedAtWall ?? b.storedAt),
  );
  for (const [key, record] of byAge) index.idempotencyOrder.push({ key, record });
  index.idempotencyCount = byAge.length;
  return index;
}

/** Adds a message to a user's outbox, forgetting that user's oldest beyond {@link MAX_OUTBOX_PER_USER}. */
export function appendOutbox(state: TenantState, index: TenantIndex, message: OutboxMessage): void {
  state.outbox.push(message);
  index.outboxByUser.add(message.userId, message);
  const mine = index.outboxByUser.get(message.userId);
  if (mine.length > MAX_OUTBOX_PER_USER) {
    const oldest = mine[0]!;
    index.outboxByUser.remove(message.userId, oldest);
    const at = state.outbox.indexOf(oldest);
    if (at >= 0) state.outbox.splice(at, 1);
  }
}
