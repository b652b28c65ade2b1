/**
 * The live request journal, newest first: time, method, path, operation, status, code, duration, request id.
 * Filters by operation, status class and code; a request id (what a typed SDK error carries as `requestId`)
 * finds its exchange. A row opens the exchange with its redacted headers and bodies, and what it changed.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JournalEntry, JournalSummary, MockEvent } from '../../observe';
import { getEvents, getExchange, getJournal } from './api';
import { describeEvent } from './describe';
import { shortTarget, wallTime } from './format';
import { Badge, Field } from './ui';

/** The request id of the page's address (`#request=req_…`), if any. */
function requestIdOfHash(): string {
  const match = /(?:^|[#&])request=([^&]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]!) : '';
}

/** The journal's filters, as typed. */
interface Filters {
  operation: string;
  status: string;
  code: string;
  requestId: string;
}

const NO_FILTERS: Filters = { operation: '', status: '', code: '', requestId: '' };

/** The exchange whose dialog is open, and which opening of a dialog this is (each activation of a row is a new one). */
interface Opened {
  summary: JournalSummary;
  key: number;
}

/** The journal panel; `version` changes whenever the mock reports something. */
export function JournalPanel({ version }: { version: number }) {
  const [filters, setFilters] = useState<Filters>(() => ({ ...NO_FILTERS, requestId: requestIdOfHash() }));
  const [open, setOpen] = useState<Opened | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // Counted, not compared by exchange: Escape then at once Enter on the same row opens a new dialog, and the closed
  // one's late close event (it comes as a task of its own) leaves the new one alone.
  const openings = useRef(0);
  const current = useRef(0);
  const show = (summary: JournalSummary) => {
    current.current = ++openings.current;
    setOpen({ summary, key: current.current });
  };
  const closed = (key: number) => {
    if (current.current !== key) return;
    current.current = 0;
    setOpen(null);
    opener.current?.focus();
  };
  const { items, stats, operations } = useJournal(filters, version, show);

  useEffect(() => {
    const onHash = () => setFilters((f) => ({ ...f, requestId: requestIdOfHash() }));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  return (
    <section class="panel journal" aria-label="Request journal">
      <h2>Request journal</h2>
      <JournalFilters filters={filters} operations={operations} onChange={setFilters} />
      <p class="muted small" aria-live="polite">
        {items.length} shown
        {stats
          ? `; the journal keeps the latest ${stats.capacity} exchanges of this tenant (${stats.recorded} so far)`
          : ''}
        . Newest first.
      </p>
      <ol class="rows" aria-label="Exchanges, newest first">
        {items.map((e) => (
          <li key={e.seq}>
            <JournalRow
              entry={e}
              onOpen={(row) => {
                opener.current = row;
                show(e);
              }}
            />
          </li>
        ))}
      </ol>
      {open && <ExchangeDialog key={open.key} summary={open.summary} onClose={() => closed(open.key)} />}
    </section>
  );
}

/**
 * The journal's exchanges matching `filters`, refreshed when `version` changes, the operations seen so far, and the
 * journal's size; a request id given in the address opens its exchange (through `show`) once.
 */
function useJournal(filters: Filters, version: number, show: (summary: JournalSummary) => void) {
  const [items, setItems] = useState<JournalSummary[]>([]);
  const [stats, setStats] = useState<{ kept: number; recorded: number; capacity: number } | null>(null);
  const [operations, setOperations] = useState<string[]>([]);
  const autoOpened = useRef('');
  const { operation, status, code, requestId } = filters;

  useEffect(() => {
    let live = true;
    void getJournal({
      operation: operation.trim() || undefined,
      status: status || undefined,
      code: code.trim().toUpperCase() || undefined,
      requestId: requestId.trim() || undefined,
      limit: 200,
    }).then(
      (r) => {
        if (!live) return;
        setItems(r.items);
        setStats({ kept: r.kept, recorded: r.recorded, capacity: r.capacity });
        setOperations((known) =>
          [...new Set([...known, ...r.items.map((e) => e.operationId).filter((o): o is string => o !== null)])].sort(),
        );
        // A request id given in the address opens its exchange once.
        const wanted = requestId.trim();
        if (wanted && r.items.length === 1 && autoOpened.current !== wanted && wanted === requestIdOfHash()) {
          autoOpened.current = wanted;
          show(r.items[0]!);
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [operation, status, code, requestId, version]);

  return { items, stats, operations };
}

/** The filter form: request id, operation (offering the ones seen), status class, code; and clearing them. */
function JournalFilters({
  filters,
  operations,
  onChange,
}: {
  filters: Filters;
  operations: string[];
  onChange: (update: (filters: Filters) => Filters) => void;
}) {
  const set = (name: keyof Filters) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    onChange((f) => ({ ...f, [name]: value }));
  };
  const filtered = Boolean(filters.operation || filters.status || filters.code || filters.requestId);
  return (
    <form class="filters" aria-label="Journal filters" onSubmit={(e) => e.preventDefault()}>
      <Field label="Request id">
        <input name="requestId" placeholder="req_…" value={filters.requestId} onInput={set('requestId')} />
      </Field>
      <Field label="Operation">
        <input name="operation" list="journal-operations" value={filters.operation} onInput={set('operation')} />
        <datalist id="journal-operations">
          {operations.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      </Field>
      <Field label="Status">
        <select name="status" value={filters.status} onChange={set('status')}>
          <option value="">any</option>
          <option value="2xx">2xx</option>
          <option value="4xx">4xx</option>
          <option value="5xx">5xx</option>
          <option value="0">dropped</option>
        </select>
      </Field>
      <Field label="Code">
        <input name="code" placeholder="NOT_FOUND" value={filters.code} onInput={set('code')} />
      </Field>
      {filtered && (
        <button type="button" class="btn" onClick={() => onChange(() => NO_FILTERS)}>
          Clear filters
        </button>
      )}
    </form>
  );
}

/** One exchange of the journal as a button that opens it. */
function JournalRow({ entry: e, onOpen }: { entry: JournalSummary; onOpen: (row: HTMLElement) => void }) {
  return (
    <button
      type="button"
      class="row"
      data-request-id={e.requestId ?? ''}
      data-operation={e.operationId ?? ''}
      data-override={e.override ?? ''}
      onClick={(ev) => onOpen(ev.currentTarget)}
    >
      {/* The row's text is its accessible name: the spaces keep the cells apart when it is read out. */}
      <span class="t">{wallTime(e.time)}</span> <span class="m">{e.method}</span>{' '}
      <span class="p" title={e.path}>
        {shortTarget(e.path)}
      </span>{' '}
      <span class="o">
        {e.operationId ?? '—'}
        {e.override ? <span title={`Answered by ${e.override}`}> (overridden)</span> : null}
      </span>{' '}
      <span class="s">
        <Badge status={String(e.status)} />
      </span>{' '}
      <span class="c">{e.code ?? ''}</span> <span class="d">{e.durationMs.toFixed(1)} ms</span>{' '}
      <span class="r">{e.requestId ?? ''}</span>
    </button>
  );
}

function ExchangeDialog({ summary, onClose }: { summary: JournalSummary; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [entry, setEntry] = useState<JournalEntry | null | undefined>(undefined);
  const [events, setEvents] = useState<MockEvent[]>([]);
  useEffect(() => {
    ref.current?.showModal();
    void getExchange(summary.seq).then(
      (e) => setEntry(e ?? null),
      () => setEntry(null),
    );
    if (summary.requestId)
      void getEvents({ requestId: summary.requestId }).then(
        (r) => setEvents(r.items),
        () => undefined,
      );
  }, [summary.seq, summary.requestId]);
  return (
    <dialog ref={ref} class="exchange" aria-label={`Exchange ${summary.requestId ?? summary.seq}`} onClose={onClose}>
      <header class="dialog-head">
        <h2>
          {summary.method} {shortTarget(summary.path)} → {summary.status}
          {summary.code ? ` ${summary.code}` : ''}
        </h2>
        {/* biome-ignore lint/a11y/noAutofocus: a modal dialog focuses the control to use first (HTML's guidance for dialog). */}
        <button type="button" class="btn" onClick={() => ref.current?.close()} autoFocus>
          Close
        </button>
      </header>
      <dl class="facts">
        <div>
          <dt>Operation</dt>
          <dd data-fact="operation">{summary.operationId ?? '—'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-fact="status">{summary.status}</dd>
        </div>
        <div>
          <dt>Code</dt>
          <dd data-fact="code">{summary.code ?? '—'}</dd>
        </div>
        <div>
          <dt>Override</dt>
          <dd data-fact="override">{summary.override ?? '— (the mock answered)'}</dd>
        </div>
        <div>
          <dt>Request id</dt>
          <dd data-fact="requestId">{summary.requestId ?? '—'}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{summary.durationMs.toFixed(2)} ms</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{summary.time}</dd>
        </div>
      </dl>
      {summary.path !== shortTarget(summary.path) && (
        <details>
          <summary>Whole request target</summary>
          <p class="target">
            <code>{summary.path}</code>
          </p>
        </details>
      )}
      {entry === undefined && <p>Loading…</p>}
      {entry === null && <p>This exchange is no longer in the journal (it keeps the latest ones only).</p>}
      {entry && (
        <div class="bodies">
          <Message
            title="Request"
            headers={entry.request.headers}
            body={entry.request.body}
            truncated={entry.request.truncated === true}
          />
          <Message
            title="Response"
            headers={entry.response.headers}
            body={entry.response.body}
            truncated={entry.response.truncated === true}
          />
        </div>
      )}
      {events.length > 0 && (
        <>
          <h3>What it changed</h3>
          <ul>
            {events.map((e) => (
              <li key={e.seq}>{describeEvent(e)}</li>
            ))}
          </ul>
        </>
      )}
    </dialog>
  );
}

function Message({
  title,
  headers,
  body,
  truncated,
}: {
  title: string;
  headers: Record<string, string>;
  body: unknown;
  truncated: boolean;
}) {
  return (
    <section class="message-part" aria-label={title}>
      <h3>{title}</h3>
      <table class="headers">
        <tbody>
          {Object.entries(headers).map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <pre>{body === null ? '(no body)' : typeof body === 'string' ? body : JSON.stringify(body, null, 2)}</pre>
      {truncated && (
        <p class="muted small">The body was longer than the journal keeps (16 KiB); this is its beginning.</p>
      )}
    </section>
  );
}
