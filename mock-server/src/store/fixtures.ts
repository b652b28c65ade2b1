/**
 * The seeded state of a tenant: consents, card configs, deposit types and two funded corporates. Deterministic
 * for (seed, apiKey): the same pair always gives the same ids, and two tenants of one mock get different ids.
 * @module
 */
import type { Money } from 'card-issuing-sdk';
import { clockNow, iso, type ClockState } from '../clock';
import { Prng, seedState } from './prng';
import type { TenantIndex } from './indexes';
import type { CardConfigRecord, ConsentRecord, CorporateRecord, DepositTypeRecord, TenantState } from './records';
import { TENANT_STATE_VERSION } from './migrate';

/** The currency of every seeded balance and corporate. */
export const MOCK_CURRENCY = 'EUR';

const LEGAL = 'https://legal.card-issuing.example';
const ASSETS = 'https://assets.card-issuing.example/visuals';

const CARD_CONFIGS: {
  name: string;
  type: 'VIRTUAL' | 'PHYSICAL';
  price: number | null;
  visuals: [string, string];
  consent: string;
}[] = [
  {
    name: 'Virtual Free',
    type: 'VIRTUAL',
    price: null,
    visuals: ['Midnight', 'Aurora'],
    consent: 'Virtual card terms',
  },
  {
    name: 'Virtual Plus',
    type: 'VIRTUAL',
    price: 499,
    visuals: ['Graphite', 'Coral'],
    consent: 'Virtual Plus cardholder agreement',
  },
  {
    name: 'Physical Metal',
    type: 'PHYSICAL',
    price: 999,
    visuals: ['Brushed Steel', 'Black Metal'],
    consent: 'Physical card agreement',
  },
];

const DEPOSIT_TYPES: Omit<DepositTypeRecord, 'consentIds' | 'currency'>[] = [
  { type: 'BTC', name: 'Bitcoin', networks: ['BITCOIN'], minimumAmount: '0.0001', rate: '61000' },
  { type: 'ETH', name: 'Ether', networks: ['ETHEREUM'], minimumAmount: '0.005', rate: '3200' },
  { type: 'USDC', name: 'USD Coin', networks: ['ETHEREUM', 'POLYGON'], minimumAmount: '10', rate: '0.92' },
];

const CORPORATES: { name: string; funded: number }[] = [
  { name: 'Acme Logistics GmbH', funded: 100_000_000 }, // 1,000,000.00 EUR
  { name: 'Globex Studio SARL', funded: 25_000_000 }, // 250,000.00 EUR
];

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const HEX = '0123456789abcdef';

/** An on-chain-looking address for a network (bech32 for Bitcoin, 0x-hex for EVM networks). */
export function makeAddress(rng: Prng, network: string): string {
  if (network === 'BITCOIN') return `bc1q${rng.chars(38, BECH32)}`;
  return `0x${rng.chars(40, HEX)}`;
}

/** A fresh tenant state, seeded from `seed` and `apiKey`, with timestamps at the clock's current instant. */
export function seedTenant(seed: string, apiKey: string, clock: ClockState): TenantState {
  const rngState = seedState(`${seed}\u0000${apiKey}`);
  const rng = new Prng(rngState);
  const now = iso(clockNow(clock));
  // The generator's draws happen in this order (consents, card configs, deposit types, corporates): same seed,
  // same ids.
  const consents = registrationConsents(rng);
  const cardConfigs = seedCardConfigs(rng, consents);
  const depositTypes = seedDepositTypes(rng, consents);
  const state: TenantState = {
    version: TENANT_STATE_VERSION,
    apiKey,
    seed,
    rng: rngState,
    clock: { ...clock },
    catalogue: { consents, cardConfigs, depositTypes },
    users: {},
    balances: {},
    cards: {},
    drafts: {},
    depositAddresses: {},
    verifications: {},
    businessUsers: {},
    corporates: {},
    approvals: {},
    corporateDepositAddresses: {},
    topUps: {},
    authorizations: {},
    outbox: [],
    idempotency: {},
  };
  seedCorporates(rng, state, depositTypes, now);
  return state;
}

function registrationConsents(rng: Prng): ConsentRecord[] {
  return [
    {
      id: rng.uuid(),
      kind: 'REGISTRATION',
      title: 'Terms of service',
      version: '2026-01',
      url: `${LEGAL}/terms/2026-01`,
    },
    {
      id: rng.uuid(),
      kind: 'REGISTRATION',
      title: 'Privacy notice',
      version: '2026-01',
      url: `${LEGAL}/privacy/2026-01`,
    },
  ];
}

/** The card configs, each with its consent (added to `consents`). */
function seedCardConfigs(rng: Prng, consents: ConsentRecord[]): CardConfigRecord[] {
  return CARD_CONFIGS.map((c) => {
    const consent: ConsentRecord = {
      id: rng.uuid(),
      kind: 'CARD',
      title: c.consent,
      version: '2026-01',
      url: `${LEGAL}/${slug(c.consent)}/2026-01`,
    };
    consents.push(consent);
    const price: Money | null = c.price === null ? null : { amount: c.price, currency: MOCK_CURRENCY };
    return {
      id: rng.uuid(),
      name: c.name,
      type: c.type,
      price,
      visuals: c.visuals.map((name) => ({ id: rng.uuid(), name, imageUrl: `${ASSETS}/${slug(name)}.png` })),
      consentIds: [consent.id],
    };
  });
}

