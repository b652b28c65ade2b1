/**
 * The public surface, pinned: every name the root entry and `card-issuing-sdk/server` export (values and types, read
 * by the TypeScript compiler from the sources the package is built from), so that a name added or dropped is a
 * decision made here and in CHANGELOG.md, not an accident. The shapes behind the names are pinned by
 * surface.test-d.ts (checked by `npm run typecheck`).
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { operationTable } from '../../sdk/src/server';
import { loadSpec, repoPath } from '../helpers/spec';

const ROOT_VALUES = [
  'ApiPromise',
  'AuthenticationError',
  'BusinessRuleError',
  'CARD_KEY_BITS',
  'CardDetailsDecryptionError',
  'CardDetailsError',
  'CardDetailsInvalidError',
  'CardIssuingError',
  'ConflictError',
  'DeadlineExceededError',
  'FlowError',
  'MIN_RSA_BITS',
  'NetworkError',
  'NotFoundError',
  'PagePromise',
  'PrivateKeyInvalidError',
  'PublicKeyInvalidError',
  'RateLimitError',
  'RedirectError',
  'ResponseTooLargeError',
  'ResponseValidationError',
  'ServerError',
  'TimeoutError',
  'ValidationError',
  'approveDeposit',
  'cardKeyBits',
  'createCardIssuingClient',
  'createSigner',
  'decryptCardDetails',
  'depositAddress',
  'exportPublicKey',
  'generateCardKeyPair',
  'importPrivateKey',
  'isCardIssuingError',
  'issueCard',
  'registerUser',
  'signRequest',
];
/** The SDK's own types (the spec's domain types are checked against components.schemas below). */
const ROOT_TYPES = [
  'AcceptConsents',
  'ApiResponse',
  'AppApi',
  'ApproveDepositOptions',
  'ApproveDepositResult',
  'CardDetailsRequestOptions',
  'CardIssuingClient',
  'CardIssuingClientOptions',
  'CardIssuingErrorInit',
  'CardIssuingErrorJSON',
  'CardIssuingErrorOf',
  'EncryptedDetailsRequestOptions',
  'CardKeyPair',
  'CardPrivateKey',
  'CardPrivateKeyInput',
  'CardPublicKey',
  'ClientErrorCode',
  'ClientHooks',
  'ClockSkewEvent',
  'CorporatesApi',
  'DepositAddressOptions',
  'DepositAddressResult',
  'DepositArea',
  'ErrorCode',
  'FieldError',
  'FlowErrorCode',
  'FlowName',
  'FlowOptions',
  'FlowStep',
  'FlowStepStatus',
  'GenerateCardKeyPairOptions',
  'HeadersInit',
  'IssueCardOptions',
  'IssueCardResult',
  'KnownErrorCode',
  'ListOptions',
  'LogLevel',
  'Logger',
  'Page',
  'PageBody',
  'PageItem',
  'PageNavigation',
  'PageParams',
  'RawRequest',
  'RegisterUserOptions',
  'RequestEvent',
  'RequestOptions',
  'ResourceMethods',
  'ResourceStatus',
  'ResponseEvent',
  'ResponseValidation',
  'RetryConfig',
  'RetryEvent',
  'RsaPrivateKey',
  'RsaPublicKey',
  'S2sApi',
  'SecretEncoding',
  'SignRequestInput',
  'SignableBody',
  'SignedRequest',
  'Signer',
  'SignerOptions',
  'ValidationWarningEvent',
];
/** card-issuing-sdk/schemas: the zod schemas (as `schemas` and each by name) and errorFromResponse, which reads with them. */
const SCHEMAS_VALUES = ['errorFromResponse', 'schemas'];
const SERVER_VALUES = [
  'CARD_DETAILS_JWE_HEADER',
  'NonceCache',
  'SIGNATURE_TOLERANCE_SECONDS',
  'buildStringToSign',
  'createNonce',
  'createRequestGuard',
  'createSignatureVerifier',
  'encryptCardDetails',
  'importPublicKey',
  'isBase64Secret',
  'isLuhnValid',
  'luhnCheckDigit',
  'operationTable',
  'parseAuthorization',
  'problemStatus',
  'verifySignature',
];
const SERVER_TYPES = [
  'AuthorizationParts',
  'CardPublicKeyInput',
  'GuardRefusal',
  'NonceCacheOptions',
  'OperationId',
  'OperationRow',
  'RequestGuard',
  'RequestGuardOptions',
  'SecretEncoding',
  'SignableBody',
  'SignatureErrorCode',
  'SignatureVerifier',
  'SignatureVerifierOptions',
  'SignedRequestInput',
  'VerifySignatureInput',
  'VerifySignatureResult',
];

