/**
 * The Faults & overrides tab: inject a fault (status, code, Retry-After, delay, count, per route), see the waiting
 * ones, remove or clear them; see the overrides (`mock.override`, `POST /__mock/overrides`), remove or clear them.
 */
import { useState } from 'preact/hooks';
import type { InspectorView } from '../view-model';
import { act } from './api';
import { ActionButton, Empty, Field, Section, useActions } from './ui';

/** The tab. */
export function FaultsTab({ view }: { view: InspectorView }) {
  const { run } = useActions();
  const [operationId, setOperationId] = useState('');
  const [method, setMethod] = useState('');
  const [path, setPath] = useState('/s2s/users/*');
  const [status, setStatus] = useState('503');
  const [code, setCode] = useState('');
  const [retryAfter, setRetryAfter] = useState('');
  const [delayMs, setDelayMs] = useState('');
  const [times, setTimes] = useState('1');
  return (
    <>
      <Section title="Inject a fault">
        <form
          class="form-grid"
          aria-label="Inject a fault"
          onSubmit={(e) => {
            e.preventDefault();
            // An operationId names the operation whatever its path; else a method and path (pattern).
            const target = operationId.trim()
              ? { operationId: operationId.trim() }
              : { ...(method ? { method } : {}), path };
            const body = {
              ...target,
              ...(status.trim() ? { status: Number(status) } : {}),
              ...(code.trim() ? { code: code.trim() } : {}),
              ...(retryAfter.trim() ? { retryAfter: Number(retryAfter) } : {}),
              ...(delayMs.trim() ? { delayMs: Number(delayMs) } : {}),
              ...(times.trim() ? { times: Number(times) } : {}),
            };
            void run(
              'Inject fault',
              () => act('/faults', body),
              () => `The next ${times || 1} matching request(s) will fail`,
            );
          }}
        >
          <Field label="Operation (operationId, instead of the path)">
            <input
              value={operationId}
              placeholder="listUserApprovals"
              onInput={(e) => setOperationId(e.currentTarget.value)}
            />
          </Field>
          <Field label="Method">
            <select value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
              <option value="">any</option>
              <option>GET</option>
              <option>POST</option>
            </select>
          </Field>
          <Field label="Path (* any, {name} one segment)">
            <input value={path} onInput={(e) => setPath(e.currentTarget.value)} />
          </Field>
          <Field label="Status (0: drop the connection)">
            <input inputMode="numeric" value={status} onInput={(e) => setStatus(e.currentTarget.value)} />
          </Field>
          <Field label="Code (default: the spec's for the status)">
            <input value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          </Field>
          <Field label="Retry-After (s)">
            <input inputMode="numeric" value={retryAfter} onInput={(e) => setRetryAfter(e.currentTarget.value)} />
          </Field>
          <Field label="Delay (ms)">
            <input inputMode="numeric" value={delayMs} onInput={(e) => setDelayMs(e.currentTarget.value)} />
          </Field>
          <Field label="Times">
            <input inputMode="numeric" value={times} onInput={(e) => setTimes(e.currentTarget.value)} />
          </Field>
          <button type="submit" class="btn btn-primary">
            Inject fault
          </button>
        </form>
      </Section>
      <Section title="Active faults">
        <Removable
          items={view.faults}
          kind="fault"
          path="/faults"
          empty="No faults waiting."
          summary={(f) =>
            `${f.operationId ?? `${f.method ?? 'any method'} ${f.path}`}: ${
              f.status === undefined
                ? 'delay only'
                : f.status === 0
                  ? 'connection dropped'
                  : `status ${f.status} ${f.code ?? ''}`
            }${f.retryAfter !== undefined ? `, Retry-After ${f.retryAfter}` : ''}${
              f.delayMs ? ` after ${f.delayMs} ms` : ''
            }, ${f.remaining} more time(s)`
          }
        />
      </Section>
      <Section title="Overrides">
        <Removable
          items={view.overrides}
          kind="override"
          path="/overrides"
          empty="No overrides: every operation gets the mock's own answer."
          summary={(o) =>
            `${o.operationId} answers ${o.status}${o.unchecked ? ' (unchecked body)' : ''}${
              o.delayMs ? ` after ${o.delayMs} ms` : ''
            }, ${o.remaining === null ? 'until removed' : `${o.remaining} more time(s)`}`
          }
        />
      </Section>
    </>
  );
}

/** A list of what the tenant keeps by id (faults, overrides), each with a button to remove it, and one to clear all. */
function Removable<T extends { id: string }>({
  items,
  kind,
  path,
  empty,
  summary,
}: {
  items: T[];
  kind: string;
  path: string;
  empty: string;
  summary: (item: T) => string;
}) {
  const { run } = useActions();
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            {summary(item)}{' '}
            <ActionButton
              label="Remove"
              name={`Remove ${item.id}`}
              onRun={() => run(`Remove ${kind}`, () => act(`${path}/${item.id}`, undefined, 'DELETE'))}
            />
          </li>
        ))}
      </ul>
      <ActionButton
        label={`Clear all ${kind}s`}
        kind="danger"
        onRun={() => run(`Clear ${kind}s`, () => act(path, undefined, 'DELETE'))}
      />
    </>
  );
}
