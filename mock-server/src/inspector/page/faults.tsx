/** The Faults tab: inject a fault (status, delay, count, per route) and see the active ones. */
import { useState } from 'preact/hooks';
import type { InspectorView } from '../view-model';
import { act } from './api';
import { Empty, Field, Section, useActions } from './ui';

/** The tab. */
export function FaultsTab({ view }: { view: InspectorView }) {
  const { run } = useActions();
  const [method, setMethod] = useState('');
  const [path, setPath] = useState('/s2s/users/*');
  const [status, setStatus] = useState('503');
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
            const body = {
              ...(method ? { method } : {}),
              path,
              ...(status.trim() ? { status: Number(status) } : {}),
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
        {view.faults.length === 0 ? (
          <Empty>No faults waiting.</Empty>
        ) : (
          <ul>
            {view.faults.map((f, i) => (
              <li key={i}>
                {f.method ?? 'any method'} {f.path}:{' '}
                {f.status === null ? 'delay only' : f.status === 0 ? 'connection dropped' : `status ${f.status}`}
                {f.delayMs ? ` after ${f.delayMs} ms` : ''}, {f.remaining} more time(s)
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
