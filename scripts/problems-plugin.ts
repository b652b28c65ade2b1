/**
 * A hey-api plugin that writes `problems.gen.ts`: the HTTP status of every problem code, from the `x-status` map
 * the spec's `ProblemCode` schema keeps beside its `x-enumDescriptions`, so that the mock gives a problem its status
 * by its code alone and the compiler rejects a code the spec does not have. `null` is the status of a code that has
 * none of its own (an injected fault answers with the status it was injected with).
 *
 * The plugin refuses to generate when the map and the enum disagree, or when a description's leading status (the
 * prose that Redocly renders) differs from the map, so the two cannot drift apart.
 * @module
 */
import { $, definePluginConfig, type DefinePlugin } from '@hey-api/openapi-ts';

type Config = {
  readonly name: 'problems';
  readonly output?: 'problems';
  readonly includeInEntry?: boolean;
  /** Logical files (e.g. `zod`) that re-export the table, for a package entry that re-exports one of them. */
  readonly exportFrom?: readonly string[];
};
type ResolvedConfig = Required<Config>;
type ProblemsPlugin = DefinePlugin<Config, ResolvedConfig>;

interface ProblemCodeSchema {
  enum?: unknown[];
  'x-status'?: Record<string, unknown>;
  'x-enumDescriptions'?: Record<string, unknown>;
}

/** `{ CODE: status | null }` in the enum's order, checked against the enum and the descriptions. */
export function problemStatusTable(schema: ProblemCodeSchema): Record<string, number | null> {
  const codes = (schema.enum ?? []).map(String);
  const statuses = schema['x-status'] ?? {};
  const descriptions = schema['x-enumDescriptions'] ?? {};
  const faults: string[] = [];
  const extra = Object.keys(statuses).filter((code) => !codes.includes(code));
  if (extra.length > 0) faults.push(`x-status names codes the enum does not have: ${extra.join(', ')}`);
  const table: Record<string, number | null> = {};
  for (const code of codes) {
    const status = statuses[code];
    const fault = statusFault(code, status, descriptions[code]);
    if (fault) faults.push(fault);
    else table[code] = status as number | null;
  }
  if (faults.length > 0) throw new Error(`ProblemCode in the spec: ${faults.join('; ')}.`);
  return table;
}

/** What is wrong with a code's `x-status` (not 400-599 or null, or not the status its description starts with). */
function statusFault(code: string, status: unknown, description: unknown): string | undefined {
  if (status === null) return undefined;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
    return `${code}: x-status is ${JSON.stringify(status)}, not a status 400-599 or null`;
  if (!String(description ?? '').startsWith(`${status} `))
    return `${code}: x-enumDescriptions does not start with its x-status ${status}`;
  return undefined;
}

const handler: ProblemsPlugin['Handler'] = ({ plugin }) => {
  const schema = (plugin.context.spec as { components?: { schemas?: Record<string, ProblemCodeSchema> } }).components
    ?.schemas?.ProblemCode;
  if (schema === undefined) throw new Error('The spec has no ProblemCode schema.');
  const table = problemStatusTable(schema);
  const exportFrom = plugin.config.exportFrom;
  const symbol = plugin.symbol(
    'problemStatus',
    exportFrom.length > 0 ? { getExportFromFilePath: () => exportFrom } : {},
  );
  plugin.node(
    $.const(symbol)
      .export()
      .doc([
        "The HTTP status of each problem code (`x-status` of the spec's ProblemCode); null: the status a fault was injected with.",
      ])
      .assign($($.fromValue(table, { layout: 'pretty' })).as('const')),
  );
};

/** The plugin's configuration, for `plugins` in openapi-ts.config.ts. */
export const problemsPlugin = definePluginConfig({
  config: { output: 'problems', includeInEntry: false, exportFrom: [] },
  handler,
  name: 'problems',
} as ProblemsPlugin['Config']);
