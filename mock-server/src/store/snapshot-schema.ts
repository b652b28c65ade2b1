/**
 * The schema of a tenant's state (what `GET /__mock/state` gives and `PUT /__mock/state` and a state file take),
 * checked whole: every record of every collection, its key, and the references between records, so that one bad
 * value (an approval set to `null`) is a 400 VALIDATION_FAILED naming each bad path and changes nothing, instead of
 * a saved state that fails every later request of the tenant.
 *
 * Typed against {@link TenantState}: a field added to a record and not here fails to compile.
 * @module
 */
import * as z from 'zod';
import { schemas as g } from 'card-issuing-sdk/schemas';
import {
  AUTHORIZATION_STATES,
  AUTHORIZATION_STEP_KINDS,
  DECLINE_REASONS,
  FORCED_REASONS,
  type TenantState,
} from './records';
import { TENANT_STATE_VERSION } from './migrate';

const id = g.zUuid;
const instant = z.iso.datetime();
const text = (max: number) => z.string().max(max);
const money = z.strictObject(g.zMoney.shape);
const minor = z.int().gte(0).lte(100_000_000_000);
const nullable = <T extends z.core.SomeType>(schema: T) => z.nullable(schema);
const byId = <T extends z.core.SomeType>(record: T) => z.record(z.string().max(64), record);

