/**
 * The registration flow (interface document, section 3).
 * @module
 */
import type { RegistrationData, User } from '../../generated/types.gen';
import type { ResourceMethods as CardIssuingClient } from '../resources';
import { FlowRun, type AcceptConsents, type FlowOptions } from './run';

/** Options of {@link registerUser}. Steps: `createUser`, `signRegistrationConsents`, `getUser`. */
export interface RegisterUserOptions extends FlowOptions {
  registration: RegistrationData;
  /** Asked with the registration consents the response lists. */
  acceptConsents: AcceptConsents;
  /** Makes the user creation safe to repeat across restarts (same key, same user). */
  idempotencyKey?: string;
}

/**
 * Registration: create the user; if the response lists required consents, sign each (after `acceptConsents`);
 * registration is then complete. Returns the user as it now is (`registrationStatus: 'COMPLETED'`).
 */
export async function registerUser(client: CardIssuingClient, options: RegisterUserOptions): Promise<{ user: User }> {
  const run = new FlowRun('registerUser', options);
  const created = await run.step(
    'createUser',
    () =>
      client.s2s.users.create(options.registration, {
        ...run.call,
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      }),
    (u) => `user ${u.id}`,
  );
  await run.signConsents(
    'signRegistrationConsents',
    created.requiredConsents,
    { userId: created.id, purpose: 'registration' },
    options.acceptConsents,
    (c) => client.s2s.consents.sign(created.id, c.id, run.call),
  );
  const user = await run.step(
    'getUser',
    async () => {
      const current = await client.s2s.users.get(created.id, run.call);
      if (current.registrationStatus !== 'COMPLETED') {
        run.refuse(
          'getUser',
          'REGISTRATION_INCOMPLETE',
          `registration is ${current.registrationStatus} after signing every listed consent`,
        );
      }
      return current;
    },
    (u) => `registration ${u.registrationStatus}`,
  );
  return { user };
}
