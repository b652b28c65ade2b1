/** The Business tab: corporates with their ledger, business users, approvals as chains of instances. */
import { useState } from 'preact/hooks';
import type { ChainView, InspectorView, InstanceView } from '../view-model';
import { act } from './api';
import { money, shortInstant, toMinor } from './format';
import { RevealCard } from './reveal';
import { type Column, RecordTable } from './table';
import { ActionButton, AmountField, AuthorizeForm, Badge, Empty, Id, Purchases, Section, useActions } from './ui';

/** The tab. */
export function BusinessTab({ view }: { view: InspectorView }) {
  return (
    <>
      <Corporates view={view} />
      <BusinessUsers view={view} />
      <Section title="Approvals">
        {view.chains.length === 0 ? (
          <Empty>
            No approvals yet: create one through the API (POST
            /corporates/corporates/&#123;corporateUuid&#125;/approvals).
          </Empty>
        ) : (
          view.chains.map((chain) => <Chain key={chain.cardId} chain={chain} currency={currencyOf(view, chain)} />)
        )}
      </Section>
    </>
  );
}

function currencyOf(view: InspectorView, chain: ChainView): string {
  return view.corporates.find((c) => c.corporateUuid === chain.corporateUuid)?.currency ?? 'EUR';
}

function Corporates({ view }: { view: InspectorView }) {
  return (
    <Section title="Corporates">
      <div class="ledgers">
        {view.corporates.map((c) => (
          <article
            class="card ledger"
            key={c.corporateUuid}
            aria-label={`Corporate ${c.name}`}
            data-corporate={c.corporateUuid}
          >
            <h3>{c.name}</h3>
            <p class="muted">
              <Id id={c.corporateUuid} /> · balance <Id id={c.balanceId} />
            </p>
            <Bar
              funded={c.funded}
              parts={[
                ['available', c.available],
                ['reserved', c.reserved],
                ['spent', c.spent],
              ]}
            />
            <dl class="figures">
              <div>
                <dt>funded</dt>
                <dd data-figure="funded">{money(c.funded, c.currency)}</dd>
              </div>
              <div>
                <dt>available</dt>
                <dd data-figure="available">{money(c.available, c.currency)}</dd>
              </div>
              <div>
                <dt>reserved</dt>
                <dd data-figure="reserved">{money(c.reserved, c.currency)}</dd>
              </div>
              <div>
                <dt>of which held</dt>
                <dd data-figure="held">{money(c.held, c.currency)}</dd>
              </div>
              <div>
                <dt>spent</dt>
                <dd data-figure="spent">{money(c.spent, c.currency)}</dd>
              </div>
            </dl>
          </article>
        ))}
      </div>
    </Section>
  );
}

/** funded = available + reserved + spent, as a stacked bar (the figures beside it say the same in words). */
function Bar({ funded, parts }: { funded: number; parts: [string, number][] }) {
  return (
    <div class="bar" aria-hidden="true">
      {parts.map(([name, value]) => (
        <span key={name} class={`bar-${name}`} style={{ width: `${funded > 0 ? (100 * value) / funded : 0}%` }} />
      ))}
    </div>
  );
}

type BusinessUser = InspectorView['businessUsers'][number];

/** The business users' columns: name, e-mail, registration, id. */
const BUSINESS_USER_COLUMNS: Column<BusinessUser>[] = [
  { heading: 'Name', cell: (u) => u.name },
  { heading: 'E-mail', cell: (u) => u.email },
  { heading: 'Registration', cell: (u) => <Badge status={u.registrationStatus} /> },
  { heading: 'User', cell: (u) => <Id id={u.userUuid} /> },
];

function BusinessUsers({ view }: { view: InspectorView }) {
  return (
    <Section title="Business users">
      {view.businessUsers.length === 0 ? (
        <Empty>No business users yet.</Empty>
      ) : (
        <RecordTable
          rows={view.businessUsers}
          columns={BUSINESS_USER_COLUMNS}
          rowKey={(u) => u.userUuid}
          rowData={(u) => ({ 'data-user': u.userUuid })}
          actions={BusinessUserActions}
        />
      )}
    </Section>
  );
}

/** Completing a business user's registration (what the corporation's own portal does). */
function BusinessUserActions({ row: u }: { row: BusinessUser }) {
  const { run } = useActions();
  return (
    <>
      {u.registrationStatus !== 'COMPLETED' && (
        <ActionButton
          label="Complete registration"
          name={`Complete registration of ${u.name}`}
          kind="primary"
          onRun={() =>
            run(
              'Complete registration',
              () => act(`/users/${u.userUuid}/complete-registration`),
              () => `${u.name} finished registration`,
            )
          }
        />
      )}
    </>
  );
}

function Chain({ chain, currency }: { chain: ChainView; currency: string }) {
  const label = `Card ${chain.last4 ? `•••• ${chain.last4}` : '(not generated yet)'} of ${chain.userName}`;
  return (
    <article class="card chain" aria-label={label} data-card={chain.cardId}>
      <header class="chain-head">
        <h3>
          {chain.userName} · {chain.corporateName}
        </h3>
        <p>
          card <strong>{chain.last4 ? `•••• ${chain.last4}` : 'not generated yet'}</strong>{' '}
          {chain.cardStatus && <Badge status={chain.cardStatus} />} <Id id={chain.cardId} />
        </p>
      </header>
      <ol class="instances">
        {chain.instances.map((instance) => (
          <Instance key={instance.approvalUuid} chain={chain} instance={instance} currency={currency} />
        ))}
      </ol>
      <CardActions chain={chain} currency={currency} />
      <Purchases purchases={chain.authorizations} />
    </article>
  );
}

function Instance({ chain, instance, currency }: { chain: ChainView; instance: InstanceView; currency: string }) {
  const { run } = useActions();
  const base = `/corporates/${chain.corporateUuid}/approvals/${instance.approvalUuid}`;
  const s = instance.status;
  const who = `approval ${instance.approvalUuid.slice(0, 8)}`;
  const doAction = (action: string, words: string) =>
    run(
      words,
      () => act(`${base}/${action}`),
      () => `${words}: ${who}`,
    );
  return (
    <li class="instance" data-approval={instance.approvalUuid} data-status={s}>
      <div class="instance-head">
        <Badge status={s} />
        <span class="budget">{money(instance.budget.amount, instance.budget.currency)}</span>
        <span class="muted">
          spent <span data-figure="spent">{money(instance.spent, instance.budget.currency)}</span> · held{' '}
          <span data-figure="held">{money(instance.held, instance.budget.currency)}</span> · remaining{' '}
          <span data-figure="remaining">{money(instance.remaining, instance.budget.currency)}</span>
          {instance.overspent > 0 && (
            <>
              {' '}
              · <strong class="reason">overspent</strong>{' '}
              <span data-figure="overspent">{money(instance.overspent, instance.budget.currency)}</span>
            </>
          )}
        </span>
        <Id id={instance.approvalUuid} />
      </div>
      <p class="muted small">
        valid {shortInstant(instance.validFrom)} → {shortInstant(instance.validTo)}
        {instance.expiresAt && s === 'CREATED' ? <> · change expires {shortInstant(instance.expiresAt)}</> : null}
        {instance.statusReason ? (
          <>
            {' '}
            · <span class="reason">{instance.statusReason}</span>
          </>
        ) : null}
      </p>
      <ol class="history" aria-label={`Status history of ${who}`}>
        {instance.history.map((h, i) => (
          <li key={i}>
            <span class="to">{h.to}</span> <time dateTime={h.at}>{shortInstant(h.at)}</time>
            {h.trigger ? <span class="trigger"> ({h.trigger})</span> : null}
          </li>
        ))}
        {!instance.historyComplete && <li class="muted">(older changes are no longer in the event log)</li>}
      </ol>
      <div class="actions">
        {s === 'CREATED' && (
          <ActionButton
            label="Accept"
            name={`Accept ${who}`}
            kind="primary"
            onRun={() => doAction('accept', 'Accept change')}
          />
        )}
        {s === 'CREATED' && (
          <ActionButton label="Reject" name={`Reject ${who}`} onRun={() => doAction('reject', 'Reject change')} />
        )}
        {(s === 'CREATED' || s === 'ACCEPTED' || s === 'PREPARED') && (
          <ActionButton
            label="Cancel"
            name={`Cancel ${who}`}
            kind="danger"
            onRun={() => doAction('cancel', 'Cancel')}
          />
        )}
        {(s === 'ACCEPTED' || s === 'DELIVERED') && <RequestChange base={base} who={who} currency={currency} />}
      </div>
    </li>
  );
}

function RequestChange({ base, who, currency }: { base: string; who: string; currency: string }) {
  const { run } = useActions();
  const [amount, setAmount] = useState('100.00');
  const [pin, setPin] = useState(false);
  return (
    <form
      class="inline-form"
      aria-label={`Request a change of ${who}`}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = toMinor(amount, currency);
        const body = {
          ...(Number.isNaN(minor) || minor === 0 ? {} : { additionalBudget: { amount: minor, currency } }),
          ...(pin ? { pinUpdate: true } : {}),
        };
        void run(
          'Request change',
          () => act(`${base}/request-change`, body),
          () => `The user asked for a change of ${who}`,
        );
      }}
    >
      <AmountField label={`Additional budget (${currency})`} value={amount} onInput={setAmount} />
      <label class="check">
        <input type="checkbox" checked={pin} onChange={(e) => setPin(e.currentTarget.checked)} /> PIN update
      </label>
      <button type="submit" class="btn">
        Request change
      </button>
    </form>
  );
}

function CardActions({ chain, currency }: { chain: ChainView; currency: string }) {
  const { run } = useActions();
  const card = `card •••• ${chain.last4 ?? chain.cardId.slice(0, 4)}`;
  return (
    <div class="card-actions">
      {chain.cardStatus === 'ACTIVE' && (
        <ActionButton
          label="Lock card"
          name={`Lock ${card}`}
          onRun={() =>
            run(
              'Lock',
              () => act(`/cards/${chain.cardId}/lock`),
              () => `Locked ${card}`,
            )
          }
        />
      )}
      {chain.cardStatus === 'LOCKED' && (
        <ActionButton
          label="Unlock card"
          name={`Unlock ${card}`}
          onRun={() =>
            run(
              'Unlock',
              () => act(`/cards/${chain.cardId}/unlock`),
              () => `Unlocked ${card}`,
            )
          }
        />
      )}
      {chain.cardStatus === 'ACTIVE' && <RevealCard cardId={chain.cardId} card={card} />}
      <AuthorizeForm cardId={chain.cardId} card={card} currency={currency} />
    </div>
  );
}
