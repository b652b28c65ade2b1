/**
 * The client's methods, from generated code made from the spec's operations: the `Resources` type
 * (`sdk/generated/resources.gen.ts`) becomes the method signatures, the one operation table (`operations` in
 * `sdk/generated/operations.gen.ts`: each operation's HTTP method, path template and client method) the wiring.
 * No operation, path or HTTP method is written here: an operation added to the spec has its typed method after
 * `npm run generate`.
 * @module
 */
import type { CardDetails } from '../generated/types.gen';
import { operations } from '../generated/operations.gen';
import type { Resources } from '../generated/resources.gen';
import type { CardDetailsRequestOptions, ListOptions, RequestOptions } from './options';
import { ApiPromise, type ApiResponse } from './core/api-promise';
import { PagePromise, toPage, type PageBody, type PageParams } from './core/pagination';
import type { Run } from './core/engine';
import { loadOnce } from './load-once';
import type { CallParts } from './core/wire';
import type { EncryptedDetailsRequestOptions } from './card-details/relay';

/** One method's signature, from its generated descriptor: positional arguments, then the call's options. */
export type MethodOf<D> = D extends {
  kind: 'list';
  args: infer A extends unknown[];
  response: infer R extends PageBody;
}
  ? (...args: [...A, options?: ListOptions]) => PagePromise<R>
  : D extends { kind: 'cardDetails'; args: infer A extends unknown[] }
    ? (...args: [...A, options: CardDetailsRequestOptions]) => ApiPromise<CardDetails>
    : D extends { kind: 'call'; args: infer A extends unknown[]; response: infer R }
      ? (...args: [...A, options?: RequestOptions]) => ApiPromise<R>
      : never;

/** The name of a card-details method's relaying twin: `getDetails` → `getEncryptedDetails`. */
type EncryptedName<M> = M extends `get${infer Rest}` ? `getEncrypted${Rest}` : never;

/** Beside every card-details method, its twin that returns the JWE as the service sent it, never decrypted. */
type EncryptedMethodsOf<R> = {
  [M in keyof R as R[M] extends { kind: 'cardDetails' } ? EncryptedName<M> : never]: R[M] extends {
    args: infer A extends unknown[];
  }
    ? (...args: [...A, options: EncryptedDetailsRequestOptions]) => ApiPromise<string>
    : never;
};

/** The methods of one area, resource by resource. */
export type AreaOf<A> = { [R in keyof A]: { [M in keyof A[R]]: MethodOf<A[R][M]> } & EncryptedMethodsOf<A[R]> };

/** The Server2Server area (`/s2s`): the application acts for an end user. */
export type S2sApi = AreaOf<Resources['s2s']>;
/** The Wallet App area (`/app`): the deposit flow of a wallet app for its user. */
export type AppApi = AreaOf<Resources['app']>;
/** The Business cards area (`/corporates`): approvals allocate corporate budget to cards of business users. */
export type CorporatesApi = AreaOf<Resources['corporates']>;

/** Every operation of the spec, grouped by area and resource (the client adds `request()` and `clockOffsetMs`). */
export type ResourceMethods = { [A in keyof Resources]: AreaOf<Resources[A]> };

/** One method: its operation (operationId, HTTP method, path template), name, kind and where its arguments go. */
type Row = (typeof operations)[keyof typeof operations] & { operationId: keyof typeof operations };
type Parts = CallParts;

/** Where a call's positional arguments go, by the row's `args` (`path.userId`, `query.userUuid`, `body`, `query`). */
function partsOf(row: Row, args: readonly unknown[]): Parts {
  const parts: Parts = {};
  row.args.forEach((arg: string, i: number) => {
    const value = args[i];
    if (arg === 'body') parts.body = value;
    else if (arg === 'query') {
      // The optional query object: only the members given (an absent member is never sent as "undefined").
      for (const [key, member] of Object.entries((value ?? {}) as Record<string, unknown>)) {
        if (member === undefined) continue;
        parts.query ??= {};
        parts.query[key] = member;
      }
    } else {
      const [where, key] = arg.split('.') as ['path' | 'query', string];
      const members = parts[where] ?? {};
      members[key] = value;
      parts[where] = members;
    }
  });
  return parts;
}

// The card-details code is loaded on first use: a page that never reads card details never loads its crypto.
const loadDecrypt = loadOnce(() => import('./card-details/decrypt'));
const loadKeys = loadOnce(() => import('./card-details/keys'));
// The relay's check of a JWE, on the first relayed details (their response has arrived: the call's own errors are
// made before it loads).
const loadRelay = loadOnce(() => import('./card-details/relay'));

/** The methods of a client over its engine, one per operation of the generated table. */
export function buildResources(run: Run): ResourceMethods {
  const method = (row: Row) => {
    const arity = row.args.length;
    if (row.kind === 'list') {
      return (...args: unknown[]) => {
        const { limit, cursor, ...callOptions } = (args[arity] ?? {}) as ListOptions;
        const parts = partsOf(row, args);
        // Each next page is fetched by the same call with the page's `nextCursor`.
        const fetchPage = (after: string | undefined): PagePromise<PageBody> => {
          const page: PageParams = {
            ...(limit === undefined ? {} : { limit }),
            ...(after === undefined ? {} : { cursor: after }),
          };
          const response = run<PageBody>(row, callOptions, { ...parts, query: { ...parts.query, ...page } });
          return new PagePromise(response.then((r) => ({ ...r, data: toPage(r.data, fetchPage) })));
        };
        return fetchPage(cursor);
      };
    }
    if (row.kind === 'cardDetails') {
      return (...args: unknown[]) => {
        const { keyPair, ...callOptions } = args[arity] as CardDetailsRequestOptions;
        const parts = partsOf(row, args);
        const response = (async (): Promise<ApiResponse<CardDetails>> => {
          const [{ decryptCardDetails }, { exportPublicKey }] = await Promise.all([loadDecrypt(), loadKeys()]);
          const publicKey = await exportPublicKey(keyPair);
          const r = await run<{ encryptedDetails: string }>(row, callOptions, {
            ...parts,
            query: { ...parts.query, publicKey },
          });
          return { ...r, data: await decryptCardDetails(r.data.encryptedDetails, keyPair) };
        })();
        return new ApiPromise(response);
      };
    }
    return (...args: unknown[]) => new ApiPromise(run(row, (args[arity] ?? {}) as RequestOptions, partsOf(row, args)));
  };

  // `getEncryptedDetails`: the public key as given, the JWE as received (checked, never decrypted).
  const encryptedMethod =
    (row: Row) =>
    (...args: unknown[]): ApiPromise<string> => {
      const arity = row.args.length;
      const { publicKey, ...callOptions } = (args[arity] ?? {}) as EncryptedDetailsRequestOptions;
      const parts = partsOf(row, args);
      const response = run<{ encryptedDetails: string }>(row, callOptions, {
        ...parts,
        query: { ...parts.query, publicKey },
      });
      return new ApiPromise(response.then(async (r) => (await loadRelay()).relayedJwe(row.operationId, r)));
    };

  const client: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const operationId in operations) {
    const row = { operationId, ...operations[operationId as keyof typeof operations] } as Row;
    const [area, resource, name] = row.name.split('.') as [string, string, string];
    client[area] ??= {};
    client[area][resource] ??= {};
    const resourceMethods = client[area][resource];
    resourceMethods[name] = method(row);
    if (row.kind === 'cardDetails') resourceMethods[name.replace(/^get/, 'getEncrypted')] = encryptedMethod(row);
  }
  return client as unknown as ResourceMethods;
}
