/** The Outbox tab: messages the mock sent to users, newest first, OTP codes copyable with one click. */
import { useState } from 'preact/hooks';
import type { InspectorView } from '../view-model';
import { shortInstant } from './format';
import { Empty, Id, Section, copyText } from './ui';

/** The tab. */
export function OutboxTab({ view }: { view: InspectorView }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <Section title="Outbox">
      {view.outbox.length === 0 ? (
        <Empty>No messages sent yet (an e-mail code is sent by POST /s2s/users/&#123;userId&#125;/email/otp).</Empty>
      ) : (
        <ul class="outbox">
          {view.outbox.map((m, i) => (
            <li key={i} class="card message">
              <div>
                <strong>{m.subject}</strong> to {m.to} <span class="muted">{shortInstant(m.sentAt)}</span>{' '}
                <Id id={m.userId} />
              </div>
              {m.code && (
                <div class="otp">
                  <code class="code">{m.code}</code>
                  <button
                    type="button"
                    class="btn"
                    aria-label={`${copied === `${i}` ? 'Copied' : 'Copy'} code ${m.code}`}
                    onClick={async () => {
                      await copyText(m.code!);
                      setCopied(`${i}`);
                    }}
                  >
                    {copied === `${i}` ? 'Copied' : 'Copy'}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <p class="sr-only" aria-live="polite">
        {copied !== null ? 'Code copied to the clipboard' : ''}
      </p>
    </Section>
  );
}
