/**
 * A business user's registration (decided): PENDING until the user finishes registration outside the API
 * (in the mock: the control API), which moves the user's ACCEPTED approvals on.
 * @module
 */
import type { Machine } from './machine';

/** A business user's registration status. */
export type BusinessUserStatus = 'PENDING' | 'COMPLETED';

/** The business user table. */
export const businessUserMachine: Machine<BusinessUserStatus, 'createBusinessUser' | 'completeRegistration'> = {
  name: 'business user',
  rows: [
    { from: null, trigger: 'createBusinessUser', to: 'PENDING' },
    {
      from: ['PENDING'],
      trigger: 'completeRegistration',
      condition: 'the user finished registration',
      to: 'COMPLETED',
      also: "the user's ACCEPTED approvals move on at once (DELIVERED, or PREPARED until validFrom)",
    },
  ],
};
