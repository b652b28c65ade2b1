/**
 * Registration data for a new Server2Server user, for the flows that drive the mock or a sandbox (the examples, the
 * contract suite, a CI script): each call gets an e-mail of its own, so runs that share one server never collide.
 * @module
 */
import type { RegistrationData } from 'card-issuing-sdk';

/**
 * The registration of `firstName lastName`: a unique e-mail (`ada.lovelace.1f2e3d4c@example.org`), a phone number
 * from the UK's range kept for drama (no one's real number), an adult's date of birth and the country `GB`.
 *
 * @example
 * ```ts
 * const user = await client.s2s.users.create(newRegistration('Ada', 'Lovelace'));
 * ```
 */
export function newRegistration(firstName = 'Ada', lastName = 'Lovelace'): RegistrationData {
  const tag = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('');
  return {
    email: `${firstName}.${lastName}.${tag}@example.org`.toLowerCase(),
    firstName,
    lastName,
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  };
}
