/** Small shared pieces of the inspector page: the action runner, badges, sections, forms. */
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useRef, useState } from 'preact/hooks';
import type { PurchaseView } from '../view-model';
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
  return (
    <span class={`badge badge-${tone(status)}`} data-status={status}>
      {status}
    </span>
  );
}

function tone(status: string): string {
  if (/^(DELIVERED|ACTIVE|COMPLETED|PASSED|CREDITED|APPROVED|CLEARED)$/.test(status) || /^2/.test(status)) return 'ok';
  if (/^(CANCELED|REJECTED|EXPIRED|FAILED|DECLINED|CLOSED)$/.test(status) || /^[45]/.test(status) || status === '0')
    return 'bad';
  if (/^(REAPPROVED|FINISHED|REVERSED|REFUNDED)$/.test(status)) return 'done';
  return 'wait';
}

/** A titled part of a tab. */
export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
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

/**
 * A button that runs an action and is disabled while it runs. `name`, when the visible label alone is ambiguous
 * (one "Accept" per approval), must begin with `label`: the accessible name contains what a person reads (WCAG
 * 2.5.3), so speech control and `getByRole('button', { name: label })` find it. `hint` says more, as a description.
 */
export function ActionButton({
  label,
  name,
  hint,
  onRun,
  kind = 'normal',
}: {
  label: string;
  name?: string;
  hint?: string;
  onRun: () => Promise<unknown>;
  kind?: 'normal' | 'primary' | 'danger';
}) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class={`btn btn-${kind}`}
      disabled={busy}
      aria-label={name}
      title={hint}
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

/** A labelled amount in major units (`25.00`), as the forms that move money ask for it. */
export function AmountField({
  label,
  value,
  onInput,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
}) {
  return (
    <Field label={label}>
      <input inputMode="decimal" size={8} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </Field>
  );
}

/** A labelled form control. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, which the label wraps.
    <label class="field">
      <span>{label}</span>
      {children}
    </label>
  );
}

/**
 * A purchase on a card (control API `POST /__mock/cards/{cardId}/authorize`): approved, or declined with its reason.
 * Approved, it is captured at once unless "Hold only" leaves it PENDING for the purchase's own buttons.
 */
export function AuthorizeForm({ cardId, card, currency }: { cardId: string; card: string; currency: string }) {
  const { run } = useActions();
  const [amount, setAmount] = useState('25.00');
  const [merchant, setMerchant] = useState('Coffee Corner');
  const [holdOnly, setHoldOnly] = useState(false);
  return (
    <form
      class="inline-form"
      aria-label={`Authorize a purchase on ${card}`}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = toMinor(amount, currency);
        void run(
          'Authorize',
          () =>
            act<{ status: string; state: string; declineReason: string | null }>(`/cards/${cardId}/authorize`, {
              amount: minor,
              currency,
              merchant,
              ...(holdOnly ? { capture: false } : {}),
            }),
          (r) =>
            `Purchase on ${card}: ${r.status}${r.declineReason ? ` (${r.declineReason})` : ''}${r.state === 'PENDING' ? ', held' : ''}`,
        );
      }}
    >
      <AmountField label={`Amount (${currency})`} value={amount} onInput={setAmount} />
      <Field label="Merchant">
        <input size={12} value={merchant} onInput={(e) => setMerchant(e.currentTarget.value)} />
      </Field>
      <label class="check">
        <input type="checkbox" checked={holdOnly} onChange={(e) => setHoldOnly(e.currentTarget.checked)} /> Hold only
        (capture later)
      </label>
      <button type="submit" class="btn">
        Authorize purchase
      </button>
      <ActionButton
        label="Merchant credit"
        name={`Merchant credit on ${card}`}
        onRun={() =>
          run(
            'Merchant credit',
            () =>
              act<{ state: string }>(`/cards/${cardId}/refund`, {
                amount: toMinor(amount, currency),
                currency,
                merchant,
              }),
            () => `Merchant credit on ${card} (a refund without a purchase)`,
          )
        }
      />
    </form>
  );
}

