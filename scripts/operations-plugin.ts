/**
 * A hey-api plugin that writes `sdk/generated/operations.gen.ts`, the one table of the spec's operations:
 *
 * - `operations`: every operation by operationId, with its HTTP method and path template and the client's method
 *   for it (its name from `names`, its kind and where each positional argument goes, by the rules of
 *   scripts/resources-plugin.ts). The SDK's client wires every method from it; resources-plugin.ts writes the
 *   methods' types for the same names (test/spec/operation-table.test-d.ts holds the two together).
 * - `operationTable`: the same operations as a server routes by them: operationId, the method and path read from
 *   `operations` (not restated), success status and the names of the zod schemas the zod plugin makes for their
 *   parts. The mock's router and `card-issuing-sdk/server` read it. It is marked pure, so that a page that only
 *   calls the API (the client reads `operations`) drops it, and its statuses and schema names, from its bundle.
 * @module
 */
import { $, definePluginConfig, type DefinePlugin, type IR, TsDsl } from '@hey-api/openapi-ts';
import ts from 'typescript';
import { clientMethods, type MethodNames } from './resources-plugin';

type UserConfig = {
  readonly name: 'operations';
  /** operationId → `area.resource.method`: the client's name of each operation. */
  readonly names: MethodNames;
};
type Config = UserConfig & { readonly output: 'operations'; readonly includeInEntry: boolean };
type OperationsPlugin = DefinePlugin<UserConfig, Config>;

interface Row {
  operationId: string;
  method: string;
  path: string;
  status: number;
  schemas: Record<string, string>;
}

/** The zod plugin's name for a part of an operation: `z` + PascalCase operationId + part. */
function zodName(operationId: string, part: string): string {
  return `z${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}${part}`;
}

/** An expression marked `/* @__PURE__ *\/` (a call bundlers may drop when its value is unused). */
class PureTsDsl extends TsDsl<ts.Expression> {
  readonly '~dsl' = 'PureTsDsl';
  constructor(private readonly inner: TsDsl<ts.Expression>) {
    super();
  }
  override analyze(ctx: Parameters<TsDsl['analyze']>[0]): void {
    super.analyze(ctx);
    ctx.analyze(this.inner);
  }
  override toAst(): ts.Expression {
    const node = this.$node(this.inner) as ts.Expression;
    return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, ' @__PURE__ ', false);
  }
}

/** One row of the spec's operations: its success status (the first 2xx) and its schemas' names. */
function rowOf(operation: IR.OperationObject): Row {
  const id = operation.id;
  const success = Object.keys(operation.responses ?? {})
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  if (success === undefined) throw new Error(`Operation ${id} has no 2xx response.`);
  const has = (where: 'path' | 'query' | 'header') => Object.keys(operation.parameters?.[where] ?? {}).length > 0;
  const schemas: Record<string, string> = {};
  if (has('path')) schemas.path = zodName(id, 'Path');
  if (has('query')) schemas.query = zodName(id, 'Query');
  if (has('header')) schemas.headers = zodName(id, 'Headers');
  if (operation.body) schemas.body = zodName(id, 'Body');
  schemas.response = zodName(id, 'Response');
  return {
    operationId: id,
    method: operation.method.toUpperCase(),
    path: operation.path,
    status: Number(success),
    schemas,
  };
}

const handler: OperationsPlugin['Handler'] = ({ plugin }) => {
  const operations: IR.OperationObject[] = [];
  plugin.forEach('operation', ({ operation }) => {
    operations.push(operation);
  });
  const rows = operations.map(rowOf).sort((a, b) => a.operationId.localeCompare(b.operationId));
  const client = new Map(clientMethods(operations, plugin.config.names).map((m) => [m.operationId, m]));

  const table = plugin.symbol('operations');
  const entries = rows.map((r) => {
    const { name, kind, args } = client.get(r.operationId)!;
    return [r.operationId, { name, method: r.method, path: r.path, args, kind }] as const;
  });
  plugin.node(
    $.const(table)
      .export()
      .doc([
        'Every operation of the spec by operationId: the client method that calls it (`area.resource.method`), its',
        'HTTP method and path template, where each positional argument goes and the kind of the method.',
      ])
      .assign($($.fromValue(Object.fromEntries(entries), { layout: 'pretty' })).as('const')),
  );

  const serverRows = $.array(
    ...rows.map((r) =>
      $.object()
        .pretty()
        .prop('operationId', $.literal(r.operationId))
        .prop('method', $(table).attr(r.operationId).attr('method'))
        .prop('path', $(table).attr(r.operationId).attr('path'))
        .prop('status', $.literal(r.status))
        .prop('schemas', $.fromValue(r.schemas, { layout: 'pretty' })),
    ),
  ).pretty();
  plugin.node(
    $.const(plugin.symbol('operationTable'))
      .export()
      .doc([
        'Every operation as a server routes by it: operationId, HTTP method and path (from `operations`), success',
        'status and the names of the zod schemas of its parts. Pure: a bundle that does not use it drops it.',
      ])
      .assign(new PureTsDsl($.call($.func().do($.return($(serverRows).as('const')))))),
  );
};

/** The plugin's configuration, for `plugins` in openapi-ts.config.ts. */
export const operationsPlugin = definePluginConfig({
  config: { output: 'operations', includeInEntry: false, names: {} },
  handler,
  name: 'operations',
} as OperationsPlugin['Config']);
