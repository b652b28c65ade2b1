/** The virtual clock: where it stands, buttons to move it, what falls due next and what the last move made due. */
import { useState } from 'preact/hooks';
import type { MockEvent } from '../../observe';
import type { InspectorView } from '../view-model';
import { act, getEvents } from './api';
import { describeEvent } from './describe';
import { duration, instant, shortInstant } from './format';
import { ActionButton, Field, useActions } from './ui';

const STEPS: [number, string][] = [
  [3600, '+1 hour'],
  [86400, '+1 day'],
  [3 * 86400, '+3 days'],
  [30 * 86400, '+30 days'],
];

/** The clock panel; `version` changes whenever the mock reports something. */
export function ClockPanel({ view }: { view: InspectorView }) {
  const { run } = useActions();
  const [became, setBecame] = useState<MockEvent[] | null>(null);
  const now = Date.parse(view.clock.now);
  const next = view.upcoming[0];

  // What a move made due is exactly what happened during it: the mock runs due transitions before it answers.
  const advance = async (by: number) => {
    const before = await getEvents({ limit: 1 }).then(
      (r) => r.items.at(-1)?.seq ?? 0,
      () => 0,
    );
    const done = await run(
      'Advance the clock',
      () => act('/clock/advance', { seconds: by }),
      () => `Clock moved ${duration(by)}`,
    );
    if (done === undefined) return;
    const during = await getEvents({ after: before, limit: 500 }).then(
      (r) => r.items,
      () => [],
    );
    const moved = during.findLast((e) => e.type === 'clock.advanced');
    // The events of that very request, after the move itself.
    setBecame(
      moved ? during.filter((e) => e.seq > moved.seq && e.requestId !== null && e.requestId === moved.requestId) : [],
    );
  };

  return (
    <section class="panel clock" aria-label="Virtual clock">
      <h2>Virtual clock</h2>
      <p class="now">
        <time dateTime={view.clock.now} data-clock={view.clock.now}>
          {instant(view.clock.now)}
        </time>{' '}
        {view.clock.frozen ? <span class="badge badge-wait">frozen</span> : <span class="badge badge-ok">ticking</span>}
      </p>
      <div class="actions">
        {STEPS.map(([by, label]) => (
          <ActionButton key={by} label={label} hint={`Advance the clock ${label.slice(1)}`} onRun={() => advance(by)} />
        ))}
        {next && (
          <ActionButton
            label={`Next due (${duration(Math.max(1, Math.ceil((Date.parse(next.at) - now) / 1000)))})`}
            hint="Advance the clock to the next due change"
            kind="primary"
            onRun={() => advance(Math.max(1, Math.ceil((Date.parse(next.at) - now) / 1000)))}
          />
        )}
      </div>
      <SecondsForm onAdvance={advance} />
      <h3>Due next</h3>
      {view.upcoming.length === 0 ? (
        <p class="muted small">Nothing waits for the clock.</p>
      ) : (
        <ul class="due">
          {view.upcoming.slice(0, 5).map((d) => (
            <li key={`${d.id}${d.what}`}>
              <time dateTime={d.at}>{shortInstant(d.at)}</time> {d.what}{' '}
              <span class="muted">in {duration((Date.parse(d.at) - now) / 1000)}</span>
            </li>
          ))}
        </ul>
      )}
      {became !== null && <BecameDue events={became} />}
    </section>
  );
}

/** Advances the clock by a number of seconds typed in. */
function SecondsForm({ onAdvance }: { onAdvance: (by: number) => Promise<void> }) {
  const [seconds, setSeconds] = useState('');
  return (
    <form
      class="inline-form"
      aria-label="Advance the clock by seconds"
      onSubmit={(e) => {
        e.preventDefault();
        const by = Number(seconds);
        if (Number.isFinite(by) && by > 0) void onAdvance(by);
      }}
    >
      <Field label="Seconds">
        <input inputMode="numeric" size={10} value={seconds} onInput={(e) => setSeconds(e.currentTarget.value)} />
      </Field>
      <button type="submit" class="btn">
        Advance
      </button>
    </form>
  );
}

/** What the last move of the clock made due (the events of that request after the move itself). */
function BecameDue({ events }: { events: MockEvent[] }) {
  return (
    <>
      <h3>Became due at the last move</h3>
      {events.length === 0 ? (
        <p class="muted small">Nothing was due.</p>
      ) : (
        <ul class="became" aria-label="Became due at the last move">
          {events.map((e) => (
            <li key={e.seq}>
              <time dateTime={e.at}>{shortInstant(e.at)}</time> {describeEvent(e)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
