/**
 * card-issuing-sdk: the root entry. A signed, typed, retrying client for the card-issuing, deposits and corporate
 * cards API; its typed errors; request signing; card-detail key pairs; flow helpers; and the spec's types and zod
 * schemas (generated from `spec/openapi.yaml`). Runs in Node 22+ and in browsers (no Node-only import).
 *
 * @example
 * ```ts
 * import { createCardIssuingClient, NotFoundError } from 'card-issuing-sdk';
 * const client = createCardIssuingClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'test_key', apiSecret: 'test_secret' });
 * ```
 * @packageDocumentation
 */

export {
  ApiPromise,
  PagePromise,
  createCardIssuingClient,
  type ApiResponse,
  type AppApi,
  type CardDetailsRequestOptions,
  type CardIssuingClient,
  type CardIssuingClientOptions,
  type ClientHooks,
  type CorporatesApi,
  type ListOptions,
  type RequestEvent,
  type RequestOptions,
  type ResponseEvent,
  type RetryConfig,
  type RetryEvent,
  type S2sApi,
} from './client';

export type { FetchPage, Page, PageBody, PageItem, PageNavigation, PageParams } from './pagination';

export {
  AuthenticationError,
  BusinessRuleError,
  CardDetailsDecryptionError,
  CardDetailsError,
  CardDetailsInvalidError,
  CardIssuingError,
  ConflictError,
  FlowError,
  NetworkError,
  NotFoundError,
  PrivateKeyInvalidError,
  PublicKeyInvalidError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
  errorFromResponse,
  isCardIssuingError,
  parseRetryAfter,
  type CardIssuingErrorInit,
  type CardIssuingErrorJSON,
  type ClientErrorCode,
  type ErrorCode,
  type FlowErrorCode,
  type ErrorResponseInput,
  type FieldError,
  type FlowName,
} from './errors';

export {
  NonceCache,
  SIGNATURE_TOLERANCE_SECONDS,
  buildStringToSign,
  createNonce,
  createSigner,
  parseAuthorization,
  signRequest,
  verifySignature,
  type SecretEncoding,
  type SignableBody,
  type SignatureErrorCode,
  type SignedRequest,
  type SignRequestInput,
  type Signer,
  type SignerOptions,
  type VerifySignatureInput,
  type VerifySignatureResult,
} from './signing';

export {
  CARD_DETAILS_JWE_HEADER,
  CARD_KEY_BITS,
  MIN_RSA_BITS,
  cardKeyBits,
  decryptCardDetails,
  encryptCardDetails,
  exportPublicKey,
  generateCardKeyPair,
  importPrivateKey,
  importPublicKey,
  isLuhnValid,
  luhnCheckDigit,
  type CardKeyPair,
  type CardPrivateKey,
  type CardPrivateKeyInput,
  type CardPublicKey,
  type CardPublicKeyInput,
  type GenerateCardKeyPairOptions,
  type RsaPrivateKey,
  type RsaPublicKey,
} from './card-details';

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
} from './flows';

/** Every type of the spec (User, Card, Draft, Approval, Problem, ...), generated from `spec/openapi.yaml`. */
export type * from '../generated/types.gen';

/**
 * The spec's zod schemas (`schemas.zUser`, `schemas.zCardDetails`, `schemas.zProblem`, ...), generated from
 * `spec/openapi.yaml`: the same the client validates responses with.
 */
export * as schemas from '../generated/zod.gen';
