/** The inspector page: header (tenant, live status, reset, snapshot), the tenant's state in tabs, the clock and the journal. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { InspectorView } from '../view-model';
import { act, controlUrl, getView, tenantParam } from './api';
import { BusinessTab } from './business';
import { ClockPanel } from './clock';
import { DepositsTab } from './deposits';
import { EventsTab } from './events';
import { FaultsTab } from './faults';
import { JournalPanel } from './journal';
import { OutboxTab } from './outbox';
import { S2sTab } from './s2s';
import { LoadScenario } from './scenario';
import { ActionButton, ActionsContext, FileButton, failureText, useActions, type Actions } from './ui';

type Tab = 'business' | 's2s' | 'deposits' | 'outbox' | 'events' | 'faults';
const TABS: [Tab, string][] = [
  ['business', 'Business'],
  ['s2s', 'Server2Server'],
  ['deposits', 'Deposits'],
  ['outbox', 'Outbox'],
  ['events', 'Events'],
  ['faults', 'Faults & overrides'],
];

type Live = 'connecting' | 'live' | 'reconnecting';

/**
 * Counts the mock's reports (server-sent events), coalesced: a burst of exchanges and events becomes one
 * refresh of what the page shows.
 */
function useLiveVersion(): [number, Live, () => void] {
  const [version, setVersion] = useState(0);
  const [live, setLive] = useState<Live>('connecting');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const bump = useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setVersion((v) => v + 1);
    }, 60);
  }, []);
  useEffect(() => {
    const source = new EventSource(controlUrl('/events/stream'));
    source.addEventListener('ready', () => {
      setLive('live');
      bump();
    });
    source.addEventListener('request', bump);
    source.addEventListener('event', bump);
    source.onerror = () => setLive('reconnecting');
    return () => source.close();
  }, [bump]);
  return [version, live, bump];
}

interface Notice {
  ok: boolean;
  text: string;
  n: number;
}

/** The state the page shows, loaded again at every new version; the reason when it could not be. */
function useView(version: number): [InspectorView | null, string | null] {
  const [view, setView] = useState<InspectorView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    getView().then(
      (v) => {
        if (!current) return;
        setView(v);
        setLoadError(null);
      },
      (error: unknown) => current && setLoadError(failureText('Loading the state', error)),
    );
    return () => {
      current = false;
    };
  }, [version]);
  return [view, loadError];
}

/** The page's actions: each reports its outcome in the notice line and refreshes what the page shows. */
function useNoticeActions(refresh: () => void): [Actions, Notice | null] {
  const [notice, setNotice] = useState<Notice | null>(null);
  const actions = useMemo<Actions>(
    () => ({
      async run(label, fn, done) {
        try {
          const result = await fn();
          setNotice((n) => ({ ok: true, text: done ? done(result) : `${label}: done`, n: (n?.n ?? 0) + 1 }));
          refresh();
          return result;
        } catch (error) {
          setNotice((n) => ({ ok: false, text: failureText(label, error), n: (n?.n ?? 0) + 1 }));
          refresh();
          return undefined;
        }
      },
    }),
    [refresh],
  );
  return [actions, notice];
}

/** The page. */
export function App() {
  const [version, live, refresh] = useLiveVersion();
  const [view, loadError] = useView(version);
  const [actions, notice] = useNoticeActions(refresh);
  return (
    <ActionsContext.Provider value={actions}>
      <a class="skip" href="#journal">
        Skip to the request journal
      </a>
      <Header view={view} live={live} />
      <NoticeLine notice={notice} />
      {loadError && (
        <p class="notice notice-bad" role="alert">
          {loadError}
        </p>
      )}
      <main class="layout">
        <StateTabs view={view} version={version} />
        <aside class="side">
          {view && <ClockPanel view={view} />}
          <div id="journal" tabIndex={-1}>
            <JournalPanel version={version} />
          </div>
        </aside>
      </main>
    </ActionsContext.Provider>
  );
}

const LIVE_TEXT: Record<Live, string> = { live: '● live', connecting: '○ connecting', reconnecting: '○ reconnecting' };

function Header({ view, live }: { view: InspectorView | null; live: Live }) {
  const { run } = useActions();
  return (
    <header class="top">
      <h1>
        card-issuing-mock <span>inspector</span>
      </h1>
      <div class="top-facts">
        <TenantPicker view={view} />
        <span class={`live live-${live}`} role="status" data-live={live}>
          {LIVE_TEXT[live]}
        </span>
      </div>
      <div class="top-actions">
        <ActionButton
          label="Reset"
          name="Reset this tenant to its seeded state"
          kind="danger"
          onRun={async () => {
            if (confirm('Reset this tenant to its seeded state? Every user, card, approval and message goes.'))
              await run(
                'Reset',
                () => act('/reset'),
                () => 'Tenant reset',
              );
          }}
        />
        <a class="btn" href={controlUrl('/state')} download={`mock-state-${view?.tenant ?? 'tenant'}.json`}>
          Download snapshot
        </a>
        <RestoreSnapshot />
        <LoadScenario />
      </div>
    </header>
  );
}

