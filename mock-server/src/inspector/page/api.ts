/**
 * The page's only way to the mock: the control API of the same origin (`/__mock/...`), with `?apiKey=` when
 * the page was opened for another tenant than the default. No credentials, no secret: the page never signs.
 */
import type { JournalEntry, JournalSummary, MockEvent } from '../../observe';
import type { InspectorView } from '../view-model';

/** The tenant the page was opened for (`/__mock/ui?apiKey=K`), or null for the default one. */
export const tenantParam: string | null = new URLSearchParams(location.search).get('apiKey');

/**
 * Where the control API is: this origin (the standalone server), or, for the browser mock's inspector
 * (`startBrowserMock({ inspector: true })`), the mock's base URL given as `?api=`, whose requests the page's service
 * worker answers. The server's page is confined to its own origin by its Content-Security-Policy anyway.
 */
const apiBase: string = (new URLSearchParams(location.search).get('api') ?? '').replace(/\/+$/, '');

/** A control URL for this page's tenant. */
export function controlUrl(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  if (tenantParam !== null) params.set('apiKey', tenantParam);
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${apiBase}/__mock${path}${qs ? `?${qs}` : ''}`;
}

/** A refused control call: the problem+json the mock answered. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId: string | null,
  ) {
    super(`${code}: ${detail}`);
  }
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string | number | undefined>,
): Promise<T> {
  const init: RequestInit = { method, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const response = await fetch(controlUrl(path, query), init);
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const p = (parsed ?? {}) as { code?: string; detail?: string; requestId?: string };
    throw new ControlError(
      response.status,
      p.code ?? `HTTP_${response.status}`,
      p.detail ?? response.statusText,
      p.requestId ?? response.headers.get('x-request-id'),
    );
  }
  return parsed as T;
}

/** The page model of the tenant. */
export const getView = () =>
  call<InspectorView & { journal: { requests: { kept: number; recorded: number; capacity: number } } }>(
    'GET',
    '/inspect',
  );

/** The journal, newest first, without bodies. */
export const getJournal = (filter: Record<string, string | number | undefined>) =>
  call<{ items: JournalSummary[]; kept: number; recorded: number; capacity: number }>('GET', '/requests', undefined, {
    ...filter,
    bodies: 'false',
  });

/** One exchange with its (redacted) bodies. */
export const getExchange = async (seq: number): Promise<JournalEntry | undefined> => {
  const { items } = await call<{ items: JournalEntry[] }>('GET', '/requests', undefined, { seq });
  return items[0];
};

/** Events, oldest first. */
export const getEvents = (filter: Record<string, string | number | undefined>) =>
  call<{ items: MockEvent[]; kept: number; recorded: number; capacity: number }>('GET', '/events', undefined, filter);

/** Runs a control action (POST unless said otherwise). */
export const act = <T = unknown>(path: string, body?: unknown, method = 'POST') => call<T>(method, path, body);
