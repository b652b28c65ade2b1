/**
 * The spec's operation table, generated (`sdk/generated/operations.gen.ts`): what a server routes by.
 * @module
 */
import { operationTable } from '../generated/operations.gen';

export { operationTable };

/** One row of the generated operation table: operationId, method, path, success status, the zod schemas' names. */
export type OperationRow = (typeof operationTable)[number];

/** Every operationId of the spec. */
export type OperationId = OperationRow['operationId'];
