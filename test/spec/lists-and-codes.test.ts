/**
 * Two facts the spec states once for every operation: every list pages the same way (`limit` and `cursor` in,
 * `hasMore` and `nextCursor` out, the order stated), and every problem code is one of the closed `ProblemCode` enum
 * with the one status it comes with.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec, specOperations } from '../helpers/spec';

const spec = loadSpec() as unknown as {
  components: {
    schemas: Record<
      string,
      {
        required?: string[];
        properties?: Record<string, unknown>;
        enum?: string[];
        'x-enumDescriptions'?: Record<string, string>;
      }
    >;
  };
};
const operations = specOperations();
const refName = (p: { $ref?: string; name?: string }) => (p.$ref ? p.$ref.split('/').pop() : p.name);

describe('lists', () => {
  const lists = operations.filter(({ operation }) => {
    const schema = (
      operation.responses['200'] as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined
    )?.content?.['application/json']?.schema;
    const name = schema?.$ref?.split('/').pop();
    return name !== undefined && 'items' in (spec.components.schemas[name]?.properties ?? {});
  });

  it('are the 12 list operations, each a GET', () => {
    expect(lists.map((o) => o.operationId).sort()).toEqual([
      'listAppDepositAddresses',
      'listAppDepositTypes',
      'listAppDepositVerifications',
      'listBalances',
      'listCardConfigs',
      'listCards',
      'listCorporateDepositAddresses',
      'listDepositAddresses',
      'listDepositTypes',
      'listDepositVerifications',
      'listTopUps',
      'listUserApprovals',
    ]);
    for (const { method, operationId } of lists) expect(method.toUpperCase(), operationId).toBe('GET');
  });

  it('each takes limit and cursor, answers items, hasMore and nextCursor, and states its order', () => {
    for (const { operationId, operation } of lists) {
      const names = (operation.parameters ?? []).map(refName);
      expect(names, operationId).toEqual(expect.arrayContaining(['Limit', 'Cursor']));
      const ref = (operation.responses['200'] as { content: Record<string, { schema: { $ref: string } }> }).content[
        'application/json'
      ]!.schema.$ref;
      const schema = spec.components.schemas[ref.split('/').pop()!]!;
      expect(schema.required, operationId).toEqual(expect.arrayContaining(['items', 'hasMore', 'nextCursor']));
      expect(
        `${(operation as { description?: string }).description ?? ''} ${operation.summary}`.replace(/\s+/g, ' '),
        `${operationId} states its order`,
      ).toMatch(/oldest first|catalogue's order/);
    }
  });

  it('and no other operation takes limit or cursor', () => {
    for (const { operationId, operation } of operations.filter((o) => !lists.includes(o))) {
      expect((operation.parameters ?? []).map(refName), operationId).not.toEqual(expect.arrayContaining(['Limit']));
    }
  });
});

describe('problem codes', () => {
  const codes = spec.components.schemas.ProblemCode!;

  it('are a closed enum of upper-snake codes, each described with the status it comes with', () => {
    expect(codes.enum!.length).toBeGreaterThan(40);
    expect(new Set(codes.enum).size).toBe(codes.enum!.length);
    for (const code of codes.enum!) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(codes['x-enumDescriptions']?.[code], code).toMatch(/^(\d{3}|4xx\/5xx) \S/);
    }
    expect(Object.keys(codes['x-enumDescriptions']!).sort()).toEqual([...codes.enum!].sort());
  });

  it('type Problem.code', () => {
    expect(spec.components.schemas.Problem!.properties!.code).toEqual({ $ref: '#/components/schemas/ProblemCode' });
  });
});
