/**
 * `card-issuing-mock/browser`: the mock in the browser's service worker, for front-end apps that call the API
 * with `fetch` and should get the mock's answers without a server. Same handlers as `createMock()` in tests and as
 * the standalone server.
 *
 * Put msw's worker script where the app serves static files first: `npx card-issuing-mock init public`.
 *
 * ```ts
 * import { startBrowserMock } from 'card-issuing-mock/browser';
 * if (import.meta.env.DEV) await startBrowserMock({ baseUrl: 'https://api.example.test' });
 * // The SDK refuses an api secret in a browser unless told: a secret in a page is public. Against this mock the
 * // secret is its public test secret and the requests never leave the page, so saying so is fine here.
 * const client = createCardIssuingClient({ baseUrl: 'https://api.example.test', apiKey: 'test_key',
 *   apiSecret: 'test_secret', dangerouslyAllowBrowser: true });
 * ```
 * @module card-issuing-mock/browser
 */
import { http, passthrough } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { keepBrowserState } from './runners/browser-state';
import {
  createMock,
  type CardIssuingMock,
  type EventFilter,
  type JournalEntry,
  type MockEvent,
  type ObservedListener,
  type RequestFilter,
} from './index.js';

/** Options of {@link startBrowserMock}: those of {@link createMock} plus where the worker script is. */
export type StartBrowserMockOptions = Parameters<typeof createMock>[0] & {
  /** Where the app serves msw's `mockServiceWorker.js` (default `/mockServiceWorker.js`), and registration options. */
  serviceWorker?: { url?: string; options?: RegistrationOptions };
  /**
   * Do not log each intercepted request in the browser console. Default true: a page left running all day would
   * otherwise get a console group per request (msw's own default); `quiet: false` turns them on.
   */
  quiet?: boolean;
  /**
   * Also put {@link BrowserMockInspector} on `globalThis` under this name (e.g. `'cardIssuingMock'`), so that the
   * browser's console or a devtools panel can read the journal: `cardIssuingMock.requests({ status: '4xx' })`.
   */
  expose?: string;
  /**
   * Keep the tenant's state and virtual clock across reloads, in the origin's IndexedDB (one record per tenant, the
   * mock's JSON snapshot, saved at each change). Default false: each load starts from the seeded state.
   */
  persist?: boolean;
  /**
   * Show a change made in one tab in the page's other tabs (a BroadcastChannel per tenant; the last change sent
   * wins). A tab opened later takes the state of the tabs already open: with `persist` from the saved state, without
   * it from their answer (it waits for it, and `init` does not run). Default false.
   */
  sync?: boolean;
  /**
   * Runs once on a fresh store, before the first request is answered: every start without `persist`, and with
   * `persist` only when nothing was saved yet (or after `reset()`). Put the app's starting data here; a reload keeps
   * what it made instead of making it again.
   */
  init?: (mock: CardIssuingMock) => void | Promise<void>;
  /**
   * Let {@link BrowserMock.openInspector} show the inspector page over the app: this tab's own mock, seen and steered
   * without a server. The page is a static copy in the app's public folder (`npx card-issuing-mock init public
   * --inspector` writes it to `/__mock/ui/`; `url` if it is served elsewhere); its calls to the control API are
   * answered by this tab's service worker. Default false.
   */
  inspector?: boolean | { url?: string };
};

/** What the browser mock saw: the same journal and events as `GET /__mock/requests` and `/__mock/events` of the server. */
export interface BrowserMockInspector {
  /** The request journal of the default tenant, newest first (redacted: no Authorization header, secret or card number). */
  requests(filter?: RequestFilter): JournalEntry[];
  /** The domain events of the default tenant, oldest first. */
  events(filter?: EventFilter): MockEvent[];
  /** Calls `listener` with each exchange and event as it happens; returns the function that stops it. */
  subscribe(listener: ObservedListener): () => void;
}