/** A card's latest purchases, newest first, each with its state, amounts and the steps its state allows. */
export function Purchases({ purchases }: { purchases: PurchaseView[] }) {
  if (purchases.length === 0) return null;
  return (
    <div class="purchases">
      <h4>Purchases</h4>
      <ul>
        {purchases.map((a) => (
          <li
            key={a.id}
            data-purchase={a.approved ? 'approved' : 'declined'}
            data-authorization={a.id}
            data-state={a.state}
          >
            <Badge status={a.state} /> {money(a.amount.amount, a.amount.currency)} {a.credit ? 'credited by' : 'at'}{' '}
            {a.merchant}
            {a.forced ? (
              <>
                {' '}
                —{' '}
                <span class="reason" data-forced={a.forced}>
                  capture forced: {a.forced}
                </span>
              </>
            ) : null}
            {a.reason ? (
              <>
                {' '}
                — <span class="reason">{a.reason}</span>
              </>
            ) : null}{' '}
            <span class="muted">{shortInstant(a.at)}</span>
            {a.approved && <PurchaseFigures p={a} />}
            {(a.state === 'PENDING' || a.state === 'CLEARED' || a.state === 'REVERSED' || a.state === 'EXPIRED') && (
              <PurchaseSteps key={`${a.state}-${a.held}-${a.refunded}`} p={a} />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PurchaseFigures({ p }: { p: PurchaseView }) {
  const c = p.amount.currency;
  return (
    <span class="muted small purchase-figures">
      {p.authorized !== p.amount.amount && (
        <>
          {' '}
          · authorized <span data-figure="authorized">{money(p.authorized, c)}</span>
        </>
      )}{' '}
      · held <span data-figure="held">{money(p.held, c)}</span> · captured{' '}
      <span data-figure="captured">{money(p.captured, c)}</span>
      {p.refunded > 0 && (
        <>
          {' '}
          · refunded <span data-figure="refunded">{money(p.refunded, c)}</span>
        </>
      )}
      {p.state === 'PENDING' && p.expiresAt && <> · expires {shortInstant(p.expiresAt)}</>}
    </span>
  );
}

/** The steps of a purchase's life (control API `POST /__mock/authorizations/{id}/{action}`): an empty amount takes the whole hold, or all that is refundable. */
function PurchaseSteps({ p }: { p: PurchaseView }) {
  const { run } = useActions();
  const c = p.amount.currency;
  const whole = p.state === 'PENDING' ? p.held : p.state === 'CLEARED' ? p.captured - p.refunded : p.authorized;
  const [amount, setAmount] = useState(money(whole, c).split(' ')[0]!.replace(/,/g, ''));
  const who = `purchase at ${p.merchant} ${p.id.slice(0, 8)}`;
  const step = (action: string, words: string) => {
    const minor = amount.trim() === '' ? undefined : toMinor(amount, c);
    return run(
      words,
      () =>
        act<{ state: string; held: number; captured: number; refunded: number }>(
          `/authorizations/${p.id}/${action}`,
          minor === undefined ? undefined : { amount: minor },
        ),
      (r) => `${words} ${who}: ${r.state}`,
    );
  };
  return (
    <form class="inline-form purchase-steps" aria-label={`Steps of ${who}`} onSubmit={(e) => e.preventDefault()}>
      <AmountField label={`Step (${c})`} value={amount} onInput={setAmount} />
      {p.state === 'PENDING' && (
        <>
          <ActionButton
            label="Capture"
            name={`Capture ${who}`}
            kind="primary"
            onRun={() => step('capture', 'Capture')}
          />
          <ActionButton label="Increment" name={`Increment ${who}`} onRun={() => step('increment', 'Increment')} />
          <ActionButton
            label="Reverse"
            name={`Reverse ${who}`}
            kind="danger"
            onRun={() => step('reverse', 'Reverse')}
          />
        </>
      )}
      {p.state === 'CLEARED' && (
        <ActionButton label="Refund" name={`Refund ${who}`} onRun={() => step('refund', 'Refund')} />
      )}
      {(p.state === 'REVERSED' || p.state === 'EXPIRED') && (
        <ActionButton
          label="Late capture"
          name={`Late capture ${who}`}
          onRun={() => step('capture', 'Late capture (forced)')}
        />
      )}
    </form>
  );
}

/** Nothing to show yet. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** An id shortened for reading, whole in its title and copyable by selecting it. */
export function Id({ id }: { id: string }) {
  return (
    <code class="id" title={id}>
      {id.length > 12 ? `${id.slice(0, 8)}…` : id}
    </code>
  );
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

/** A button that opens a file picker; `onFile` gets the chosen file's name and text. */
export function FileButton({
  label,
  accept,
  name,
  onFile,
}: {
  label: string;
  accept: string;
  name: string;
  onFile: (fileName: string, text: string) => Promise<unknown>;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" class="btn" onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        class="sr-only"
        tabIndex={-1}
        aria-label={name}
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) await onFile(file.name, await file.text());
        }}
      />
    </>
  );
}
