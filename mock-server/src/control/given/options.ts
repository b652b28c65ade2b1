/**
 * The options of the builders (`mock.given.*`, `POST /__mock/given/{kind}`, scenario entries) as zod schemas: one
 * source for the in-process types, the HTTP routes' 400 VALIDATION_FAILED, and the scenario file's JSON Schema.
 * @module
 */
import * as z from 'zod';
import { schemas } from 'card-issuing-sdk/schemas';
import { MAX_MONEY } from '../../domain/spec-bounds';

const {
  zApprovalStatus,
  zBusinessUserCreate,
  zCryptoAmount,
  zCryptoNetwork,
  zDepositTypeCode,
  zMoney,
  zRegistrationData,
} = schemas;

/** Another record: its id, or the `as` name an earlier scenario entry gave it. */
const zRef = z.string().min(1).max(128);
/** Minor units of the corporate's (or the balance's) currency. */
const zMinor = z.int().min(0).max(MAX_MONEY);
const zInstant = z.iso.datetime({ offset: true });

/** `given.businessUser`: a business user, PENDING or registered. */
export const zGivenBusinessUser = z.strictObject({
  name: z.optional(zBusinessUserCreate.shape.name),
  lastName: z.optional(zBusinessUserCreate.shape.lastName),
  /** Default: a new address of example.org. */
  email: z.optional(zBusinessUserCreate.shape.email),
  phone: z.optional(zBusinessUserCreate.shape.phone),
  /** Completed registration (default false: PENDING). */
  registered: z.boolean().optional(),
});

/** `given.approval`: an approval in any of the nine statuses, made through the lifecycle's own transitions. */
export const zGivenApproval = z.strictObject({
  status: zApprovalStatus,
  /** Minor units in the corporate's currency, or a Money (default 1,000.00). */
  budget: z.union([z.int().min(1).max(MAX_MONEY), z.strictObject(zMoney.shape)]).optional(),
  validFrom: zInstant.optional(),
  validTo: zInstant.optional(),
  /** A business user (id or name); default: a new one, made 90 days back. */
  user: zRef.optional(),
  /** A corporate: its corporateUuid or its name in the fixtures (default: the first). */
  corporate: zRef.optional(),
  /** Captured purchases on the card while it was DELIVERED, in minor units. */
  spent: zMinor.optional(),
  /** A pending card hold (an authorization not captured yet), in minor units. */
  held: zMinor.optional(),
  /** REAPPROVED: what the budget increase adds; CREATED, REJECTED, EXPIRED: what the change request asks to add (default 0, a PIN update). */
  additionalBudget: z.int().min(1).max(MAX_MONEY).optional(),
});

/** `given.user`: a Server2Server user at any step of registration, e-mail verification and KYC, with a balance. */
export const zGivenUser = z.strictObject({
  email: z.optional(zRegistrationData.shape.email),
  firstName: z.optional(zRegistrationData.shape.firstName),
  lastName: z.optional(zRegistrationData.shape.lastName),
  phone: z.optional(zRegistrationData.shape.phone),
  dateOfBirth: z.optional(zRegistrationData.shape.dateOfBirth),
  country: z.optional(zRegistrationData.shape.country),
  /** Every registration consent signed (default true). */
  registered: z.boolean().optional(),
  /** E-mail verified through the one-time code (default false). */
  emailVerified: z.boolean().optional(),
  /** The KYC provider's answer (default NOT_STARTED). */
  kyc: z.enum(['NOT_STARTED', 'PASSED', 'FAILED']).optional(),
  /** Credited to the user's balance by a deposit, in minor units (0, or at least the smallest deposit's worth). */
  balance: zMinor.optional(),
});

/** `given.card`: a Server2Server card at any step of card issuing. */
const zGivenCardFields = z.strictObject({
  /** A Server2Server user (id or name); default: a new one, ready for cards. */
  user: zRef.optional(),
  /** Default VIRTUAL. */
  type: z.enum(['VIRTUAL', 'PHYSICAL']).optional(),
  /** ACTIVE (default), ORDERED (physical, order not completed) or LOCKED. */
  status: z.enum(['ACTIVE', 'ORDERED', 'LOCKED']).optional(),
  /** A priced card left as a draft: CREATED (not paid) or CHARGED (paid, not completed). */
  draft: z.enum(['CREATED', 'CHARGED']).optional(),
});