function NoticeLine({ notice }: { notice: Notice | null }) {
  const outcome = notice ? (notice.ok ? 'ok' : 'bad') : undefined;
  return (
    <p
      class={`notice ${outcome ? `notice-${outcome}` : ''}`}
      role="status"
      aria-live="polite"
      data-notice={outcome === undefined ? '' : outcome === 'ok' ? 'ok' : 'error'}
    >
      {notice?.text ?? ''}
    </p>
  );
}

/** The tablist over the tenant's state; the tab shown follows the URL's hash when the page opens. */
function StateTabs({ view, version }: { view: InspectorView | null; version: number }) {
  const [tab, setTab] = useState<Tab>(() =>
    TABS.some(([t]) => `#${t}` === location.hash) ? (location.hash.slice(1) as Tab) : 'business',
  );
  return (
    <div class="state">
      <div class="tabs" role="tablist" aria-label="State of the tenant" onKeyDown={(e) => moveTab(e, tab, setTab)}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            id={`tab-${id}`}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
          >
            {label}
            {view ? count(view, id) : ''}
          </button>
        ))}
      </div>
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`} class="tabpanel">
        {view ? <TabPanel tab={tab} view={view} version={version} /> : <p>Loading…</p>}
      </div>
    </div>
  );
}

function TabPanel({ tab, view, version }: { tab: Tab; view: InspectorView; version: number }) {
  switch (tab) {
    case 'business':
      return <BusinessTab view={view} />;
    case 's2s':
      return <S2sTab view={view} />;
    case 'deposits':
      return <DepositsTab view={view} />;
    case 'outbox':
      return <OutboxTab view={view} />;
    case 'events':
      return <EventsTab version={version} />;
    default:
      return <FaultsTab view={view} />;
  }
}

/** Arrow keys, Home and End move between tabs (the WAI-ARIA tabs pattern). */
function moveTab(e: KeyboardEvent, tab: Tab, setTab: (t: Tab) => void): void {
  const index = TABS.findIndex(([t]) => t === tab);
  const to =
    e.key === 'ArrowRight'
      ? (index + 1) % TABS.length
      : e.key === 'ArrowLeft'
        ? (index - 1 + TABS.length) % TABS.length
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? TABS.length - 1
            : -1;
  if (to < 0) return;
  e.preventDefault();
  const next = TABS[to]![0];
  setTab(next);
  document.getElementById(`tab-${next}`)?.focus();
}

/** How many items each tab lists (Events counts none: its list is loaded by the tab). */
const COUNTS: Record<Tab, (view: InspectorView) => number> = {
  business: (view) => view.chains.length,
  s2s: (view) => view.users.length,
  deposits: (view) => view.verifications.length + view.topUps.length,
  outbox: (view) => view.outbox.length,
  events: () => 0,
  faults: (view) => view.faults.length + view.overrides.length,
};

function count(view: InspectorView, tab: Tab): string {
  const n = COUNTS[tab](view);
  return n > 0 ? ` (${n})` : '';
}

function TenantPicker({ view }: { view: InspectorView | null }) {
  if (!view) return null;
  if (view.tenants.length <= 1)
    return (
      <span class="tenant">
        tenant <code>{view.tenant}</code>
      </span>
    );
  return (
    <label class="tenant">
      tenant{' '}
      <select
        value={view.tenant}
        onChange={(e) => {
          const key = e.currentTarget.value;
          const url = new URL(location.href);
          if (key === view.tenants[0]) url.searchParams.delete('apiKey');
          else url.searchParams.set('apiKey', key);
          location.assign(url.href);
        }}
      >
        {view.tenants.map((t) => (
          <option key={t} value={t}>
            {t}
            {t === view.tenants[0] && tenantParam === null ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

function RestoreSnapshot() {
  const { run } = useActions();
  return (
    <FileButton
      label="Restore snapshot…"
      accept="application/json,.json"
      name="Snapshot file to restore"
      onFile={(fileName, text) =>
        run(
          'Restore',
          () => act('/state', text, 'PUT'),
          () => `Restored ${fileName}`,
        )
      }
    />
  );
}
