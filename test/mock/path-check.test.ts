import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { operations } from '../../mock-server/src/pipeline/operations';
import { pathPasses } from '../../mock-server/src/pipeline/validation';

const UUID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const candidates = [
  UUID,
  UUID.toUpperCase(),
  `${UUID}0`,
  UUID.replace('4c6a', '1c6a'),
  '',
  'x',
  'CRYPTO',
  'BANK_TRANSFER',
  'crypto',
  '../etc',
  '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d0\u0661',
];

describe('the compiled path check', () => {
  const withPath = operations.filter((o) => o.schemas.path);

  it('covers the path parameters of every operation that has them', () => {
    expect(withPath.length).toBeGreaterThan(20);
    const schema = (o: (typeof withPath)[number]) => o.schemas.path as z.core.$ZodObject;
    for (const o of withPath) {
      const valid = Object.fromEntries(
        Object.entries(schema(o)._zod.def.shape).map(([name, field]) => {
          const value = candidates.find((c) => z.safeParse(field, c).success);
          return [name, value];
        }),
      ) as Record<string, string>;
      expect(pathPasses(o.schemas.path!, valid), o.operationId).toBe(true);
    }
  });

  it('passes exactly what zod passes, never more', () => {
    for (const o of withPath) {
      const names = Object.keys((o.schemas.path as z.core.$ZodObject)._zod.def.shape);
      for (const value of candidates) {
        const params = Object.fromEntries(names.map((name) => [name, value]));
        const zod = z.safeParse(o.schemas.path!, params);
        expect(pathPasses(o.schemas.path!, params), `${o.operationId} ${value}`).toBe(zod.success);
        if (zod.success) expect(zod.data).toEqual(params);
      }
    }
  });
});
