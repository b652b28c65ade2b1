/**
 * The browser guard: an api secret in a web page is public (anyone who opens the page can read it and sign as the
 * application), so creating a client with one in a browser is refused unless the caller says it knows
 * (`dangerouslyAllowBrowser: true`), as the Stainless-generated SDKs do. A page against the local mock, a demo, or an
 * internal tool whose users may hold the secret anyway are such cases.
 * @module
 */

/**
 * True where the code runs in a web browser: a page (window and document) or a web worker. jsdom and happy-dom
 * test environments run in Node (`process.versions.node`), where no page ships the secret to anyone: not a browser.
 */
export function isBrowserRuntime(): boolean {
  const g = globalThis as {
    window?: { document?: unknown };
    document?: unknown;
    navigator?: unknown;
    process?: { versions?: { node?: unknown } };
    Deno?: unknown;
    WorkerGlobalScope?: unknown;
    importScripts?: unknown;
  };
  if (typeof g.process?.versions?.node === 'string' || g.Deno !== undefined) return false;
  const page =
    typeof g.window === 'object' && g.window !== null && typeof g.document === 'object' && g.document !== null;
  const worker = typeof g.WorkerGlobalScope === 'function' && typeof g.importScripts === 'function';
  return (page || worker) && typeof g.navigator === 'object';
}

/** The error a client with a secret gets in a browser without `dangerouslyAllowBrowser`. */
export const BROWSER_SECRET_MESSAGE =
  'createCardIssuingClient: an apiSecret in a browser is readable by everyone who opens the page. Call the API from ' +
  'your server; where a public secret is fine (the local mock, a demo), pass dangerouslyAllowBrowser: true.';

/** Throws a TypeError with {@link BROWSER_SECRET_MESSAGE} when a secret is used in a browser without the flag. */
export function assertSecretAllowedHere(options: {
  apiSecret?: unknown;
  dangerouslyAllowBrowser?: boolean | undefined;
}): void {
  if (options.dangerouslyAllowBrowser === true || !options.apiSecret) return;
  if (isBrowserRuntime()) throw new TypeError(BROWSER_SECRET_MESSAGE);
}
