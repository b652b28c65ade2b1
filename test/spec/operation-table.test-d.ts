/**
 * One operation table (`operations` in sdk/generated/operations.gen.ts) and the client's types (`Resources` in
 * resources.gen.ts) come from two generator plugins: the compiler holds them together. Every method of `Resources`
 * is one row of the table, of the same kind, and no row is a method the type lacks; the server's rows
 * (`operationTable`) are the table's operations. Checked in `npm run typecheck`.
 */
import { expectTypeOf } from 'vitest';
import type { operations, operationTable } from '../../sdk/generated/operations.gen';
import type { Resources } from '../../sdk/generated/resources.gen';

/** Every method of `Resources` as `area.resource.method:kind`. */
type TypedMethods = {
  [A in keyof Resources]: {
    [R in keyof Resources[A]]: {
      [M in keyof Resources[A][R]]: `${A}.${R & string}.${M & string}:${Resources[A][R][M] extends { kind: infer K extends string } ? K : never}`;
    }[keyof Resources[A][R]];
  }[keyof Resources[A]];
}[keyof Resources];
type Row = (typeof operations)[keyof typeof operations];
/** Every row of the table as `name:kind`. */
type TableMethods = Row extends infer R
  ? R extends { name: infer N extends string; kind: infer K extends string }
    ? `${N}:${K}`
    : never
  : never;

expectTypeOf<TableMethods>().toEqualTypeOf<TypedMethods>();
expectTypeOf<(typeof operationTable)[number]['operationId']>().toEqualTypeOf<keyof typeof operations>();
