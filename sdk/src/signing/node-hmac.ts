/**
 * A synchronous HMAC-SHA256 from node:crypto where the runtime hands that module out without an import
 * (`process.getBuiltinModule`, Node 22.3+), so the SDK stays free of `node:` imports: bundlers and browsers never see
 * it, and elsewhere the caller falls back to Web Crypto. Why: Web Crypto's `sign` runs on Node's thread pool, about
 * 100-180 µs per call under load, where `createHmac` takes a few microseconds on the calling thread.
 * @module
 */

interface NodeHmac {
  update(data: string, encoding: 'utf8'): NodeHmac;
  digest(): Uint8Array;
  digest(encoding: 'base64'): string;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: string | Uint8Array | object): NodeHmac;
  createSecretKey(key: Uint8Array): object;
}

function nodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto =
    typeof proc?.getBuiltinModule === 'function'
      ? (proc.getBuiltinModule('node:crypto') as NodeCrypto | undefined)
      : undefined;
  return typeof crypto?.createHmac === 'function' ? crypto : undefined;
}

/** A keyed node:crypto HMAC-SHA256 (its key object made once per key) whose digest `digest` reads. */
function keyedHmac<T>(
  digest: (hmac: NodeHmac) => T,
): ((key: string | Uint8Array) => (message: string) => T) | undefined {
  const crypto = nodeCrypto();
  if (typeof crypto?.createSecretKey !== 'function') return undefined;
  const encoder = new TextEncoder();
  return (key) => {
    const object = crypto.createSecretKey(typeof key === 'string' ? encoder.encode(key) : key);
    return (message) => digest(crypto.createHmac('sha256', object).update(message, 'utf8'));
  };
}

/**
 * `base64(HMAC-SHA256(key, message))` with node:crypto as a function of the message, the key's key object made once
 * (a string key is its UTF-8 bytes), or undefined where node:crypto cannot be had synchronously (browsers, workers,
 * React Native, Node before 22.3).
 */
export function nodeHmacSha256(): ((key: string | Uint8Array) => (message: string) => string) | undefined {
  return keyedHmac((hmac) => hmac.digest('base64'));
}