const consent = z.strictObject({
  id,
  kind: g.zConsent.shape.kind,
  title: text(200),
  version: text(32),
  url: text(2048),
});
const cardConfig = z.strictObject({
  id,
  name: text(100),
  type: g.zCardType,
  price: nullable(money),
  visuals: z.array(z.strictObject(g.zVisual.shape)).max(20),
  consentIds: z.array(id).max(50),
});
const depositType = z.strictObject({
  type: g.zDepositTypeCode,
  name: text(100),
  networks: z.array(g.zCryptoNetwork).min(1).max(20),
  minimumAmount: g.zCryptoAmount,
  rate: g.zCryptoAmount,
  currency: g.zCurrencyCode,
  consentIds: z.array(id).max(50),
});
const user = z.strictObject({
  ...g.zRegistrationData.shape,
  id,
  signedConsents: z.record(id, instant),
  emailVerified: z.boolean(),
  kycStatus: z.enum(['NOT_STARTED', 'PASSED', 'FAILED']),
  otp: nullable(
    z.strictObject({
      code: z.string().regex(/^[0-9]{6}$/),
      expiresAt: instant,
      attemptsRemaining: z.int().gte(0).lte(5),
    }),
  ),
  createdAt: instant,
});
const balance = z.strictObject({
  id,
  userId: id,
  currency: g.zCurrencyCode,
  available: minor,
  overdraft: minor.optional(),
  updatedAt: instant,
});
const card = z.strictObject({
  id,
  userId: id,
  type: g.zCardType,
  status: g.zCardStatus,
  pan: nullable(z.string().regex(/^[0-9]{12,19}$/)),
  cvv: nullable(z.string().regex(/^[0-9]{3,4}$/)),
  expiryMonth: nullable(z.int().gte(1).lte(12)),
  expiryYear: nullable(z.int().gte(2000).lte(2100)),
  cardholderName: text(201),
  configId: nullable(id),
  visualId: nullable(id),
  createdAt: instant,
  generatedAt: nullable(instant),
  orderedAt: nullable(instant),
  corporateUuid: nullable(id),
  approvalUuid: nullable(id),
});
const draft = z.strictObject({
  cardId: id,
  userId: id,
  configId: id,
  visualId: id,
  type: g.zCardType,
  status: z.enum(['CREATED', 'CHARGED', 'COMPLETED']),
  price: money,
  balanceId: id,
  createdAt: instant,
  chargedAt: nullable(instant),
});
const depositAddress = z.strictObject({
  id,
  balanceId: id,
  type: g.zDepositTypeCode,
  network: g.zCryptoNetwork,
  address: text(128),
  label: nullable(text(64)),
  createdAt: instant,
});
const verification = z.strictObject({
  id,
  userId: id,
  balanceId: id,
  depositAddressId: id,
  type: g.zDepositTypeCode,
  network: g.zCryptoNetwork,
  amount: g.zCryptoAmount,
  status: z.enum(['PENDING_APPROVAL', 'CREDITED']),
  verificationRequired: z.boolean(),
  verificationData: nullable(z.strictObject(g.zVerificationData.shape)),
  creditedAmount: nullable(money),
  createdAt: instant,
  creditedAt: nullable(instant),
});
const corporate = z.strictObject({
  corporateUuid: id,
  name: text(100),
  currency: g.zCurrencyCode,
  balanceId: id,
  available: minor,
  funded: minor,
  spent: minor,
  overdraft: minor.optional(),
  createdAt: instant,
});
const approval = z.strictObject({
  approvalUuid: id,
  corporateUuid: id,
  userUuid: id,
  status: g.zApprovalStatus,
  statusReason: nullable(g.zApprovalStatusReason),
  budget: money,
  validFrom: instant,
  validTo: instant,
  previousApprovalUuid: nullable(id),
  replacedByApprovalUuid: nullable(id),
  change: nullable(z.strictObject(g.zApprovalChange.shape)),
  expiresAt: nullable(instant),
  cardId: id,
  reserved: minor,
  spent: minor,
  held: minor,
  createdAt: instant,
  updatedAt: instant,
});
const corporateDepositAddress = z.strictObject({
  id,
  corporateUuid: id,
  type: g.zDepositTypeCode,
  network: g.zCryptoNetwork,
  address: text(128),
  createdAt: instant,
});
const topUp = z.strictObject({
  id,
  corporateUuid: id,
  depositAddressId: id,
  type: g.zDepositTypeCode,
  network: g.zCryptoNetwork,
  cryptoAmount: g.zCryptoAmount,
  amount: money,
  status: z.literal('COMPLETED'),
  createdAt: instant,
});
const authorization = z.strictObject({
  id,
  cardId: id,
  approvalUuid: nullable(id),
  balanceId: nullable(id),
  amount: money,
  merchant: text(100),
  status: z.enum(['APPROVED', 'DECLINED']),
  declineReason: nullable(z.enum(DECLINE_REASONS)),
  state: z.enum(AUTHORIZATION_STATES),
  authorized: minor,
  held: minor,
  captured: minor,
  refunded: minor,
  expiresAt: nullable(instant),
  steps: z
    .array(
      z.strictObject({
        kind: z.enum(AUTHORIZATION_STEP_KINDS),
        forced: z.enum(FORCED_REASONS).optional(),
        amount: minor,
        declineReason: nullable(z.enum(DECLINE_REASONS)),
        at: instant,
      }),
    )
    .max(10_000),
  createdAt: instant,
  updatedAt: instant,
});
const outbox = z.strictObject({
  userId: id,
  to: text(254),
  subject: text(200),
  code: z
    .string()
    .regex(/^[0-9]{6}$/)
    .optional(),
  sentAt: instant,
});
const idempotency = z.strictObject({
  fingerprint: text(256),
  status: z.int().gte(100).lte(599),
  headers: z.record(text(64), text(1024)),
  body: text(1_048_576),
  storedAt: z.number().finite(),
  storedAtWall: z.number().finite().optional(),
});

