/**
 * The body of a new Server2Server user with a unique e-mail (the suite runs many times against one server).
 * @module
 */

/** A registration for `firstName lastName` with a fresh e-mail address. */
export function newRegistration(firstName: string, lastName: string) {
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
