/**
 * Type tests of the public surface (as msw's *.test-d.ts): the call shapes users write, the types they get back, and
 * what the root entry must not publish. Checked by the TypeScript compiler in `npm run typecheck` (part of
 * `npm test`): a change to a method's arguments or result, or a server helper reaching the root, fails to compile.
 */
import { expectTypeOf } from 'vitest';
import type * as sdk from 'card-issuing-sdk';
import type { schemas } from 'card-issuing-sdk/schemas';
import type { operationTable, OperationRow, VerifySignatureInput } from 'card-issuing-sdk/server';
import type * as reveal from 'card-issuing-sdk/reveal';

declare const client: sdk.CardIssuingClient;

// ------------------------------------------------------------------ the methods users call, as they call them

expectTypeOf(client.s2s.users.create).parameters.toEqualTypeOf<
  [body: sdk.RegistrationData, options?: sdk.RequestOptions]
>();
expectTypeOf(client.s2s.users.create).returns.toEqualTypeOf<sdk.ApiPromise<sdk.User>>();
expectTypeOf(client.s2s.users.get).parameters.toEqualTypeOf<[userId: string, options?: sdk.RequestOptions]>();
expectTypeOf(client.s2s.cards.create).parameters.toEqualTypeOf<
  [userId: string, body: sdk.CardCreate, options?: sdk.RequestOptions]
>();
expectTypeOf(client.s2s.cards.create).returns.toEqualTypeOf<sdk.ApiPromise<sdk.CardOrDraft>>();
expectTypeOf(client.s2s.cards.list).parameters.toEqualTypeOf<[userId: string, options?: sdk.ListOptions]>();
expectTypeOf(client.s2s.cards.list).returns.toEqualTypeOf<sdk.PagePromise<sdk.CardList>>();
expectTypeOf(client.s2s.cards.getDetails).parameters.toEqualTypeOf<
  [cardId: string, options: sdk.CardDetailsRequestOptions]
>();
expectTypeOf(client.s2s.cards.getDetails).returns.toEqualTypeOf<sdk.ApiPromise<sdk.CardDetails>>();
expectTypeOf(client.s2s.deposits.listAddresses).parameters.toEqualTypeOf<
  [balanceId: string, type: sdk.DepositTypeCode, options?: sdk.ListOptions]
>();
expectTypeOf(client.s2s.deposits.listVerifications).parameters.toEqualTypeOf<
  [query?: { userId?: string }, options?: sdk.ListOptions]
>();
// The Wallet App's consent: the user (a query parameter) first, as before the layer was generated.
expectTypeOf(client.app.consents.sign).parameters.toEqualTypeOf<
  [userUuid: string, consentUuid: string, options?: sdk.RequestOptions]
>();
expectTypeOf(client.corporates.approvals.increaseBudget).parameters.toEqualTypeOf<
  [corporateUuid: string, approvalUuid: string, body: sdk.BudgetIncrease, options?: sdk.RequestOptions]
>();
expectTypeOf(client.corporates.approvals.getDetails).returns.toEqualTypeOf<sdk.ApiPromise<sdk.CardDetails>>();
// The relaying twins of the card-details methods: a public key in, the JWE as sent out (issue 26).
expectTypeOf(client.s2s.cards.getEncryptedDetails).parameters.toEqualTypeOf<
  [cardId: string, options: sdk.EncryptedDetailsRequestOptions]
>();
expectTypeOf(client.s2s.cards.getEncryptedDetails).returns.toEqualTypeOf<sdk.ApiPromise<string>>();
expectTypeOf(client.corporates.approvals.getEncryptedDetails).parameters.toEqualTypeOf<
  [corporateUuid: string, approvalUuid: string, options: sdk.EncryptedDetailsRequestOptions]
>();
expectTypeOf<sdk.EncryptedDetailsRequestOptions['publicKey']>().toEqualTypeOf<string>();
expectTypeOf(client.corporates.topUps.list).returns.toEqualTypeOf<sdk.PagePromise<sdk.TopUpList>>();

// Every area and resource users have; and the area types are the client's parts.
expectTypeOf<keyof sdk.CardIssuingClient>().toEqualTypeOf<'s2s' | 'app' | 'corporates' | 'request' | 'clockOffsetMs'>();
expectTypeOf<keyof sdk.S2sApi>().toEqualTypeOf<'users' | 'consents' | 'email' | 'cards' | 'balances' | 'deposits'>();
expectTypeOf<keyof sdk.AppApi>().toEqualTypeOf<'deposits' | 'consents'>();
expectTypeOf<keyof sdk.CorporatesApi>().toEqualTypeOf<'users' | 'approvals' | 'deposits' | 'topUps'>();
expectTypeOf<sdk.CardIssuingClient['s2s']>().toEqualTypeOf<sdk.S2sApi>();

// One method per operation of the spec: 32, no more, no fewer (besides the relaying twins of the two details methods).
type Leaves<T> = {
  [A in keyof T]: { [R in keyof T[A]]: `${A & string}.${R & string}.${keyof T[A][R] & string}` }[keyof T[A]];
}[keyof T];
expectTypeOf<OperationRow['operationId']>().toEqualTypeOf<(typeof operationTable)[number]['operationId']>();
type Union2Tuple<U> = (U extends unknown ? (x: () => U) => void : never) extends (x: infer I) => void
  ? I extends () => infer L
    ? [...Union2Tuple<Exclude<U, L>>, L]
    : []
  : [];
type Twins = `${string}.getEncrypted${string}`;
expectTypeOf<Extract<Leaves<sdk.ResourceMethods>, Twins>>().toEqualTypeOf<
  's2s.cards.getEncryptedDetails' | 'corporates.approvals.getEncryptedDetails'
