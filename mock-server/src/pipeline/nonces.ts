/**
 * The nonce cache of signature checks, bounded: a nonce is kept while its timestamp is within the skew window (so a
 * replay inside the window is refused), and at most {@link MAX_NONCES} are kept in all, the oldest forgotten first,
 * so that a flood of requests cannot grow memory without end. The cache itself is the SDK's `NonceCache`.
 * @module
 */
import { NonceCache } from 'card-issuing-sdk/server';
import { wallNow } from '../clock';

/** At most this many nonces are remembered (all tenants together). */
export const MAX_NONCES = 20_000;

/** The mock's nonce cache: the window, and {@link MAX_NONCES} at most. */
export function createNonceCache(max = MAX_NONCES): NonceCache {
  return new NonceCache({ max });
}

/** Seconds of the wall clock (what signatures are checked against). */
export function wallSeconds(): number {
  return Math.floor(wallNow() / 1000);
}
