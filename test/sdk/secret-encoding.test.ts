/**
 * `secretEncoding`: how the api secret becomes the HMAC key. `'utf8'` (default) hashes the secret's characters;
 * `'base64'` hashes the bytes the secret encodes. The expected signatures come from openssl, not from our code, and
 * the client is checked against a node:http server that verifies with node:crypto on the decoded bytes.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, createCardIssuingClient } from '../../sdk/src/index';
import { parseAuthorization } from '../../sdk/src/signing/authorization';
import { signRequest } from '../../sdk/src/signing/sign';
import { verifySignature } from '../../sdk/src/signing/verify';

// 32 random bytes, base64: not valid UTF-8 once decoded, so the two encodings give different keys.
const SECRET = 'KZWRK754TmOvHxIieZ/SHBkU5uC4X0QiAOcRQpbmsi0=';
const INPUT = {
  method: 'POST',
  url: 'https://api.example.test/s2s/health?arg1=test1',
  apiKey: 'test_key',
  apiSecret: SECRET,
  timestamp: 1674742013,
  nonce: '75293d8ca0e6453f823fe87315e9483b',
} as const;
const STRING_TO_SIGN =
  'test_keyPOSThttps://api.example.test/s2s/health?arg1=test1167474201375293d8ca0e6453f823fe87315e9483b';
// sts='<STRING_TO_SIGN>'; secret='<SECRET>'
// printf %s "$sts" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$(printf %s "$secret" | base64 -d | xxd -p -c 256) -binary | base64
const OPENSSL_BASE64_KEY = 'DeRFGczXmSd/r2CKuGg4CeWbpirSYKKIv6tJedEuVhI=';
// printf %s "$sts" | openssl dgst -sha256 -mac HMAC -macopt key:"$secret" -binary | base64
const OPENSSL_UTF8_KEY = 'rshBKxzbd0bUBghSLMTS8LUfBho8ECrBc7a41SfzEoI=';

const signatureOf = (authorization: string) => parseAuthorization(authorization)!.signature;

describe('signRequest with secretEncoding', () => {
  it("'base64' keys the HMAC with the decoded bytes (the openssl vector)", async () => {
    const signed = await signRequest({ ...INPUT, secretEncoding: 'base64' });
    expect(signed.stringToSign).toBe(STRING_TO_SIGN);
    expect(signatureOf(signed.authorization)).toBe(OPENSSL_BASE64_KEY);
  });

  it("'utf8' is the default and keys the HMAC with the secret's characters", async () => {
    expect(signatureOf((await signRequest(INPUT)).authorization)).toBe(OPENSSL_UTF8_KEY);
    expect(signatureOf((await signRequest({ ...INPUT, secretEncoding: 'utf8' })).authorization)).toBe(OPENSSL_UTF8_KEY);
  });

  it('gives the same signature through Web Crypto (no process.getBuiltinModule) as through node:crypto', async () => {
    const builtin = process.getBuiltinModule;
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      expect(signatureOf((await signRequest({ ...INPUT, secretEncoding: 'base64' })).authorization)).toBe(
        OPENSSL_BASE64_KEY,
      );
    } finally {
      process.getBuiltinModule = builtin;
    }
  });

  it("refuses a secret that is not base64 under 'base64', without quoting it", async () => {
    const secret = 'not base64: sk_live_secret!';
    const error = await signRequest({ ...INPUT, apiSecret: secret, secretEncoding: 'base64' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/not base64/);
    expect((error as Error).message).not.toContain(secret);
  });
});

describe('verifySignature with secretEncoding', () => {
  const verify = (
    authorization: string,
    secretEncoding?: 'utf8' | 'base64',
    hmac?: (s: string, m: string) => Uint8Array,
  ) =>
    verifySignature({
      method: INPUT.method,
      url: INPUT.url,
      authorization,
      getSecret: () => SECRET,
      now: INPUT.timestamp,
      ...(secretEncoding ? { secretEncoding } : {}),
      ...(hmac ? { hmac } : {}),
    });
  const authorization = (signature: string) =>
    `HMAC-SHA256 ${INPUT.apiKey}:${signature}:${INPUT.nonce}:${INPUT.timestamp}`;

  it("accepts the openssl base64-key signature under 'base64' and refuses it under the default", async () => {
    expect(await verify(authorization(OPENSSL_BASE64_KEY), 'base64')).toMatchObject({ ok: true });
    expect(await verify(authorization(OPENSSL_BASE64_KEY))).toMatchObject({
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
  });

  it("accepts the openssl UTF-8-key signature by default and refuses it under 'base64'", async () => {
    expect(await verify(authorization(OPENSSL_UTF8_KEY))).toMatchObject({ ok: true });
    expect(await verify(authorization(OPENSSL_UTF8_KEY), 'base64')).toMatchObject({
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
  });

  it('never passes a base64 secret to a UTF-8 `hmac` callback (which would key it wrongly)', async () => {
    const utf8Hmac = (secret: string, message: string) =>
      new Uint8Array(createHmac('sha256', secret).update(message).digest());
    expect(await verify(authorization(OPENSSL_BASE64_KEY), 'base64', utf8Hmac)).toMatchObject({ ok: true });
    expect(await verify(authorization(OPENSSL_UTF8_KEY), undefined, utf8Hmac)).toMatchObject({ ok: true });
  });
});

describe('the client with secretEncoding, against a node:http server that base64-decodes the secret', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // An independent verifier: node:crypto keyed with the decoded bytes, the five published parts.
    server = createServer((request, response) => {
      const parts = parseAuthorization(request.headers.authorization ?? '');
      const url = `${baseUrl}${request.url}`;
      const expected =
        parts &&
        createHmac('sha256', Buffer.from(SECRET, 'base64'))
          .update(`${parts.apiKey}${request.method}${url.toLowerCase()}${parts.timestamp}${parts.nonce}`)
          .digest('base64');
      request.resume();
      if (parts && parts.signature === expected) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ignored' }));
      } else {
        response.writeHead(401, { 'content-type': 'application/problem+json' }).end(
          JSON.stringify({
            type: 'https://docs.card-issuing.example/errors/auth_signature_mismatch',
            title: 'signature mismatch',
            status: 401,
            code: 'AUTH_SIGNATURE_MISMATCH',
            detail: 'The signature does not match the request.',
            requestId: 'req_1',
          }),
        );
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (secretEncoding?: 'utf8' | 'base64') =>
    createCardIssuingClient({
      baseUrl,
      apiKey: 'test_key',
      apiSecret: SECRET,
      retry: false,
      validateResponses: false,
      ...(secretEncoding ? { secretEncoding } : {}),
    });

  it("is accepted with 'base64' and refused with the default", async () => {
    const accepted = await client('base64').s2s.users.get('5b0e3f1c-8d4e-4a7b-9c2d-1e2f3a4b5c6d').withResponse();
    expect(accepted.status).toBe(200);
    const refused = await client()
      .s2s.users.get('5b0e3f1c-8d4e-4a7b-9c2d-1e2f3a4b5c6d')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).code).toBe('AUTH_SIGNATURE_MISMATCH');
  });

  it('refuses to be created with a secret that is not base64, naming the option but not the secret', () => {
    expect(() =>
      createCardIssuingClient({ baseUrl, apiKey: 'k', apiSecret: 'sk_live_#secret', secretEncoding: 'base64' }),
    ).toThrow(/^createCardIssuingClient: apiSecret is not base64/);
  });
});