>();
expectTypeOf<Union2Tuple<Exclude<Leaves<sdk.ResourceMethods>, Twins>>['length']>().toEqualTypeOf<
  Union2Tuple<OperationRow['operationId']>['length']
>();
expectTypeOf<Union2Tuple<OperationRow['operationId']>['length']>().toEqualTypeOf<32>();

// ------------------------------------------------------------------ card-issuing-sdk/reveal (issue 26)

declare const revealEntry: typeof reveal;
expectTypeOf(revealEntry.createRevealKey).returns.toEqualTypeOf<Promise<reveal.RevealKey>>();
expectTypeOf<reveal.RevealKey['publicKey']>().toEqualTypeOf<string>();
expectTypeOf(revealEntry.revealCardDetails).parameters.toEqualTypeOf<
  [jwe: string, key: reveal.RevealKey | CryptoKey]
>();
expectTypeOf(revealEntry.revealCardDetails).returns.toEqualTypeOf<Promise<sdk.CardDetails>>();
expectTypeOf(revealEntry.mountCardReveal).parameters.toEqualTypeOf<
  [element: HTMLElement, options: reveal.MountCardRevealOptions]
>();
expectTypeOf(revealEntry.mountCardReveal).returns.toEqualTypeOf<reveal.CardReveal>();
expectTypeOf<reveal.MountCardRevealOptions['fetchEncrypted']>().toEqualTypeOf<(publicKey: string) => Promise<string>>();
expectTypeOf<reveal.CardReveal['revealed']>().toEqualTypeOf<Promise<reveal.RevealField[]>>();
expectTypeOf<reveal.RevealField>().toEqualTypeOf<'number' | 'expiry' | 'cvv' | 'cardholder'>();
expectTypeOf<reveal.RevealFrameMessage['type']>().toEqualTypeOf<
  'card-reveal:ready' | 'card-reveal:revealed' | 'card-reveal:copied' | 'card-reveal:resize' | 'card-reveal:error'
>();
// No message of the frame has a member for card data (every member of every message, listed).
type MembersOf<T> = T extends unknown ? keyof T : never;
expectTypeOf<MembersOf<reveal.RevealFrameMessage>>().toEqualTypeOf<
  'type' | 'publicKey' | 'fields' | 'field' | 'height' | 'code' | 'message'
>();

// ------------------------------------------------------------------ options

expectTypeOf<sdk.CardIssuingClientOptions['secretEncoding']>().toEqualTypeOf<sdk.SecretEncoding | undefined>();
expectTypeOf<sdk.SignRequestInput['secretEncoding']>().toEqualTypeOf<sdk.SecretEncoding | undefined>();
expectTypeOf<VerifySignatureInput['secretEncoding']>().toEqualTypeOf<'utf8' | 'base64' | undefined>();
expectTypeOf<sdk.RequestOptions['idempotencyKey']>().toEqualTypeOf<string | false | undefined>();
expectTypeOf<sdk.CardIssuingClientOptions['validateResponses']>().toEqualTypeOf<
  'strict' | 'warn' | boolean | undefined
>();
expectTypeOf<sdk.CardIssuingClientOptions['logLevel']>().toEqualTypeOf<sdk.LogLevel | undefined>();
expectTypeOf<sdk.CardIssuingClientOptions['dangerouslyAllowBrowser']>().toEqualTypeOf<boolean | undefined>();

// ------------------------------------------------------------------ issue 18: request(), the clock, open error codes

expectTypeOf(client.request<{ status: string }>({ method: 'POST', path: '/s2s/health' })).toEqualTypeOf<
  sdk.ApiPromise<{ status: string }>
>();
expectTypeOf(client.request({ method: 'GET', path: '/x' })).toEqualTypeOf<sdk.ApiPromise<unknown>>();
expectTypeOf(client.clockOffsetMs).toEqualTypeOf<number>();
// Known codes complete in an editor; a code a newer service adds is a string the type accepts.
expectTypeOf<'NOT_FOUND'>().toExtend<sdk.ErrorCode>();
expectTypeOf<'A_CODE_FROM_A_NEWER_SERVICE'>().toExtend<sdk.ErrorCode>();
expectTypeOf<sdk.KnownErrorCode>().not.toEqualTypeOf<string>();

// ------------------------------------------------------------------ what the root does not publish

// @ts-expect-error hey-api's per-operation request shapes are not part of the SDK's surface
export type NoData = sdk.CreateUserData;
// @ts-expect-error nor its error maps
export type NoErrors = sdk.CreateUserErrors;
// @ts-expect-error nor its client options
export type NoClientOptions = sdk.ClientOptions;
// @ts-expect-error verification is server-side: card-issuing-sdk/server
export type NoVerify = typeof sdk.verifySignature;
// @ts-expect-error encryption is server-side: card-issuing-sdk/server
export type NoEncrypt = typeof sdk.encryptCardDetails;
// @ts-expect-error Luhn digits are made by servers: card-issuing-sdk/server
export type NoLuhn = typeof sdk.luhnCheckDigit;

// ------------------------------------------------------------------ the schemas the operation table names exist

type NamedSchema = OperationRow['schemas'][keyof OperationRow['schemas']];
expectTypeOf<NamedSchema>().toExtend<keyof typeof schemas>();

// @ts-expect-error the zod schemas are card-issuing-sdk/schemas: the root loads no zod up front
export type NoSchemas = typeof sdk.schemas;
// @ts-expect-error errorFromResponse reads with zod at once: card-issuing-sdk/schemas
export type NoErrorFromResponse = typeof sdk.errorFromResponse;
