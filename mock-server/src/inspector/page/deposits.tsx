/** The Deposits tab: an incoming deposit (control API), verifications, top-ups. */
import { useState } from 'preact/hooks';
import type { InspectorView } from '../view-model';
import { act } from './api';
import { money, shortInstant } from './format';
import { type Column, RecordTable } from './table';
import { Badge, Empty, Field, Id, Section, useActions } from './ui';

type Verification = InspectorView['verifications'][number];

/** The verifications' columns: when, amount (with type and network), status, amount credited, id. */
const VERIFICATION_COLUMNS: Column<Verification>[] = [
  { heading: 'When', cell: (v) => shortInstant(v.createdAt) },
  {
    heading: 'Amount',
    cell: (v) => (
      <>
        {v.amount} {v.type} <span class="muted">({v.network})</span>
      </>
    ),
  },
  { heading: 'Status', cell: (v) => <Badge status={v.status} /> },
  {
    heading: 'Credited',
    cell: (v) => (v.creditedAmount ? money(v.creditedAmount.amount, v.creditedAmount.currency) : '—'),
  },
  { heading: 'Verification', cell: (v) => <Id id={v.id} /> },
];

/** The tab. */
export function DepositsTab({ view }: { view: InspectorView }) {
  return (
    <>
      <IncomingDeposit view={view} />
      <Section title="Deposit verifications">
        {view.verifications.length === 0 ? (
          <Empty>No deposits to users' balances yet.</Empty>
        ) : (
          <RecordTable rows={view.verifications} columns={VERIFICATION_COLUMNS} rowKey={(v) => v.id} />
        )}
      </Section>
      <Section title="Corporate top-ups">
        {view.topUps.length === 0 ? (
          <Empty>No top-ups yet.</Empty>
        ) : (
          <ul>
            {view.topUps.map((t) => (
              <li key={t.id}>
                {shortInstant(t.createdAt)}: {t.cryptoAmount} {t.type} → {money(t.amount.amount, t.amount.currency)}{' '}
                <Id id={t.corporateUuid} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function IncomingDeposit({ view }: { view: InspectorView }) {
  const { run } = useActions();
  const [balanceId, setBalanceId] = useState('');
  const [type, setType] = useState('');
  const [amount, setAmount] = useState('100');
  const [verify, setVerify] = useState(false);
  const target = view.depositTargets.find((t) => t.balanceId === balanceId) ?? view.depositTargets[0];
  const types = target && target.types.length > 0 ? [...new Set(target.types)] : view.depositTypes.map((t) => t.type);
  const chosenType = types.includes(type) ? type : (types[0] ?? '');
  const corporate = target?.label.includes('(corporate');
  return (
    <Section title="Incoming deposit">
      <form
        class="form-grid"
        aria-label="Incoming deposit"
        onSubmit={(e) => {
          e.preventDefault();
          if (!target) return;
          void run(
            'Incoming deposit',
            () =>
              act('/deposits/incoming', {
                balanceId: target.balanceId,
                type: chosenType,
                amount: amount.trim(),
                ...(corporate ? {} : { requiresVerification: verify }),
              }),
            () => `${amount} ${chosenType} arrived`,
          );
        }}
      >
        <Field label="To balance">
          <select value={target?.balanceId ?? ''} onChange={(e) => setBalanceId(e.currentTarget.value)}>
            {view.depositTargets.map((t) => (
              <option key={t.balanceId} value={t.balanceId}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Type">
          <select value={chosenType} onChange={(e) => setType(e.currentTarget.value)}>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Amount">
          <input inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </Field>
        {!corporate && (
          <label class="check">
            <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.currentTarget.checked)} /> needs
            verification data first
          </label>
        )}
        <button type="submit" class="btn btn-primary" disabled={!target}>
          Send deposit
        </button>
      </form>
      {target && !corporate && target.types.length === 0 && (
        <p class="muted small">
          This balance has no deposit address yet: the deposit will be refused until one is created through the API.
        </p>
      )}
    </Section>
  );
}
