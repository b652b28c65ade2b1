import { fileURLToPath } from 'node:url';
import { defineConfig } from '@hey-api/openapi-ts';
import { operationsPlugin } from './scripts/operations-plugin';
import { problemsPlugin } from './scripts/problems-plugin';
import { resourcesPlugin } from './scripts/resources-plugin';

/**
 * The spec gives every integer its format (OWASP API4). hey-api turns `int64` into a zod `bigint`, but JSON numbers
 * are exact in JavaScript up to 2^53 and every int64 of the spec has a `maximum` below that: such an integer stays a
 * `number` for the SDK and the mock (the spec keeps saying int64 for other languages' clients).
 */
function numbersThatFit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) numbersThatFit(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (
    schema.type === 'integer' &&
    schema.format === 'int64' &&
    typeof schema.maximum === 'number' &&
    schema.maximum <= Number.MAX_SAFE_INTEGER
  ) {
    delete schema.format;
  }
  Object.values(schema).forEach(numbersThatFit);
}

/**
 * The client's name of every operation, `area.resource.method` (`client.s2s.users.create(...)`), as Stainless keeps
 * names in its config beside the spec. An operation missing here still gets a method, named by its path and
 * operationId (see scripts/resources-plugin.ts); a name for an operation the spec lacks fails the generation.
 */
const METHOD_NAMES: Record<string, string> = {
  createUser: 's2s.users.create',
  getUser: 's2s.users.get',
  signUserConsent: 's2s.consents.sign',
  requestEmailOtp: 's2s.email.requestOtp',
  confirmEmail: 's2s.email.confirm',
  listCardConfigs: 's2s.cards.listConfigs',
  createCard: 's2s.cards.create',
  chargeDraft: 's2s.cards.chargeDraft',
  completeDraft: 's2s.cards.completeDraft',
  activateCard: 's2s.cards.activate',
  listCards: 's2s.cards.list',
  getCardDetails: 's2s.cards.getDetails',
  listBalances: 's2s.balances.list',
  listDepositTypes: 's2s.deposits.listTypes',
  listDepositAddresses: 's2s.deposits.listAddresses',
  createDepositAddress: 's2s.deposits.createAddress',
  listDepositVerifications: 's2s.deposits.listVerifications',
  approveDepositVerification: 's2s.deposits.approveVerification',
  listAppDepositTypes: 'app.deposits.listTypes',
  listAppDepositAddresses: 'app.deposits.listAddresses',
  createAppDepositAddress: 'app.deposits.createAddress',
  listAppDepositVerifications: 'app.deposits.listVerifications',
  approveAppDepositVerification: 'app.deposits.approveVerification',
  signAppConsent: 'app.consents.sign',
  createBusinessUser: 'corporates.users.create',
  createApproval: 'corporates.approvals.create',
  getApproval: 'corporates.approvals.get',
  listUserApprovals: 'corporates.approvals.listForUser',
  getApprovalCardDetails: 'corporates.approvals.getDetails',
  increaseApprovalBudget: 'corporates.approvals.increaseBudget',
  listCorporateDepositAddresses: 'corporates.deposits.list',
  listTopUps: 'corporates.topUps.list',
};

const parser = { patch: { input: (spec: unknown) => numbersThatFit(spec) } };

/**
 * `format: uri` is RFC 3986, which allows hosts that WHATWG URL parsing (zod's `z.url()`, `new URL`) refuses, such as
 * a last label of digits (`https://host.example.3`). The SDK must never be stricter than the spec: a URI is checked
 * by its RFC 3986 form (a scheme, then only URI characters and well-formed percent escapes).
 */
const RFC3986_URI = "^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9._~!$&'()*+,;=:@/?#\\[\\]-]|%[0-9A-Fa-f]{2})*$";

/**
 * `format: email` is an RFC 5321 mailbox; zod's `z.email()` refuses local parts with characters such as `!`, `#`, `/` or `~` and top-level
 * labels with digits, which the spec (and Ajv) allow. The SDK checks responses with the dot-atom form instead.
 */
const EMAIL =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$";

const annotatePure = fileURLToPath(new URL('./scripts/annotate-pure.mjs', import.meta.url));
const splitZod = fileURLToPath(new URL('./scripts/split-zod.mjs', import.meta.url));
const compileZod = fileURLToPath(new URL('./scripts/compile-zod.mjs', import.meta.url));