/** A running browser mock. */
export interface BrowserMock extends BrowserMockInspector {
  /** The msw worker, for `worker.use(...)` overrides in a story or a test. */
  worker: SetupWorker;
  /** The mock's control API (clock, outbox, kyc, deposits, faults, ...). */
  mock: CardIssuingMock;
  /**
   * Back to the seeded state: this tab's mock, the state saved with `persist` and the other tabs with `sync`; then
   * `init` runs again.
   */
  reset(): Promise<void>;
  /**
   * Shows the inspector page over the app, in a panel with a close button (needs `inspector: true`); a second call
   * brings the same panel back. Returns the panel's frame.
   */
  openInspector(): HTMLIFrameElement;
  /** Takes the inspector panel away. */
  closeInspector(): void;
  /** Stops intercepting requests (and saving and syncing). */
  stop(): Promise<void>;
}

/**
 * Registers the service worker and starts answering the API's requests from the mock. Requests the mock does not
 * handle (the app's own assets, other APIs) go to the network untouched.
 */
export async function startBrowserMock(options: StartBrowserMockOptions = {}): Promise<BrowserMock> {
  const {
    serviceWorker,
    quiet = true,
    expose,
    persist = false,
    sync = false,
    init,
    inspector: inspectorOption,
    ...mockOptions
  } = options;
  const mock = createMock(mockOptions);
  const state = await keepBrowserState(mock, { persist, sync });
  if (state.fresh && init) await state.initialize(() => init(mock));
  const inspectorUrl = inspectorOption
    ? (typeof inspectorOption === 'object' && inspectorOption.url) || '/__mock/ui/index.html'
    : undefined;
  // The inspector page's own files come from the app's server, even when the mock answers every origin.
  const pageFiles = inspectorUrl
    ? [http.get(`${new URL('.', new URL(inspectorUrl, location.href)).href}*`, () => passthrough())]
    : [];
  const worker = setupWorker(...pageFiles, ...mock.handlers);
  await worker.start({
    serviceWorker: {
      url: serviceWorker?.url ?? '/mockServiceWorker.js',
      ...(serviceWorker?.options ? { options: serviceWorker.options } : {}),
    },
    onUnhandledFrame: 'bypass',
    quiet,
  });
  // msw runs the handlers in the page (the worker only forwards requests), so the journal and events are this
  // page's own objects: nothing crosses to the worker to read them.
  const inspector: BrowserMockInspector = {
    requests: (filter) => mock.requests(filter),
    events: (filter) => mock.events(filter),
    subscribe: (listener) => mock.subscribe(listener),
  };
  if (expose) (globalThis as Record<string, unknown>)[expose] = inspector;
  let panel: HTMLElement | undefined;
  return {
    worker,
    mock,
    ...inspector,
    async reset() {
      await state.reset();
      await init?.(mock);
    },
    openInspector() {
      if (!inspectorUrl)
        throw new Error('The inspector is off: start the mock with startBrowserMock({ inspector: true }).');
      panel ??= inspectorPanel(inspectorUrl, mockOptions.baseUrl ?? location.origin, () => {
        panel?.remove();
        panel = undefined;
      });
      document.body.append(panel);
      return panel.querySelector('iframe')!;
    },
    closeInspector() {
      panel?.remove();
      panel = undefined;
    },
    async stop() {
      panel?.remove();
      state.close();
      await worker.stop();
      if (expose && (globalThis as Record<string, unknown>)[expose] === inspector)
        delete (globalThis as Record<string, unknown>)[expose];
    },
  };
}

/** The inspector in a panel over the app: a labelled region with a close button and the page in a frame. */
function inspectorPanel(url: string, apiBase: string, close: () => void): HTMLElement {
  const panel = document.createElement('section');
  panel.setAttribute('aria-label', 'Mock inspector');
  panel.style.cssText =
    'position:fixed;inset:0 0 0 auto;width:min(760px,100vw);z-index:2147483647;display:flex;flex-direction:column;background:#fff;box-shadow:-4px 0 16px rgba(0,0,0,.25)';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Close mock inspector';
  button.style.cssText = 'align-self:flex-end;margin:4px;font:inherit';
  button.addEventListener('click', close);
  const frame = document.createElement('iframe');
  frame.title = 'Mock inspector';
  const src = new URL(url, location.href);
  src.searchParams.set('api', apiBase);
  frame.src = src.href;
  frame.style.cssText = 'flex:1;border:0;width:100%';
  panel.append(button, frame);
  return panel;
}
