/** The Server2Server tab: users (registration, e-mail, KYC, balances), their cards and drafts. */
import type { InspectorView } from '../view-model';
import { act } from './api';
import { money } from './format';
import { RevealCard } from './reveal';
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

/** The users, one row each. */
function UsersTable({ users }: { users: User[] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>E-mail</th>
            <th>Registration</th>
            <th>E-mail verified</th>
            <th>KYC</th>
            <th>Balances</th>
            <th>
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <UserRow key={u.id} user={u} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A user: name, e-mail, registration, e-mail verification, KYC, balances, and the KYC actions. */
function UserRow({ user: u }: { user: User }) {
  const { run } = useActions();
  return (
    <tr data-user={u.id}>
      <td data-label="Name">
        {u.name}
        <br />
        <Id id={u.id} />
      </td>
      <td data-label="E-mail">{u.email}</td>
      <td data-label="Registration">
        <Badge status={u.registrationStatus} />
      </td>
      <td data-label="E-mail verified">{u.emailVerified ? 'yes' : 'no'}</td>
      <td data-label="KYC">
        <Badge status={u.kycStatus} />
      </td>
      <td data-label="Balances">
        {u.balances.map((b) => (
          <div key={b.id}>{money(b.available, b.currency)}</div>
        ))}
      </td>
      <td data-label="" class="actions">
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
      </td>
    </tr>
  );
}

/** The Server2Server cards, one row each. */
function CardsTable({ cards }: { cards: Card[] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Holder</th>
            <th>Type</th>
            <th>Status</th>
            <th>Last 4</th>
            <th>Card</th>
            <th>
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {cards.map((c) => (
            <CardRow key={c.id} card={c} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A card: holder, type, status, last 4, and what can be done with it in its status. */
function CardRow({ card: c }: { card: Card }) {
  const { run } = useActions();
  return (
    <tr data-card={c.id}>
      <td data-label="Holder">{c.holder}</td>
      <td data-label="Type">{c.type}</td>
      <td data-label="Status">
        <Badge status={c.status} />
      </td>
      <td data-label="Last 4">{c.last4 ? `•••• ${c.last4}` : '—'}</td>
      <td data-label="Card">
        <Id id={c.id} />
      </td>
      <td data-label="" class="actions">
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
      </td>
    </tr>
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
