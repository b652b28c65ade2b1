/**
 * `card-issuing-sdk/internal`: what the mock (`card-issuing-mock`) needs from the SDK beyond its public API, and
 * nothing that holds shared state or a class anyone checks with `instanceof`: the spec's zod schemas by their
 * generated names (`zUser`, `zProblem`, `zCreateUserBody`, ...) and the operation table (operationId, method, path,
 * success status, schema names) the mock routes by. The schemas are the SDK's own (zod/mini, the one generated
 * set): compose them with zod's functions (`z.optional(zMoney)`), not methods. Documented for the mock's use; not
 * covered by semver for other consumers.
 * @packageDocumentation
 */
export * from '../generated/zod.gen';
export { operationTable } from '../generated/operations.gen';

import type * as zodGen from '../generated/zod.gen';
import type { operationTable } from '../generated/operations.gen';

/** One row of the generated operation table. */
export type OperationRow = (typeof operationTable)[number];
/** Every operationId of the spec. */
export type OperationId = OperationRow['operationId'];
// Compile-time proof that every schema the table names is one the zod plugin generated (a rename breaks the build).
type NamedSchema = { [R in OperationRow as R['operationId']]: R['schemas'][keyof R['schemas']] }[OperationId];
type Holds<T extends true> = T;
/** @internal */
export type EveryNamedSchemaExists = Holds<NamedSchema extends keyof typeof zodGen ? true : false>;
