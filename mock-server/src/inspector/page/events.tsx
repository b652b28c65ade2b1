/** The Events tab: what changed, newest first, filterable by kind. */
import { useEffect, useState } from 'preact/hooks';
import type { MockEvent } from '../../observe';
import { getEvents } from './api';
import { describeEvent } from './describe';
import { shortInstant } from './format';
import { Empty, Field, Section } from './ui';

const KINDS: [string, string][] = [
  ['', 'everything'],
  ['approval.', 'approvals'],
  ['card.', 'cards'],
  ['user.', 'users'],
  ['email.', 'e-mail'],
  ['balance.,deposit.,topUp.', 'money'],
  ['authorization.', 'purchases'],
  ['clock.,mock.', 'clock and mock'],
];

/** The tab; `version` changes whenever the mock reports something. */
export function EventsTab({ version }: { version: number }) {
  const [kind, setKind] = useState('');
  const [events, setEvents] = useState<MockEvent[]>([]);
  const [stats, setStats] = useState<{ kept: number; recorded: number; capacity: number } | null>(null);
  useEffect(() => {
    let live = true;
    void getEvents({ type: kind || undefined, limit: 200 }).then(
      (r) => {
        if (!live) return;
        setEvents([...r.items].reverse());
        setStats({ kept: r.kept, recorded: r.recorded, capacity: r.capacity });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [kind, version]);
  return (
    <Section
      title="Events"
      actions={
        <Field label="Show">
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      }
    >
      {stats && (
        <p class="muted small">
          Newest first; the log keeps the latest {stats.capacity} of this tenant ({stats.recorded} so far).
        </p>
      )}
      {events.length === 0 ? (
        <Empty>Nothing happened yet.</Empty>
      ) : (
        <ol class="events">
          {events.map((e) => (
            <li key={e.seq} data-event={e.type}>
              <time dateTime={e.at}>{shortInstant(e.at)}</time> <span>{describeEvent(e)}</span>
              {e.requestId && <code class="id muted">{e.requestId}</code>}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
