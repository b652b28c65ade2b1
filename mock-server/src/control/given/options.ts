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
  email: z.optional(zBusinessUserCreate.shape.email).describe('Default: a new address of example.org.'),
  phone: z.optional(zBusinessUserCreate.shape.phone),
  registered: z.boolean().optional().describe('Completed registration (default false: PENDING).'),
});

/** `given.approval`: an approval in any of the nine statuses, made through the lifecycle's own transitions. */
export const zGivenApproval = z.strictObject({
  status: zApprovalStatus,
  budget: z
    .union([z.int().min(1).max(MAX_MONEY), z.strictObject(zMoney.shape)])
    .optional()
    .describe("Minor units in the corporate's currency, or a Money (default 1,000.00)."),
  validFrom: zInstant.optional(),
  validTo: zInstant.optional(),
  user: zRef.optional().describe('A business user (id or name); default: a new one, made 90 days back.'),
  corporate: zRef
    .optional()
    .describe('A corporate: its corporateUuid or its name in the fixtures (default: the first).'),
  spent: zMinor.optional().describe('Captured purchases on the card while it was DELIVERED, in minor units.'),
  held: zMinor.optional().describe('A pending card hold (an authorization not captured yet), in minor units.'),
  additionalBudget: z
    .int()
    .min(1)
    .max(MAX_MONEY)
    .optional()
    .describe(
      'REAPPROVED: what the budget increase adds; CREATED, REJECTED, EXPIRED: what the change request asks to add (default 0, a PIN update).',
    ),
});

/** `given.user`: a Server2Server user at any step of registration, e-mail verification and KYC, with a balance. */
export const zGivenUser = z.strictObject({
  email: z.optional(zRegistrationData.shape.email),
  firstName: z.optional(zRegistrationData.shape.firstName),
  lastName: z.optional(zRegistrationData.shape.lastName),
  phone: z.optional(zRegistrationData.shape.phone),
  dateOfBirth: z.optional(zRegistrationData.shape.dateOfBirth),
  country: z.optional(zRegistrationData.shape.country),
  registered: z.boolean().optional().describe('Every registration consent signed (default true).'),
  emailVerified: z.boolean().optional().describe('E-mail verified through the one-time code (default false).'),
  kyc: z
    .enum(['NOT_STARTED', 'PASSED', 'FAILED'])
    .optional()
    .describe("The KYC provider's answer (default NOT_STARTED)."),
  balance: zMinor
    .optional()
    .describe(
      "Credited to the user's balance by a deposit, in minor units (0, or at least the smallest deposit's worth).",
    ),
});

/** `given.card`: a Server2Server card at any step of card issuing. */
const zGivenCardFields = z.strictObject({
  user: zRef.optional().describe('A Server2Server user (id or name); default: a new one, ready for cards.'),
  type: z.enum(['VIRTUAL', 'PHYSICAL']).optional().describe('Default VIRTUAL.'),
  status: z
    .enum(['ACTIVE', 'ORDERED', 'LOCKED'])
    .optional()
    .describe('ACTIVE (default), ORDERED (physical, order not completed) or LOCKED.'),
  draft: z
    .enum(['CREATED', 'CHARGED'])
    .optional()
    .describe('A priced card left as a draft: CREATED (not paid) or CHARGED (paid, not completed).'),
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
  amount: z.int().min(1).max(MAX_MONEY).describe('Minor units credited by a deposit.'),
});

/** `given.depositAddress`: a deposit address of a user's balance. */
export const zGivenDepositAddress = z.strictObject({
  user: zRef.optional(),
  type: z.optional(zDepositTypeCode).describe('Default USDC.'),
  network: z.optional(zCryptoNetwork).describe("Default the type's first network."),
});

/** `given.verification`: a deposit that arrived and waits for verification data (or was credited). */
export const zGivenVerification = z.strictObject({
  user: zRef.optional(),
  type: z.optional(zDepositTypeCode).describe('Default USDC.'),
  amount: z.optional(zCryptoAmount).describe("The crypto amount (default the type's minimum)."),
  status: z.enum(['PENDING_APPROVAL', 'CREDITED']).optional().describe('Default PENDING_APPROVAL.'),
});

/** `given.corporateBalance`: a corporate whose available balance is raised to an amount by a top-up. */
export const zGivenCorporateBalance = z.strictObject({
  corporate: zRef.optional(),
  available: z
    .int()
    .min(0)
    .max(MAX_MONEY)
    .describe('The available balance afterwards, in minor units (at least what is available now).'),
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
    const fields = {
      kind: z.literal(kind).describe('The builder: what this entry makes.'),
      as: zAs.optional().describe('A name for what this entry made, for later entries\' "user" or "corporate".'),
    };
    // The card's checks across fields apply to its entry too (an object with checks cannot be extended).
    return kind === 'card' ? cardChecks(zGivenCardFields.extend(fields)) : GIVEN_OPTIONS[kind].extend(fields);
  }) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** A scenario: builders applied in order; a later entry names an earlier one by its `as`. */
export const zScenario = z.strictObject({
  /** The JSON Schema the file follows (editors read it). */
  $schema: z.string().optional(),
  description: z.string().max(2000).optional(),
  given: z.array(zScenarioEntry).max(1000).describe('The builders, applied in order; all or nothing.'),
});

/** A scenario (a parsed JSON or YAML file). */
export type Scenario = z.input<typeof zScenario>;
export type ScenarioEntry = Scenario['given'][number];
