/** One line in words for each domain event (the Events tab, the clock's "became due", a request's detail). */
import type { MockEvent } from '../../observe';
import { money } from './format';

/** What an event says, in a sentence. */
export function describeEvent(e: MockEvent): string {
  const id = (s: string | null) => (s ? s.slice(0, 8) : '—');
  switch (e.type) {
    case 'user.registered':
      return `${e.area === 'business' ? 'Business user' : 'User'} ${id(e.userId)} registered`;
    case 'user.registrationCompleted':
      return `${e.area === 'business' ? 'Business user' : 'User'} ${id(e.userId)} completed registration`;
    case 'email.otpSent':
      return `E-mail code sent to user ${id(e.userId)}`;
    case 'email.verified':
      return `E-mail of user ${id(e.userId)} verified`;
    case 'kyc.changed':
      return `KYC of user ${id(e.userId)}: ${e.status}`;
    case 'card.generated':
      return `Card •••• ${e.last4} generated (${e.cardType})`;
    case 'card.statusChanged':
      return `Card ${id(e.cardId)}: ${e.from ?? 'new'} → ${e.to}`;
    case 'approval.statusChanged':
      return `Approval ${id(e.approvalUuid)}: ${e.from ?? 'new'} → ${e.to} (${e.trigger})`;
    case 'balance.credited':
      return `Balance ${id(e.balanceId)} credited ${money(e.amount.amount, e.amount.currency)}`;
    case 'balance.debited':
      return `Balance ${id(e.balanceId)} debited ${money(e.amount.amount, e.amount.currency)} for card ${id(e.cardId)}`;
    case 'deposit.verificationPending':
      return `Deposit ${id(e.verificationId)} waits for verification data`;
    case 'topUp.completed':
      return `Corporate ${id(e.corporateUuid)} topped up ${money(e.amount.amount, e.amount.currency)}`;
    case 'authorization.approved':
      return `Purchase approved: ${money(e.amount.amount, e.amount.currency)} at ${e.merchant}`;
    case 'authorization.declined':
      return `Purchase declined: ${money(e.amount.amount, e.amount.currency)} at ${e.merchant}${e.reason ? ` (${e.reason})` : ''}`;
    case 'authorization.incremented':
    case 'authorization.incrementDeclined':
    case 'authorization.captured':
    case 'authorization.reversed':
    case 'authorization.expired':
    case 'authorization.refunded': {
      const step = e.type.slice('authorization.'.length).replace('incrementDeclined', 'increment declined');
      return `Purchase at ${e.merchant} ${step} ${money(e.amount.amount, e.amount.currency)}: ${e.from} → ${e.to}${e.reason ? ` (${e.reason})` : ''}`;
    }
    case 'clock.advanced':
      return `Clock moved ${e.from.slice(0, 16).replace('T', ' ')} → ${e.to.slice(0, 16).replace('T', ' ')}`;
    case 'mock.reset':
      return 'Tenant reset to its seeded state';
    case 'mock.restored':
      return 'Tenant restored from a snapshot';
    default:
      return (e as { type: string }).type;
  }
}
