import { describe, expect, it } from 'vitest';
import { operations } from '../../mock-server/src/pipeline/operations';
import { specOperations } from '../helpers/spec';

// The mock's operation table names each operation's method, path and success status for its router; the spec
// is the source of those facts, so the table must equal it, entry for entry.
describe('the mock serves exactly the spec operations', () => {
  it('with the spec method, path and success status for every operationId', () => {
    const fromSpec = specOperations().map(({ operationId, method, path, operation }) => ({
      operationId,
      method,
      path,
      status: Number(Object.keys(operation.responses).find((s) => s.startsWith('2'))),
    }));
    const fromMock = operations.map(({ operationId, method, path, status }) => ({ operationId, method, path, status }));
    const byId = (a: { operationId: string }, b: { operationId: string }) => a.operationId.localeCompare(b.operationId);
    expect(fromMock.sort(byId)).toEqual(fromSpec.sort(byId));
  });
});
