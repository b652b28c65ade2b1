/**
 * A synchronous HMAC-SHA256 from node:crypto where the runtime hands that module out without an import
 * (`process.getBuiltinModule`, Node 22.3+), so the SDK stays free of `node:` imports: bundlers and browsers never see
 * it, and elsewhere the caller falls back to Web Crypto. Why: Web Crypto's `sign` runs on Node's thread pool, about
 * 100-180 µs per call under load, where `createHmac` takes a few microseconds on the calling thread.
 * @module
 */

interface NodeHmac {
  update(data: string, encoding: 'utf8'): NodeHmac;
  digest(encoding: 'base64'): string;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: string | Uint8Array): NodeHmac;
}

/**
 * `base64(HMAC-SHA256(key, message))` with node:crypto (a string key is hashed as UTF-8), or undefined where
 * node:crypto cannot be had synchronously (browsers, workers, React Native, Node before 22.3).
 */
export function nodeHmacSha256(): ((key: string | Uint8Array, message: string) => string) | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto =
    typeof proc?.getBuiltinModule === 'function'
      ? (proc.getBuiltinModule('node:crypto') as NodeCrypto | undefined)
      : undefined;
  if (typeof crypto?.createHmac !== 'function') return undefined;
  return (secret, message) => crypto.createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}
