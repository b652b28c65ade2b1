/**
 * A hey-api plugin that writes `sdk/generated/operations.gen.ts`: the spec's operation table (operationId,
 * method, path, success status and the names of the zod schemas the zod plugin makes for its parts), so that the
 * mock's router and anything else that needs a path or a status reads it from the spec through generation.
 * @module
 */
import { $, definePluginConfig, type DefinePlugin } from '@hey-api/openapi-ts';

type Config = { readonly name: 'operations'; readonly output: 'operations'; readonly includeInEntry: boolean };
type OperationsPlugin = DefinePlugin<Config>;

/** The zod plugin's name for a part of an operation: `z` + PascalCase operationId + part. */
function zodName(operationId: string, part: string): string {
  return `z${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}${part}`;
}

const handler: OperationsPlugin['Handler'] = ({ plugin }) => {
  const rows: Record<string, unknown>[] = [];
  plugin.forEach('operation', (event) => {
    const operation = event.operation;
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
    rows.push({
      operationId: id,
      method: operation.method.toUpperCase(),
      path: operation.path,
      status: Number(success),
      schemas,
    });
  });
  rows.sort((a, b) => String(a.operationId).localeCompare(String(b.operationId)));
  const symbol = plugin.symbol('operationTable');
  plugin.node(
    $.const(symbol)
      .export()
      .assign($($.fromValue(rows, { layout: 'pretty' })).as('const')),
  );
};

/** The plugin's configuration, for `plugins` in openapi-ts.config.ts. */
export const operationsPlugin = definePluginConfig({
  config: { output: 'operations', includeInEntry: false },
  handler,
  name: 'operations',
} as OperationsPlugin['Config']);
