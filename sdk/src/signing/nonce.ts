/**
 * Random identifiers: a request's nonce and the SDK's idempotency keys.
 * @module
 */

/**
 * A fresh nonce: 32 lower-case hex characters (a random GUID without dashes, 122 random bits). `randomUuid` draws
 * from `crypto.randomUUID` where it exists (Node keeps a batch of entropy for it: no system call per nonce).
 */
export function createNonce(): string {
  return randomUuid().replaceAll('-', '');
}

/**
 * A random (version 4) UUID, in any context that has `crypto.getRandomValues`: `randomUUID` is missing from a
 * browser page outside a secure context (plain http on a LAN address).
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  let hex = '';
  for (const b of bytes) hex += HEX[b]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
