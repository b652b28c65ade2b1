/**
 * card-issuing-sdk: the root entry, what an integrator needs. A signed, typed, retrying client for the
 * card-issuing, deposits and corporate cards API; its typed errors; request signing; card-detail key pairs and
 * decryption; flow helpers; and the spec's domain types (generated from `spec/openapi.yaml`). Runs in Node 22+ and
 * in browsers (no Node-only import). Server-side helpers (signature verification, card-detail encryption, Luhn)
 * are in `card-issuing-sdk/server`.
 *
 * @example
 * ```ts
 * import { createCardIssuingClient, NotFoundError } from 'card-issuing-sdk';
 * const client = createCardIssuingClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'test_key', apiSecret: 'test_secret' });
 * ```
 * @module card-issuing-sdk
 */

export { createCardIssuingClient, type CardIssuingClient } from './client';
export type { AppApi, CorporatesApi, ResourceMethods, S2sApi } from './resources';
export type { EncryptedDetailsRequestOptions } from './card-details/relay';
export type { HeadersInit } from './core/headers';
export type { Logger, LogLevel } from './core/logger';
export type {
  CardDetailsRequestOptions,
  CardIssuingClientOptions,
  ClientHooks,
  ClockSkewEvent,
  ListOptions,
  RawRequest,
  RequestEvent,
  ResponseValidation,
  RequestOptions,
  ResponseEvent,
  RetryConfig,
  RetryEvent,
  ValidationWarningEvent,
} from './options';
export { ApiPromise, type ApiResponse } from './core/api-promise';
export {
  PagePromise,
  type Page,
  type PageBody,
  type PageItem,
  type PageNavigation,
  type PageParams,
} from './core/pagination';

export {
  CardIssuingError,
  type CardIssuingErrorInit,
  type CardIssuingErrorJSON,
  type ClientErrorCode,
  type ErrorCode,
  type KnownErrorCode,
  type FieldError,
  type FlowErrorCode,
} from './core/errors/base';
export {
  AuthenticationError,
  BusinessRuleError,
  CardDetailsDecryptionError,
  CardDetailsError,
  CardDetailsInvalidError,
  ConflictError,
  DeadlineExceededError,
  isCardIssuingError,
  NetworkError,
  NotFoundError,
  PrivateKeyInvalidError,
  PublicKeyInvalidError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
  type CardIssuingErrorOf,
  type ResourceStatus,
} from './core/errors/classes';
export { FlowError, type FlowName } from './core/errors/flow-error';

export {
  createSigner,
  type SignedRequest,
  type Signer,
  type SignerOptions,
  type SignRequestInput,
  signRequest,
} from './signing/sign';
export type { SignableBody } from './signing/string-to-sign';
export type { SecretEncoding } from './signing/hmac-key';

export {
  cardKeyBits,
  decryptCardDetails,
  exportPublicKey,
  generateCardKeyPair,
  importPrivateKey,
} from './card-details/lazy';
export {
  CARD_KEY_BITS,
  MIN_RSA_BITS,
  type CardKeyPair,
  type CardPrivateKey,
  type CardPrivateKeyInput,
  type CardPublicKey,
  type GenerateCardKeyPairOptions,
  type RsaPrivateKey,
  type RsaPublicKey,
} from './card-details/types';

export {
  approveDeposit,
  depositAddress,
  issueCard,
  registerUser,
  type AcceptConsents,
  type ApproveDepositOptions,
  type ApproveDepositResult,
  type DepositAddressOptions,
  type DepositAddressResult,
  type DepositArea,
  type FlowOptions,
  type FlowStep,
  type FlowStepStatus,
  type IssueCardOptions,
  type IssueCardResult,
  type RegisterUserOptions,
} from './flows/index';

/** The spec's domain types (`components.schemas`), generated from `spec/openapi.yaml`. */
export type {
  Approval,
  ApprovalChange,
  ApprovalCreate,
  ApprovalList,
  ApprovalStatus,
  ApprovalStatusReason,
  Balance,
  BalanceList,
  BudgetIncrease,
  BusinessUser,
  BusinessUserCreate,
  Card,
  CardConfig,
  CardConfigList,
  CardCreate,
  CardDetails,
  CardList,
  CardOrDraft,
  CardStatus,
  CardType,
  Consent,
  CorporateDepositAddress,
  CorporateDepositAddressList,
  CryptoAmount,
  CryptoNetwork,
  CurrencyCode,
  DepositAddress,
  DepositAddressList,
  DepositOptions,
  DepositType,
  DepositTypeCode,
  DepositTypeList,
  DepositVerification,
  DepositVerificationList,
  Draft,
  EmailConfirmation,
  EmailOtpChallenge,
  EncryptedCardDetails,
  Money,
  PageCursor,
  Problem,
  ProblemCode,
  Reapproval,
  RegistrationData,
  Timestamp,
  TopUp,
  TopUpList,
  User,
  Uuid,
  VerificationData,
  Visual,
} from '../generated/types.gen';

// The spec's zod schemas and errorFromResponse are `card-issuing-sdk/schemas`: nothing the root imports loads zod.
