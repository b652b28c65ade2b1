/**
 * `card-issuing-mock/jest-environment-jsdom`: Jest's jsdom environment with the web APIs jsdom leaves out and a
 * fetch client needs. jsdom's window has no `fetch`, `Request`, `Response` or `Headers`, no `crypto.subtle`, and
 * Node's `TextEncoder` and streams are not on it, so the SDK (and msw) cannot run there; this environment puts
 * Node's own on the window, with Node's `AbortController` and `AbortSignal` (the only signals Node's fetch takes).
 * Everything else is jsdom's (DOM, events, `URL`, `Blob`, `FormData`).
 *
 * ```js
 * // jest.config.js (needs jest-environment-jsdom installed, as 'jsdom' does)
 * module.exports = { testEnvironment: 'card-issuing-mock/jest-environment-jsdom', setupFilesAfterEnv: ['card-issuing-mock/jest'] };
 * ```
 * @module card-issuing-mock/jest-environment-jsdom
 */
import { createRequire } from 'node:module';

/** The part of a Jest environment this one touches; the class itself comes from the project's jest-environment-jsdom. */
interface JestEnvironment {
  global: Record<string, unknown>;
}
type JestEnvironmentClass = new (config: unknown, context: unknown) => JestEnvironment;

/** Node's web APIs that jsdom's window lacks or implements without what fetch clients rely on. */
export const NODE_WEB_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  // Node's fetch takes only Node's signals, and ky combines the caller's signal with its own through AbortSignal.any.
  'AbortController',
  'AbortSignal',
  'crypto',
  'TextEncoder',
  'TextDecoder',
  'TextEncoderStream',
  'TextDecoderStream',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'structuredClone',
  'BroadcastChannel',
] as const;

// jest-environment-jsdom is the project's (a peer dependency), found from here as Jest itself would find it.
const load = createRequire(import.meta.url);
const { TestEnvironment } = load('jest-environment-jsdom') as { TestEnvironment: JestEnvironmentClass };

/** jsdom, plus Node's fetch, Request, Response, Headers, signals, Web Crypto, encoders and streams. */
export default class CardIssuingJsdomEnvironment extends TestEnvironment {
  constructor(config: unknown, context: unknown) {
    super(config, context);
    const window = this.global;
    const jsdomSignals = { AbortController: window.AbortController, AbortSignal: window.AbortSignal } as JsdomSignals;
    const node = globalThis as unknown as Record<string, unknown>;
    for (const name of NODE_WEB_GLOBALS) {
      // Some (crypto) are getters on jsdom's window: define, do not assign.
      if (node[name] !== undefined)
        Object.defineProperty(window, name, { value: node[name], configurable: true, writable: true });
    }
    bridgeListenerSignals(window, jsdomSignals);
  }
}

export { CardIssuingJsdomEnvironment as TestEnvironment };

interface JsdomSignals {
  AbortController: typeof AbortController;
  AbortSignal: typeof AbortSignal;
}

/**
 * jsdom's `addEventListener(type, listener, { signal })` takes only jsdom's own AbortSignal; with Node's on the
 * window, each such signal is given a jsdom twin that aborts with it (as vitest's jsdom environment does).
 */
function bridgeListenerSignals(window: Record<string, unknown>, jsdom: JsdomSignals): void {
  const prototype = (window.EventTarget as typeof EventTarget).prototype;
  const addEventListener = prototype.addEventListener;
  const twins = new WeakMap<AbortSignal, AbortSignal>();
  const twinOf = (signal: AbortSignal): AbortSignal => {
    let twin = twins.get(signal);
    if (!twin) {
      const controller = new jsdom.AbortController();
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
      twin = controller.signal;
      twins.set(signal, twin);
    }
    return twin;
  };
  prototype.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    const signal = typeof options === 'object' ? options.signal : undefined;
    const own =
      signal && !(signal instanceof jsdom.AbortSignal)
        ? { ...(options as AddEventListenerOptions), signal: twinOf(signal) }
        : options;
    addEventListener.call(this, type, listener, own);
  };
}