/** A whole tenant state. Keys of keyed collections must be their record's id; references must resolve. */
export const zTenantState: z.ZodType<TenantState> = z
  .strictObject({
    version: z.literal(TENANT_STATE_VERSION, {
      error: `This mock reads tenant snapshots of version ${TENANT_STATE_VERSION} (version 1 is migrated when restored); take the snapshot again with this version of the mock (GET /__mock/state or mock.snapshot())`,
    }),
    apiKey: text(128),
    seed: text(256),
    rng: z.tuple([z.int(), z.int(), z.int(), z.int()]),
    clock: z.strictObject({ frozenAt: z.number().finite().nullable(), offsetMs: z.number().finite() }),
    catalogue: z.strictObject({
      consents: z.array(consent).max(1000),
      cardConfigs: z.array(cardConfig).max(1000),
      depositTypes: z.array(depositType).max(1000),
    }),
    users: byId(user),
    balances: byId(balance),
    cards: byId(card),
    drafts: byId(draft),
    depositAddresses: byId(depositAddress),
    verifications: byId(verification),
    businessUsers: byId(z.strictObject({ ...g.zBusinessUser.shape, registeredAt: nullable(instant) })),
    corporates: byId(corporate),
    approvals: byId(approval),
    corporateDepositAddresses: byId(corporateDepositAddress),
    topUps: byId(topUp),
    authorizations: byId(authorization),
    outbox: z.array(outbox).max(100_000),
    idempotency: z.record(text(255), idempotency),
  })
  .superRefine((state, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const keyed: [keyof TenantState, string][] = [
      ['users', 'id'],
      ['balances', 'id'],
      ['cards', 'id'],
      ['drafts', 'cardId'],
      ['depositAddresses', 'id'],
      ['verifications', 'id'],
      ['businessUsers', 'userUuid'],
      ['corporates', 'corporateUuid'],
      ['approvals', 'approvalUuid'],
      ['corporateDepositAddresses', 'id'],
      ['topUps', 'id'],
      ['authorizations', 'id'],
    ];
    for (const [collection, field] of keyed) {
      for (const [key, record] of Object.entries(state[collection] as Record<string, Record<string, unknown>>)) {
        if (record[field] !== key) issue([collection, key, field], `Must equal its key ${key}`);
      }
    }
    const refer = (
      collection: keyof TenantState,
      key: string,
      field: string,
      target: keyof TenantState,
      value: string | null,
    ) => {
      if (value !== null && !(value in (state[target] as Record<string, unknown>)))
        issue([collection, key, field], `No ${String(target)} record ${value}`);
    };
    for (const [key, b] of Object.entries(state.balances)) refer('balances', key, 'userId', 'users', b.userId);
    for (const [key, c] of Object.entries(state.cards)) {
      refer('cards', key, 'approvalUuid', 'approvals', c.approvalUuid);
      refer('cards', key, 'corporateUuid', 'corporates', c.corporateUuid);
    }
    for (const [key, d] of Object.entries(state.drafts)) {
      refer('drafts', key, 'userId', 'users', d.userId);
      refer('drafts', key, 'balanceId', 'balances', d.balanceId);
    }
    for (const [key, a] of Object.entries(state.depositAddresses))
      refer('depositAddresses', key, 'balanceId', 'balances', a.balanceId);
    for (const [key, v] of Object.entries(state.verifications)) {
      refer('verifications', key, 'userId', 'users', v.userId);
      refer('verifications', key, 'balanceId', 'balances', v.balanceId);
    }
    for (const [key, a] of Object.entries(state.approvals)) {
      refer('approvals', key, 'corporateUuid', 'corporates', a.corporateUuid);
      refer('approvals', key, 'userUuid', 'businessUsers', a.userUuid);
      refer('approvals', key, 'cardId', 'cards', a.cardId);
      refer('approvals', key, 'previousApprovalUuid', 'approvals', a.previousApprovalUuid);
      refer('approvals', key, 'replacedByApprovalUuid', 'approvals', a.replacedByApprovalUuid);
    }
    for (const [key, a] of Object.entries(state.corporateDepositAddresses))
      refer('corporateDepositAddresses', key, 'corporateUuid', 'corporates', a.corporateUuid);
    for (const [key, t] of Object.entries(state.topUps))
      refer('topUps', key, 'corporateUuid', 'corporates', t.corporateUuid);
    for (const [key, a] of Object.entries(state.authorizations)) {
      refer('authorizations', key, 'cardId', 'cards', a.cardId);
      refer('authorizations', key, 'approvalUuid', 'approvals', a.approvalUuid);
      refer('authorizations', key, 'balanceId', 'balances', a.balanceId);
    }
  });

/** The bad paths of a would-be tenant state (`approvals.<id>.status`), at most `max`; empty when it is one. */
export function snapshotErrors(value: unknown, max = 100): { path: string; message: string }[] {
  const result = zTenantState.safeParse(value);
  if (result.success) return [];
  return result.error.issues.slice(0, max).map((issue) => ({
    path: issue.path.map(String).join('.') || '(state)',
    message: issue.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.join(', ')}` : issue.message,
  }));
}
