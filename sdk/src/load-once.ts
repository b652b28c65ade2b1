/**
 * The one way the SDK loads something lazily and keeps it: its chunks (validation, the problem reader, card details,
 * node-forge) and its key imports (the signer's HMAC key, a node-forge key converted to Web Crypto).
 * @module
 */

/**
 * `load()` once, its promise shared by every caller; a load that fails is forgotten, so the next call tries again
 * (a chunk that did not arrive on a flaky network, or a key import that failed, must not break every later call
 * until the page reloads or the process restarts).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