/** Every export of each entry, as the compiler sees it: name and whether it is a value. */
function exportsOf(...entries: string[]): Record<string, { name: string; value: boolean }[]> {
  const { config } = ts.readConfigFile(repoPath('tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repoPath('.'));
  const program = ts.createProgram(entries.map(repoPath), { ...options, noEmit: true, incremental: false });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    entries.map((entry) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(repoPath(entry))!)!;
      const names = checker.getExportsOfModule(module).map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return {
          name: symbol.name,
          value: (target.flags & ts.SymbolFlags.Value) !== 0 && !(symbol.flags & ts.SymbolFlags.TypeAlias),
        };
      });
      return [entry, names.sort((a, b) => a.name.localeCompare(b.name))];
    }),
  );
}

describe('the public surface', () => {
  const entries = exportsOf('sdk/src/index.ts', 'sdk/src/server.ts', 'sdk/src/schemas.ts', 'sdk/src/reveal/index.ts');
  const values = (entry: string) => entries[entry]!.filter((e) => e.value).map((e) => e.name);
  const types = (entry: string) => entries[entry]!.filter((e) => !e.value).map((e) => e.name);
  const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

  it('the root exports the client, errors, signing, card key pairs and decryption and flows; no zod', async () => {
    expect(values('sdk/src/index.ts')).toEqual(sorted(ROOT_VALUES));
    // The built module has exactly those values (a type-only name has no runtime export).
    expect(Object.keys(await import('../../sdk/src/index')).sort((a, b) => a.localeCompare(b))).toEqual(
      sorted(ROOT_VALUES),
    );
  });

  it("the root's types are the SDK's own and the spec's domain types by name: no hey-api *Data, *Errors or ClientOptions", () => {
    const domain = Object.keys(loadSpec().components.schemas);
    expect(sorted(types('sdk/src/index.ts'))).toEqual(sorted([...ROOT_TYPES, ...domain]));
    // The negative control of the list above: hey-api's per-operation shapes are not ours to publish.
    const heyApi = new Set([
      'ClientOptions',
      ...operationTable.flatMap(({ operationId }) =>
        ['Data', 'Error', 'Errors', 'Response', 'Responses'].map(
          (suffix) => `${operationId[0]!.toUpperCase()}${operationId.slice(1)}${suffix}`,
        ),
      ),
    ]);
    expect(types('sdk/src/index.ts').filter((name) => heyApi.has(name))).toEqual([]);
  });

  it('/server exports what a server needs: the operation table, verification, encryption, Luhn', async () => {
    expect(values('sdk/src/server.ts')).toEqual(sorted(SERVER_VALUES));
    expect(types('sdk/src/server.ts')).toEqual(sorted(SERVER_TYPES));
    expect(Object.keys(await import('../../sdk/src/server')).sort((a, b) => a.localeCompare(b))).toEqual(
      sorted(SERVER_VALUES),
    );
  });

  it('/schemas exports the zod schemas, each by name and as `schemas`, and errorFromResponse', async () => {
    const named = values('sdk/src/schemas.ts').filter((name) => !SCHEMAS_VALUES.includes(name));
    expect(named.length).toBeGreaterThan(50);
    expect(named.every((name) => /^z[A-Z]/.test(name))).toBe(true);
    expect(values('sdk/src/schemas.ts')).toEqual(expect.arrayContaining(SCHEMAS_VALUES));
    const module = await import('../../sdk/src/schemas');
    expect(Object.keys(module.schemas).sort()).toEqual(named);
  });

  it('/reveal exports the browser reveal: the frame mount, the key and decryption, the typed messages', async () => {
    const REVEAL_VALUES = [
      'REVEAL_FIELDS',
      'createRevealKey',
      'isRevealFrameMessage',
      'isRevealHostMessage',
      'mountCardReveal',
      'revealCardDetails',
    ];
    expect(values('sdk/src/reveal/index.ts')).toEqual(sorted(REVEAL_VALUES));
    expect(types('sdk/src/reveal/index.ts')).toEqual(
      sorted([
        'CardDetails',
        'CardReveal',
        'MountCardRevealOptions',
        'RevealField',
        'RevealFrameMessage',
        'RevealHostMessage',
        'RevealKey',
        'RevealRequestMessage',
        'RevealStyle',
      ]),
    );
    expect(Object.keys(await import('../../sdk/src/reveal/index')).sort((a, b) => a.localeCompare(b))).toEqual(
      sorted(REVEAL_VALUES),
    );
    // The reveal is the screen's side: nothing of the client, signing or the server on it.
    const root = new Set([...values('sdk/src/index.ts'), ...values('sdk/src/server.ts')]);
    expect(REVEAL_VALUES.filter((name) => root.has(name))).toEqual([]);
  });

  it('no server-side helper is on the root', () => {
    const root = new Set(values('sdk/src/index.ts'));
    expect(SERVER_VALUES.filter((name) => root.has(name))).toEqual([]);
  });
});