/** The deposit types, with the one consent they share (added to `consents`). */
function seedDepositTypes(rng: Prng, consents: ConsentRecord[]): DepositTypeRecord[] {
  const depositConsent: ConsentRecord = {
    id: rng.uuid(),
    kind: 'DEPOSIT',
    title: 'Crypto deposit terms',
    version: '2026-01',
    url: `${LEGAL}/crypto-deposits/2026-01`,
  };
  consents.push(depositConsent);
  return DEPOSIT_TYPES.map((t) => ({
    ...t,
    networks: [...t.networks],
    currency: MOCK_CURRENCY,
    consentIds: [depositConsent.id],
  }));
}

/** The seeded corporates, each with a deposit address per type and network. */
function seedCorporates(rng: Prng, state: TenantState, depositTypes: DepositTypeRecord[], now: string): void {
  for (const c of CORPORATES) {
    const corporate: CorporateRecord = {
      corporateUuid: rng.uuid(),
      name: c.name,
      currency: MOCK_CURRENCY,
      balanceId: rng.uuid(),
      available: c.funded,
      funded: c.funded,
      spent: 0,
      createdAt: now,
    };
    state.corporates[corporate.corporateUuid] = corporate;
    for (const t of depositTypes) {
      for (const network of t.networks) {
        const id = rng.uuid();
        state.corporateDepositAddresses[id] = {
          id,
          corporateUuid: corporate.corporateUuid,
          type: t.type,
          network,
          address: makeAddress(rng, network),
          createdAt: now,
        };
      }
    }
  }
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The seeded ids and current corporate balances of a tenant, as `fixtures()` and `GET /__mock/fixtures` give them. */
export interface Fixtures {
  /** The tenant's credentials. */
  credentials: { apiKey: string; apiSecret: string }[];
  /** Every consent of the catalogue (registration, card and deposit consents). */
  consents: { id: string; kind: ConsentRecord['kind']; title: string }[];
  corporates: {
    corporateUuid: string;
    name: string;
    balanceId: string;
    /** Available now (not reserved by approvals). */
    balance: Money;
    /** Reserved by live approvals now (pending card holds included: `held`). */
    reserved: Money;
    /** The part of `reserved` that pending card holds take (they stay reserved after their approval ended, until settled). */
    held: Money;
    /** Taken by approved card authorizations. */
    spent: Money;
    /** Seeded funds plus top-ups and merchant credits: always `balance` + `reserved` + `spent` − `overdraft`. */
    funded: Money;
    /** What forced captures took beyond the available balance (a negative balance), repaid first by the next top-up. */
    overdraft: Money;
    depositAddresses: { id: string; type: string; network: string; address: string }[];
  }[];
  cardConfigs: {
    configId: string;
    name: string;
    type: 'VIRTUAL' | 'PHYSICAL';
    price: Money | null;
    visualIds: string[];
    consentIds: string[];
  }[];
  depositTypes: {
    type: string;
    name: string;
    networks: string[];
    minimumAmount: string;
    exchangeRate: { currency: string; rate: string };
    consentIds: string[];
  }[];
}

/** The fixtures of a tenant's state (ids from the seed, corporate balances as they are now). */
export function fixturesOf(
  state: TenantState,
  credentials: { apiKey: string; apiSecret: string },
  index: TenantIndex,
): Fixtures {
  const money = (amount: number, currency: string): Money => ({ amount, currency });
  return {
    credentials: [{ ...credentials }],
    consents: state.catalogue.consents.map(({ id, kind, title }) => ({ id, kind, title })),
    corporates: Object.values(state.corporates).map((c) => {
      const mine = index.approvalsByCorporate.get(c.corporateUuid);
      const reserved = mine.reduce((sum, a) => sum + a.reserved, 0);
      const held = mine.reduce((sum, a) => sum + a.held, 0);
      return {
        corporateUuid: c.corporateUuid,
        name: c.name,
        balanceId: c.balanceId,
        balance: money(c.available, c.currency),
        reserved: money(reserved, c.currency),
        held: money(held, c.currency),
        spent: money(c.spent, c.currency),
        funded: money(c.funded, c.currency),
        overdraft: money(c.overdraft ?? 0, c.currency),
        depositAddresses: index.corporateDepositAddressesByCorporate
          .get(c.corporateUuid)
          .map(({ id, type, network, address }) => ({ id, type, network, address })),
      };
    }),
    cardConfigs: state.catalogue.cardConfigs.map((c) => ({
      configId: c.id,
      name: c.name,
      type: c.type,
      price: c.price,
      visualIds: c.visuals.map((v) => v.id),
      consentIds: [...c.consentIds],
    })),
    depositTypes: state.catalogue.depositTypes.map((t) => ({
      type: t.type,
      name: t.name,
      networks: [...t.networks],
      minimumAmount: t.minimumAmount,
      exchangeRate: { currency: t.currency, rate: t.rate },
      consentIds: [...t.consentIds],
    })),
  };
}
