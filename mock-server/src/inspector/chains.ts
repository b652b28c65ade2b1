/**
 * The inspector's approval chains: per card, the approval and the reapprovals that changed it, each with its status
 * history (from the event log while it holds the whole life, else what the record tells), and the card's purchases.
 * @module
 */
import type { ApprovalStatus } from 'card-issuing-sdk';
import { overspentOf, remainingOf } from '../domain/holds';
import type { MockEvent } from '../observe';
import type { TenantState } from '../store';
import { last4Of } from './purchases';
import type { ChainView, PurchaseView, StatusChange } from './view-model';

/** The approval chains of a tenant, one per card, instances oldest first. */
export function approvalChains(
  state: TenantState,
  events: readonly MockEvent[],
  purchases: Map<string, PurchaseView[]>,
  nameOfUser: (id: string) => string,
): ChainView[] {
  const history = new Map<string, StatusChange[]>();
  for (const e of events) {
    if (e.type !== 'approval.statusChanged') continue;
    const list = history.get(e.approvalUuid) ?? [];
    list.push({ from: e.from, to: e.to, at: e.at, trigger: e.trigger });
    history.set(e.approvalUuid, list);
  }

  const chains = new Map<string, ChainView>();
  for (const a of Object.values(state.approvals)) {
    const card = state.cards[a.cardId];
    let chain = chains.get(a.cardId);
    if (!chain) {
      chain = {
        corporateUuid: a.corporateUuid,
        corporateName: state.corporates[a.corporateUuid]?.name ?? a.corporateUuid,
        userUuid: a.userUuid,
        userName: nameOfUser(a.userUuid),
        cardId: a.cardId,
        last4: last4Of(card?.pan),
        cardStatus: card?.status ?? null,
        instances: [],
        authorizations: purchases.get(a.cardId) ?? [],
      };
      chains.set(a.cardId, chain);
    }
    const seen = history.get(a.approvalUuid) ?? [];
    const complete = seen.length > 0 && seen[0]!.from === null && seen[seen.length - 1]!.to === a.status;
    chain.instances.push({
      approvalUuid: a.approvalUuid,
      status: a.status,
      budget: { ...a.budget },
      reserved: a.reserved,
      spent: a.spent,
      statusReason: a.statusReason,
      held: a.held,
      remaining: remainingOf(a),
      overspent: overspentOf(a),
      validFrom: a.validFrom,
      validTo: a.validTo,
      expiresAt: a.expiresAt,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      previousApprovalUuid: a.previousApprovalUuid,
      history: complete ? seen : fallbackHistory(a.status, a.createdAt, a.updatedAt, a.previousApprovalUuid !== null),
      historyComplete: complete,
    });
  }
  return [...chains.values()];
}

/** What a record alone tells of an instance's history when the event log no longer holds it. */
function fallbackHistory(
  status: ApprovalStatus,
  createdAt: string,
  updatedAt: string,
  reapproval: boolean,
): StatusChange[] {
  // A change request starts CREATED, anything else ACCEPTED (an increase-budget instance starts in its
  // predecessor's status, which the record does not keep: the first entry then says the status it has now).
  const first: ApprovalStatus =
    reapproval && (status === 'CREATED' || status === 'REJECTED' || status === 'EXPIRED')
      ? 'CREATED'
      : reapproval
        ? status
        : 'ACCEPTED';
  const out: StatusChange[] = [{ from: null, to: first, at: createdAt, trigger: null }];
  if (status !== first) out.push({ from: null, to: status, at: updatedAt, trigger: null });
  return out;
}
