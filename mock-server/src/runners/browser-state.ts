/**
 * The browser mock's state across reloads and tabs: the tenant's JSON snapshot (its records and its virtual clock)
 * kept in IndexedDB (one record per tenant; IndexedDB itself is per origin), and sent to the page's other tabs over a
 * BroadcastChannel whenever it changes. A tab applies what another sent with `restore`, so every tab answers from the
 * same state; when two tabs change it at once, the last snapshot sent wins.
 * @module
 */
import type { CardIssuingMock } from '../mock/options';
import type { TenantSnapshot } from '../store';

const DATABASE = 'card-issuing-mock';
const STORE = 'tenants';

/** One tenant's saved snapshot in the origin's IndexedDB. */
interface SavedState {
  load(): Promise<TenantSnapshot | undefined>;
  save(snapshot: TenantSnapshot): Promise<void>;
  clear(): Promise<void>;
  close(): void;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

async function openSavedState(apiKey: string): Promise<SavedState> {
  const open = indexedDB.open(DATABASE, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await done(open);
  const write = (change: (store: IDBObjectStore) => void) => {
    const tx = db.transaction(STORE, 'readwrite');
    change(tx.objectStore(STORE));
    // Committed now rather than when the task ends: a reload right after a change still finds it.
    tx.commit?.();
    return committed(tx);
  };
  return {
    async load() {
      const text = await done(db.transaction(STORE, 'readonly').objectStore(STORE).get(apiKey));
      return typeof text === 'string' ? (JSON.parse(text) as TenantSnapshot) : undefined;
    },
    save: (snapshot) => write((store) => store.put(JSON.stringify(snapshot), apiKey)),
    clear: () => write((store) => store.delete(apiKey)),
    close: () => db.close(),
  };
}

/** A message between the tabs of one tenant. */
type TabMessage = { kind: 'state'; from: string; snapshot: string } | { kind: 'hello'; from: string };

/** What {@link keepBrowserState} sets up: how to reset both stores, and how to stop. */
export interface BrowserState {
  /** True when nothing was saved for the tenant: the mock starts from its seeded state (and `init` runs). */
  fresh: boolean;
  /**
   * Runs the app's `init` on the fresh store. Without `persist`, its changes stay in this tab: the tabs already open
   * keep their state, and this one takes theirs when they answer.
   */
  initialize(init: () => void | Promise<void>): Promise<void>;
  /** Back to the seeded state in this tab, in the saved state and in the other tabs. */
  reset(): Promise<void>;
  /** Stops saving and syncing. */
  close(): void;
}

/**
 * Answers the other tabs' messages on the channel, and holds this tab's lock while it runs. Without a restored
 * snapshot, a tab opened after others waits for their state (`joined`).
 */
async function joinOtherTabs(
  channel: BroadcastChannel,
  my: {
    mock: CardIssuingMock;
    apiKey: string;
    tab: string;
    restored: boolean;
    apply: (change: () => void) => void;
    send: (message: TabMessage) => void;
  },
): Promise<{ joined: boolean; release: () => void }> {
  const { mock, tab, apply, send } = my;
  /** Set while this tab waits for the state of the tabs already open. */
  let arrived: (() => void) | undefined;
  let release: (() => void) | undefined;
  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    if (message.from === tab) return;
    if (message.kind === 'hello') send({ kind: 'state', from: tab, snapshot: JSON.stringify(mock.snapshot()) });
    else {
      apply(() => mock.restore(JSON.parse(message.snapshot) as TenantSnapshot));
      arrived?.();
    }
  };
  // Which tabs are open is known from the lock each holds while it runs (Web Locks, per origin). Without persist,
  // a tab opened after others has no other way to their state: it asks, and waits for the first answer.
  const lock = `card-issuing-mock:${my.apiKey}`;
  const others = !my.restored && (await navigator.locks.query()).held?.some((held) => held.name === lock) === true;
  void navigator.locks.request(lock, { mode: 'shared' }, () => new Promise<void>((resolve) => (release = resolve)));
  if (others) {
    await new Promise<void>((resolve) => {
      arrived = resolve;
      send({ kind: 'hello', from: tab });
    });
    arrived = undefined;
  }
  return { joined: others, release: () => release?.() };
}

/**
 * Restores the tenant's saved snapshot (with `persist`), then saves each change (with `persist`) and sends it to the
 * other tabs (with `sync`). Changes are gathered per task: a request that changes many records saves once.
 */
export async function keepBrowserState(
  mock: CardIssuingMock,
  options: { persist: boolean; sync: boolean },
): Promise<BrowserState> {
  const apiKey = mock.apiKey;
  const saved = options.persist ? await openSavedState(apiKey) : undefined;
  const snapshot = await saved?.load();
  if (snapshot) mock.restore(snapshot);
  const tab = crypto.randomUUID();
  const channel = options.sync ? new BroadcastChannel(`card-issuing-mock:${apiKey}`) : undefined;
  /** True while this tab applies another's state: that change is not saved or sent again. */
  let applying = false;
  /** True while a tab opened later runs `init` without persist: not sent to the others. */
  let local = false;
  let scheduled = false;
  const apply = (change: () => void) => {
    applying = true;
    try {
      change();
    } finally {
      applying = false;
    }
  };
  const send = (message: TabMessage) => channel?.postMessage(message);
  const publish = () => {
    scheduled = false;
    const current = mock.snapshot();
    void saved?.save(current).catch(() => undefined); // a full or closed database loses persistence, not the request
    send({ kind: 'state', from: tab, snapshot: JSON.stringify(current) });
  };
  const stopListening = mock.onChange(() => {
    if (applying || local || scheduled) return;
    scheduled = true;
    queueMicrotask(publish);
  });
  const tabs = channel
    ? await joinOtherTabs(channel, { mock, apiKey, tab, restored: Boolean(snapshot), apply, send })
    : undefined;
  return {
    fresh: snapshot === undefined && !tabs?.joined,
    async initialize(init) {
      local = channel !== undefined && !saved;
      try {
        await init();
      } finally {
        local = false;
      }
    },
    async reset() {
      apply(() => mock.reset());
      await saved?.clear();
      send({ kind: 'state', from: tab, snapshot: JSON.stringify(mock.snapshot()) });
    },
    close() {
      stopListening();
      tabs?.release();
      channel?.close();
      saved?.close();
    },
  };
}
