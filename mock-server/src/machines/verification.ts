/**
 * Deposit verification statuses (decided): an incoming deposit is credited at once, or first waits for the
 * integrator's approval with verification data. Either way the balance is credited exactly once.
 * @module
 */
import type { Machine } from './machine';

/** A verification's status. */
export type VerificationStatus = 'PENDING_APPROVAL' | 'CREDITED';
/** What moves a verification. */
export type VerificationTrigger = 'incomingDeposit' | 'approveDepositVerification';

/** The verification table. */
export const verificationMachine: Machine<VerificationStatus, VerificationTrigger, { requiresVerification: boolean }> =
  {
    name: 'verification',
    rows: [
      {
        from: null,
        trigger: 'incomingDeposit',
        condition: 'the deposit needs verification data',
        when: (c) => c.requiresVerification,
        to: 'PENDING_APPROVAL',
      },
      {
        from: null,
        trigger: 'incomingDeposit',
        condition: 'the deposit passes checking as it is',
        when: (c) => !c.requiresVerification,
        to: 'CREDITED',
        also: 'the balance is credited',
      },
      {
        from: ['PENDING_APPROVAL'],
        trigger: 'approveDepositVerification',
        condition: 'verification data sent',
        to: 'CREDITED',
        also: 'the balance is credited, exactly once',
      },
    ],
    refusals: [{ trigger: 'approveDepositVerification', from: ['CREDITED'], code: 'VERIFICATION_NOT_PENDING' }],
  };