/** The checks across a card's fields (JSON Schema cannot say them; the mock says them with the path). */
function cardChecks<
  T extends z.ZodType<{ status?: string | undefined; draft?: string | undefined; type?: string | undefined }>,
>(schema: T): T {
  return schema
    .refine((o) => o.draft === undefined || o.status === undefined, {
      message: 'A draft is not a card yet: give status or draft, not both',
      path: ['draft'],
    })
    .refine((o) => o.status !== 'ORDERED' || o.type === 'PHYSICAL', {
      message: 'Only a physical card is ORDERED',
      path: ['status'],
    });
}

export const zGivenCard = cardChecks(zGivenCardFields);

/** `given.balance`: a Server2Server user's balance credited with an amount. */
export const zGivenBalance = z.strictObject({
  user: zRef.optional(),
  /** Minor units credited by a deposit. */
  amount: z.int().min(1).max(MAX_MONEY),
});

/** `given.depositAddress`: a deposit address of a user's balance. */
export const zGivenDepositAddress = z.strictObject({
  user: zRef.optional(),
  /** Default USDC. */
  type: z.optional(zDepositTypeCode),
  /** Default the type's first network. */
  network: z.optional(zCryptoNetwork),
});

/** `given.verification`: a deposit that arrived and waits for verification data (or was credited). */
export const zGivenVerification = z.strictObject({
  user: zRef.optional(),
  /** Default USDC. */
  type: z.optional(zDepositTypeCode),
  /** The crypto amount (default the type's minimum). */
  amount: z.optional(zCryptoAmount),
  /** Default PENDING_APPROVAL. */
  status: z.enum(['PENDING_APPROVAL', 'CREDITED']).optional(),
});

/** `given.corporateBalance`: a corporate whose available balance is raised to an amount by a top-up. */
export const zGivenCorporateBalance = z.strictObject({
  corporate: zRef.optional(),
  /** The available balance afterwards, in minor units (at least what is available now). */
  available: z.int().min(0).max(MAX_MONEY),
});

/** Every builder's options by kind (the `{kind}` of `POST /__mock/given/{kind}`). */
export const GIVEN_OPTIONS = {
  businessUser: zGivenBusinessUser,
  approval: zGivenApproval,
  user: zGivenUser,
  card: zGivenCard,
  balance: zGivenBalance,
  depositAddress: zGivenDepositAddress,
  verification: zGivenVerification,
  corporateBalance: zGivenCorporateBalance,
} as const;

/** The builders' kinds. */
export type GivenKind = keyof typeof GIVEN_OPTIONS;
export const GIVEN_KINDS = Object.keys(GIVEN_OPTIONS) as GivenKind[];

export type GivenBusinessUserOptions = z.input<typeof zGivenBusinessUser>;
export type GivenApprovalOptions = z.input<typeof zGivenApproval>;
export type GivenUserOptions = z.input<typeof zGivenUser>;
export type GivenCardOptions = z.input<typeof zGivenCard>;
export type GivenBalanceOptions = z.input<typeof zGivenBalance>;
export type GivenDepositAddressOptions = z.input<typeof zGivenDepositAddress>;
export type GivenVerificationOptions = z.input<typeof zGivenVerification>;
export type GivenCorporateBalanceOptions = z.input<typeof zGivenCorporateBalance>;

/** A name later entries of a scenario use for what this entry made. */
const zAs = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, 'A name: a letter, then letters, digits, "_", "." or "-"');

/** One entry of a scenario: a builder's kind, its options, and optionally a name for what it made. */
export const zScenarioEntry = z.discriminatedUnion(
  'kind',
  GIVEN_KINDS.map((kind) => {
    const fields = { kind: z.literal(kind), as: zAs.optional() };
    // The card's checks across fields apply to its entry too (an object with checks cannot be extended).
    return kind === 'card' ? cardChecks(zGivenCardFields.extend(fields)) : GIVEN_OPTIONS[kind].extend(fields);
  }) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** A scenario: builders applied in order; a later entry names an earlier one by its `as`. */
export const zScenario = z.strictObject({
  /** The JSON Schema the file follows (editors read it). */
  $schema: z.string().optional(),
  description: z.string().max(2000).optional(),
  given: z.array(zScenarioEntry).max(1000),
});

/** A scenario (a parsed JSON or YAML file). */
export type Scenario = z.input<typeof zScenario>;
export type ScenarioEntry = Scenario['given'][number];
