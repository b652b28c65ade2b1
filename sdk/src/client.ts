/**
 * `createCardIssuingClient`: checks the options, makes what every call shares once (the signer with its HMAC key,
 * the generated ky client, the request engine), and returns the methods the generated resource layer describes.
 *
 * Where the rest is: the methods (`./resources`, from `sdk/generated/resources.gen.ts`), one call from arguments
 * to parsed body (`./core/request`), retries (`./core/retry`), what a method returns (`./core/api-promise`,
 * `./core/pagination`), errors (`./core/errors/`), signing (`./signing/`), card details (`./card-details/`).
 * @module
 */
import { createClient } from '../generated/client';
import type { CardIssuingClientOptions } from './options';
import { createEngine } from './core/request';
import { buildResources, type CardIssuingClient } from './resources';
import { createSigner, type Signer } from './signing/sign';

const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * Creates a client. Signs every request with the api key and secret, retries what is safe to retry, validates
 * responses against the spec and throws typed errors.
 *
 * @example
 * ```ts
 * const client = createCardIssuingClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'test_key', apiSecret: 'test_secret' });
 * const user = await client.s2s.users.create({ email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace',
 *   phone: '+447700900123', dateOfBirth: '1990-12-10', country: 'GB' });
 * const { data, requestId } = await client.s2s.users.get(user.id).withResponse();
 * ```
 */
export function createCardIssuingClient(options: CardIssuingClientOptions): CardIssuingClient {
  const { apiKey, apiSecret } = options;
  if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('createCardIssuingClient: apiKey is required.');
  if (typeof apiSecret !== 'string' || apiSecret === '') throw new TypeError('createCardIssuingClient: apiSecret is required.');
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new TypeError('createCardIssuingClient: baseUrl must be an absolute URL such as http://127.0.0.1:4010.');
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new TypeError('createCardIssuingClient: baseUrl must be an http or https URL.');
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new TypeError('createCardIssuingClient: maxResponseBytes must be a positive whole number of bytes.');
  }

  // The HMAC key is imported once per client, not once per request.
  let signer: Signer;
  try {
    signer = createSigner({ apiKey, apiSecret, bodyHash: options.bodyHash ?? false, secretEncoding: options.secretEncoding ?? 'utf8' });
  } catch (error) {
    throw error instanceof TypeError ? new TypeError(error.message.replace(/^signRequest:/, 'createCardIssuingClient:')) : error;
  }
  const client = createClient({ baseUrl: baseUrl.href.replace(/\/+$/, ''), throwOnError: true, responseStyle: 'fields', parseAs: 'json' });
  return buildResources(createEngine({ options, baseUrl, maxResponseBytes, signer, client }));
}
