// Speed of the pieces every request pays for. Run: npm run bench (vitest bench). Numbers, not assertions.
import { test } from 'vitest';
import { decryptCardDetails } from '../sdk/src/card-details/decrypt';
import { encryptCardDetails } from '../sdk/src/card-details/encrypt';
import { generateCardKeyPair } from '../sdk/src/card-details/keys';
import { NonceCache } from '../sdk/src/signing/nonce-cache';
import { createSigner, signRequest } from '../sdk/src/signing/sign';
import { verifySignature } from '../sdk/src/signing/verify';

const body = JSON.stringify({
  userUuid: '6a1d9e40-2b7f-4c83-9e15-0f4a2b6c8d3e',
  budget: { amount: 50000, currency: 'EUR' },
  validFrom: '2026-11-21T00:00:00Z',
  validTo: '2026-12-31T00:00:00Z',
});
const url = 'http://127.0.0.1:4010/corporates/corporates/1b6e3d8f-5a2c-4f7e-9b0d-4c8a1e6f2d93/approvals';
const credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };

const nonces = new NonceCache();
// What the client does: one signer per client, its HMAC key imported once (issue 11's per-call overhead).
const signer = createSigner(credentials);
const bodySigner = createSigner({ ...credentials, bodyHash: true });

test('request signing', async ({ bench }) => {
  await bench.compare(
    bench('signRequest (POST with JSON body; key imported per call)', async () => {
      await signRequest({ method: 'POST', url, body, ...credentials });
    }),
    bench('createSigner().sign (key imported once, as the client does)', async () => {
      await signer.sign({ method: 'POST', url });
    }),
    bench('createSigner({ bodyHash: true }).sign (the opt-in body hash)', async () => {
      await bodySigner.sign({ method: 'POST', url, body });
    }),
    bench('signRequest + verifySignature (with nonce cache)', async () => {
      const signed = await signRequest({ method: 'POST', url, body, ...credentials });
      await verifySignature({
        method: 'POST',
        url,
        body,
        authorization: signed.authorization,
        getSecret: () => credentials.apiSecret,
        nonces,
      });
    }),
  );
});

test('card details (RSA-2048, Web Crypto)', async ({ bench }) => {
  const keyPair = await generateCardKeyPair();
  const details = {
    pan: '4000123412344246',
    expiryMonth: 11,
    expiryYear: 2029,
    cvv: '123',
    cardholderName: 'ADA LOVELACE',
  };
  const jwe = await encryptCardDetails(details, keyPair);
  await bench.compare(
    bench('encryptCardDetails', async () => {
      await encryptCardDetails(details, keyPair);
    }),
    bench('decryptCardDetails', async () => {
      await decryptCardDetails(jwe, keyPair);
    }),
  );
  await bench('generateCardKeyPair (2048)', async () => {
    await generateCardKeyPair();
  }).run();
});
