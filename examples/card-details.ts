/**
 * Card details: the PAN, expiry, CVV and cardholder name travel encrypted to a key pair the caller makes for the
 * session (RSA-OAEP-256 and A256GCM, a JWE any JOSE library opens). The private key never leaves this process; the
 * public key goes in the signed query, so no one on the way can swap it.
 *
 * Run alone: `npx tsx examples/card-details.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { cardKeyBits, exportPublicKey, generateCardKeyPair, issueCard, registerUser } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, type Example } from './support/example';
import { runStandalone } from './support/run';

/** An active virtual card's details, decrypted with key pairs made for the session. */
export const cardDetails: Example = {
  name: 'card-details',
  title: "a virtual card's details, decrypted with a fresh key pair",
  async run({ client, control, fixtures, progress }) {
    // A user with an active virtual card (free config: no draft to pay).
    const { user } = await registerUser(client, {
      registration: newRegistration('Katherine', 'Johnson'),
      acceptConsents: () => true,
      onStep: progress.within('registerUser').onStep,
    });
    const config = fixtures.cardConfigs.find((c) => c.type === 'VIRTUAL' && c.price === null);
    check(config !== undefined, 'the mock offers no free virtual card config');
    const { card } = await issueCard(client, {
      userId: user.id,
      configId: config.configId,
      getOtpCode: () => control.latestOtpCode(user.id),
      completeKyc: async () => void (await control.kyc(user.id, 'PASSED')),
      acceptConsents: () => true,
      onStep: progress.within('issueCard').onStep,
    });

    // A fresh key pair for this session: 2048-bit RSA (4096 allowed), made by Web Crypto.
    const { keyPair } = await progress.step(
      'generateCardKeyPair',
      async () => {
        const pair = await generateCardKeyPair();
        return { keyPair: pair, publicKey: await exportPublicKey(pair) };
      },
      (made) =>
        `RSA ${cardKeyBits(made.keyPair)} bits, public key ${made.publicKey.slice(0, 12)}… (base64url DER SPKI)`,
    );
    // The SDK sends the public key, decrypts the JWE with the private key and validates the result (schema, Luhn).
    const details = await progress.step(
      'getCardDetails',
      () => client.s2s.cards.getDetails(card.id, { keyPair }),
      (d) =>
        `•••• •••• •••• ${d.pan.slice(-4)}, expires ${String(d.expiryMonth).padStart(2, '0')}/${d.expiryYear}, ${d.cardholderName}`,
    );
    check(
      card.last4 !== null && details.pan.endsWith(card.last4),
      `the decrypted PAN does not end in the card's last4 ${card.last4}`,
    );
    check(
      details.expiryMonth === card.expiryMonth && details.expiryYear === card.expiryYear,
      "the decrypted expiry is not the card's",
    );

    // Each session makes its own pair: the service encrypts to whichever public key the request carries.
    const again = await progress.step(
      'getCardDetails/newKeyPair',
      async () => client.s2s.cards.getDetails(card.id, { keyPair: await generateCardKeyPair() }),
      (d) => `the same card (•••• ${d.pan.slice(-4)}) through a second key pair`,
    );
    check(
      again.pan === details.pan && again.cvv === details.cvv,
      'two key pairs decrypted different details of one card',
    );
  },
};

if (import.meta.main) await runStandalone(cardDetails);
