/** Small shared pieces of the inspector page: the action runner, badges, sections, forms. */
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import type { PurchaseView } from '../view';
import { ControlError, act } from './api';
import { money, shortInstant, toMinor } from './format';

/** What every action button uses: run a control call, say how it went, refresh. */
export interface Actions {
  /** Runs `fn`; on success says `done` (or what `done` makes of the result), on failure the problem's code and detail. */
  run<T>(label: string, fn: () => Promise<T>, done?: (result: T) => string): Promise<T | undefined>;
}

export const ActionsContext = createContext<Actions>({ run: async () => undefined });

/** The action runner of the page. */
export function useActions(): Actions {
  return useContext(ActionsContext);
}

/** The text of a failed action. */
export function failureText(label: string, error: unknown): string {
  if (error instanceof ControlError) return `${label} refused: ${error.status} ${error.code}: ${error.detail}`;
  return `${label} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** A status as a coloured badge (the colour follows the status's meaning, the text says it). */
export function Badge({ status }: { status: string }) {
  return <span class={`badge badge-${tone(status)}`} data-status={status}>{status}</span>;
}

function tone(status: string): string {
  if (/^(DELIVERED|ACTIVE|COMPLETED|PASSED|CREDITED|APPROVED)$/.test(status) || /^2/.test(status)) return 'ok';
  if (/^(CANCELED|REJECTED|EXPIRED|FAILED|DECLINED|CLOSED)$/.test(status) || /^[45]/.test(status) || status === '0') return 'bad';
  if (/^(REAPPROVED|FINISHED)$/.test(status)) return 'done';
  return 'wait';
}

/** A titled part of a tab. */
export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="section" aria-label={title}>
      <header class="section-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A button that runs an action and is disabled while it runs. */
export function ActionButton({ label, name, onRun, kind = 'normal' }: {
  label: string; name?: string; onRun: () => Promise<unknown>; kind?: 'normal' | 'primary' | 'danger';
}) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class={`btn btn-${kind}`}
      disabled={busy}
      aria-label={name}
      onClick={async () => {
        setBusy(true);
        try {
          await onRun();
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </button>
  );
}

/** A labelled form control. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
    </label>
  );
}

/** A purchase on a card (control API `POST /__mock/cards/{cardId}/authorize`): approved, or declined with its reason. */
export function AuthorizeForm({ cardId, card, currency }: { cardId: string; card: string; currency: string }) {
  const { run } = useActions();
  const [amount, setAmount] = useState('25.00');
  const [merchant, setMerchant] = useState('Coffee Corner');
  return (
    <form
      class="inline-form"
      aria-label={`Authorize a purchase on ${card}`}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = toMinor(amount, currency);
        void run('Authorize', () => act<{ status: string; declineReason: string | null }>(`/cards/${cardId}/authorize`, { amount: minor, currency, merchant }),
          (r) => `Purchase on ${card}: ${r.status}${r.declineReason ? ` (${r.declineReason})` : ''}`);
      }}
    >
      <Field label={`Amount (${currency})`}>
        <input inputMode="decimal" size={8} value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
      </Field>
      <Field label="Merchant">
        <input size={12} value={merchant} onInput={(e) => setMerchant(e.currentTarget.value)} />
      </Field>
      <button type="submit" class="btn">Authorize purchase</button>
    </form>
  );
}

/** A card's latest purchases, newest first. */
export function Purchases({ purchases }: { purchases: PurchaseView[] }) {
  if (purchases.length === 0) return null;
  return (
    <div class="purchases">
      <h4>Purchases</h4>
      <ul>
        {purchases.map((a, i) => (
          <li key={i} data-purchase={a.approved ? 'approved' : 'declined'}>
            <Badge status={a.approved ? 'APPROVED' : 'DECLINED'} /> {money(a.amount.amount, a.amount.currency)} at {a.merchant}
            {a.reason ? <> — <span class="reason">{a.reason}</span></> : null} <span class="muted">{shortInstant(a.at)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Nothing to show yet. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** An id shortened for reading, whole in its title and copyable by selecting it. */
export function Id({ id }: { id: string }) {
  return <code class="id" title={id}>{id.length > 12 ? `${id.slice(0, 8)}…` : id}</code>;
}

/** Copies text to the clipboard (with a fallback where the Clipboard API is not allowed). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not a secure context or no permission: fall through to the selection way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
