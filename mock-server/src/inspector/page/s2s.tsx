/** The Server2Server tab: users (registration, e-mail, KYC, balances), their cards and drafts. */
import type { InspectorView } from '../view-model';
import { act } from './api';
import { money } from './format';
import { RevealCard } from './reveal';
import { type Column, RecordTable } from './table';
import { ActionButton, AuthorizeForm, Badge, Empty, Id, Purchases, Section, useActions } from './ui';

type User = InspectorView['users'][number];
type Card = InspectorView['cards'][number];

/** The tab. */
export function S2sTab({ view }: { view: InspectorView }) {
  const s2sCards = view.cards.filter((c) => c.area === 's2s');
  return (
    <>
      <Section title="Users">
        {view.users.length === 0 ? (
          <Empty>No users yet: create one through the API (POST /s2s/users).</Empty>
        ) : (
          <UsersTable users={view.users} />
        )}
      </Section>
      <Section title="Cards">
        {s2sCards.length === 0 ? <Empty>No Server2Server cards yet.</Empty> : <CardsTable cards={s2sCards} />}
        {view.drafts.length > 0 && <Drafts drafts={view.drafts} />}
      </Section>
    </>
  );
}

/** The users' columns: name (with the id), e-mail, registration, e-mail verification, KYC, balances. */
const USER_COLUMNS: Column<User>[] = [
  {
    heading: 'Name',
    cell: (u) => (
      <>
        {u.name}
        <br />
        <Id id={u.id} />
      </>
    ),
  },
  { heading: 'E-mail', cell: (u) => u.email },
  { heading: 'Registration', cell: (u) => <Badge status={u.registrationStatus} /> },
  { heading: 'E-mail verified', cell: (u) => (u.emailVerified ? 'yes' : 'no') },
  { heading: 'KYC', cell: (u) => <Badge status={u.kycStatus} /> },
  { heading: 'Balances', cell: (u) => u.balances.map((b) => <div key={b.id}>{money(b.available, b.currency)}</div>) },
];

/** The users, one row each. */
function UsersTable({ users }: { users: User[] }) {
  return (
    <RecordTable
      rows={users}
      columns={USER_COLUMNS}
      rowKey={(u) => u.id}
      rowData={(u) => ({ 'data-user': u.id })}
      actions={UserActions}
    />
  );
}

/** A user's KYC actions. */
function UserActions({ row: u }: { row: User }) {
  const { run } = useActions();
  return (
    <>
      <ActionButton
        label="KYC passed"
        name={`KYC passed for ${u.name}`}
        onRun={() =>
          run(
            'KYC',
            () => act(`/kyc/${u.id}`, { status: 'PASSED' }),
            () => `KYC passed for ${u.name}`,
          )
        }
      />
      <ActionButton
        label="KYC failed"
        name={`KYC failed for ${u.name}`}
        kind="danger"
        onRun={() =>
          run(
            'KYC',
            () => act(`/kyc/${u.id}`, { status: 'FAILED' }),
            () => `KYC failed for ${u.name}`,
          )
        }
      />
    </>
  );
}

/** The cards' columns: holder, type, status, last 4, id. */
const CARD_COLUMNS: Column<Card>[] = [
  { heading: 'Holder', cell: (c) => c.holder },
  { heading: 'Type', cell: (c) => c.type },
  { heading: 'Status', cell: (c) => <Badge status={c.status} /> },
  { heading: 'Last 4', cell: (c) => (c.last4 ? `•••• ${c.last4}` : '—') },
  { heading: 'Card', cell: (c) => <Id id={c.id} /> },
];

/** The Server2Server cards, one row each. */
function CardsTable({ cards }: { cards: Card[] }) {
  return (
    <RecordTable
      rows={cards}
      columns={CARD_COLUMNS}
      rowKey={(c) => c.id}
      rowData={(c) => ({ 'data-card': c.id })}
      actions={CardActions}
    />
  );
}

/** What can be done with a card in its status. */
function CardActions({ row: c }: { row: Card }) {
  const { run } = useActions();
  return (
    <>
      {c.status === 'ACTIVE' && (
        <ActionButton
          label="Lock"
          name={`Lock card ${c.last4}`}
          onRun={() =>
            run(
              'Lock',
              () => act(`/cards/${c.id}/lock`),
              () => `Locked •••• ${c.last4}`,
            )
          }
        />
      )}
      {c.status === 'LOCKED' && (
        <ActionButton
          label="Unlock"
          name={`Unlock card ${c.last4}`}
          onRun={() =>
            run(
              'Unlock',
              () => act(`/cards/${c.id}/unlock`),
              () => `Unlocked •••• ${c.last4}`,
            )
          }
        />
      )}
      {c.status === 'ACTIVE' && <RevealCard cardId={c.id} card={`card •••• ${c.last4 ?? c.id.slice(0, 4)}`} />}
      <AuthorizeForm cardId={c.id} card={`card •••• ${c.last4 ?? c.id.slice(0, 4)}`} currency={c.currency} />
      <Purchases purchases={c.purchases} />
    </>
  );
}

/** The drafts waiting for payment, under their heading. */
function Drafts({ drafts }: { drafts: InspectorView['drafts'] }) {
  return (
    <>
      <h3>Drafts waiting for payment</h3>
      <ul>
        {drafts.map((d) => (
          <li key={d.cardId}>
            <Badge status={d.status} /> {d.type} for {money(d.price.amount, d.price.currency)} <Id id={d.cardId} />
          </li>
        ))}
      </ul>
    </>
  );
}
