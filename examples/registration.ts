/**
 * Registration with consents (interface document, section 3): create the user; the response lists the registration
 * consents; sign each; registration is then complete.
 *
 * Run alone: `npx tsx examples/registration.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { registerUser } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, type Example } from './support/example';
import { runStandalone } from './support/run';

/** Registration with consents, through the SDK's `registerUser` flow. */
export const registration: Example = {
  name: 'registration',
  title: 'a user signs the registration consents the service lists',
  async run({ client, progress }) {
    const { user } = await registerUser(client, {
      registration: newRegistration('Ada', 'Lovelace'),
      // Show the consents to the user; true when they accepted every one (here: they do).
      acceptConsents: (consents) => consents.every((consent) => consent.url.startsWith('https://')),
      onStep: progress.onStep,
    });
    check(
      user.requiredConsents.every((consent) => consent.signed),
      `user ${user.id} still has unsigned registration consents`,
    );

    // The consents as the service now has them; `withResponse()` adds the request id to quote to support.
    await progress.step(
      'reviewConsents',
      () => client.s2s.users.get(user.id).withResponse(),
      ({ data, requestId }) =>
        `${data.requiredConsents.map((c) => `${c.title} ${c.version}: signed`).join(', ')} (${requestId})`,
    );
  },
};

if (import.meta.main) await runStandalone(registration);