// One command (`npm run generate`) turns spec/openapi.yaml into generated code that is never edited by hand; CI
// regenerates and diffs it (test/spec/generated.test.ts). One folder, sdk/generated/, what the SDK ships: types, the
// one operation table (each operation's path template, from which the client builds its URLs and calls ky itself,
// and the client's method for it), the types of the client's methods, and one set of zod schemas, in zod's smaller build (`zod/mini`: functions instead of methods, so a bundler keeps only what
//   is used; all the schemas of the spec are 13 KiB gzip with it, 31 KiB with classic zod, and the client with
//   validation has to stay small). The request schema of each operation is a named export
//   (`zCreateUserData`), built once, not a `z.object` per call. scripts/split-zod.mjs then writes one module per
//   schema and per operation (sdk/generated/zod/), and zod.gen.ts re-exports them all. The client validates with them
//   itself (sdk/src/core/validation.ts, loaded with import() on the first validated call, and each operation's
//   schemas with import() on its first call), so a client with validation off never loads zod, and one call loads
//   its own operation's schemas only. scripts/compile-zod.mjs then writes each operation's checks as the code zod's
//   compiler makes of its schemas: in a browser the client checks with them, and loads zod and the schemas only when
//   a check refuses (to say what is wrong). The functions on hey-api's ky client (sdk.gen.ts, client/, core/) are generated for the mock's
//   tests and the bench, not for the SDK: nothing under sdk/src imports them, so a page never downloads them. A post-processing
//   step marks every schema constructor `@__PURE__`, so a bundler drops the schemas a page does not use. The mock
//   uses the same schemas (`card-issuing-sdk/schemas`), composing them with zod's functions.
export default defineConfig([
  {
    input: './spec/openapi.yaml',
    output: {
      path: './sdk/generated',
      // `npm run generate` empties sdk/generated first.
      clean: false,
      postProcess: [
        { name: 'annotate-pure', command: process.execPath, args: [annotatePure, '{{path}}/zod.gen.ts'] },
        // One module per schema and one per operation, so a validated call loads its own operation's schemas only.
        { name: 'split-zod', command: process.execPath, args: [splitZod, '{{path}}'] },
        // Each operation's checks, compiled by zod now: a page checks a call without loading zod.
        { name: 'compile-zod', command: process.execPath, args: [compileZod, '{{path}}'] },
      ],
    },
    parser,
    plugins: [
      '@hey-api/client-ky',
      '@hey-api/typescript',
      {
        name: 'zod',
        compatibilityVersion: 'mini',
        // RFC 3339 offsets (`+02:00`) are date-times too; the spec's Timestamp pattern states the rest.
        dates: { offset: true },
        requests: { shouldExtract: true },
        $resolvers: {
          // Formats whose zod check is stricter than the spec's: the spec's own form, as a pattern.
          string: (ctx) => {
            const pattern =
              ctx.schema.format === 'uri' ? RFC3986_URI : ctx.schema.format === 'email' ? EMAIL : undefined;
            if (pattern === undefined) return undefined;
            const own = ctx.nodes.pattern(ctx);
            const checks = [
              ctx.nodes.minLength(ctx),
              ctx.nodes.maxLength(ctx),
              ctx.nodes.pattern({ ...ctx, schema: { ...ctx.schema, pattern } }),
              own,
            ].filter((c) => c !== undefined);
            return ctx.nodes
              .base(ctx)
              .attr('check')
              .call(...checks);
          },
          validator: () => null,
        },
      },
      // For the mock's tests (test/mock/helpers.ts) and the bench's peer: no default client instance (a
      // module-level side effect), no auth plumbing, no validators of their own.
      { name: '@hey-api/sdk', validator: true, client: false, auth: false },
      // operations.gen.ts: the one operation table, each operation's method and path and the client's method for
      // it (named here), for the SDK's client; with success statuses and schema names for the mock's router.
      operationsPlugin({ names: METHOD_NAMES }),
      // resources.gen.ts: the types of the client's methods, for the names of the operation table.
      resourcesPlugin(),
      // problems.gen.ts: each problem code's HTTP status (`x-status`), for the mock's ProblemError and the SDK.
      problemsPlugin(),
    ],
  },
]);
