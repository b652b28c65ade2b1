/**
 * A hey-api plugin that writes `sdk/generated/resources.gen.ts`: the SDK's resource layer, from the spec's
 * operations. For every operation it emits a method (`client.s2s.users.create`) as two facts the SDK's client is
 * built from:
 *
 * - `Resources`, a type: area → resource → method, each method a descriptor of its kind (`call`, `list`, or
 *   `cardDetails`), its positional arguments (named, typed from the operation's generated `*Data`), and its
 *   response (the generated `*Response`); `sdk/src/resources.ts` turns each descriptor into a method signature.
 * - `resourceTable`, the same methods as data: the method's name, the operationId, the HTTP method, the path
 *   template, the kind and where each positional argument goes (`path.userId`, `query.userUuid`, `body`, or `query`
 *   for the optional query object). The client wires every method from it and builds each call's URL from the
 *   template; the HTTP method decides retries and idempotency keys.
 *
 * The rules, so that an operation added to the spec gets its method after `npm run generate`:
 * - a list operation has a `cursor` query parameter; a card-details operation a `publicKey` query parameter (the
 *   SDK sends the key pair's public key and decrypts the answer);
 * - positional arguments: required query parameters (the user the call acts for), then path parameters in path
 *   order, then the body; optional query parameters other than `limit` and `cursor` travel as one `query` object;
 * - the method's name comes from the plugin's `names` (operationId → `area.resource.method`), as Stainless keeps
 *   names in its config; an operation without one is named `<first path segment>.<second>.<operationId>`.
 * @module
 */
import { $, definePluginConfig, type DefinePlugin, type IR } from '@hey-api/openapi-ts';

type UserConfig = {
  readonly name: 'resources';
  /** operationId → `area.resource.method`. */
  readonly names: Readonly<Record<string, string>>;
};
type Config = UserConfig & { readonly output: 'resources'; readonly includeInEntry: boolean };
type ResourcesPlugin = DefinePlugin<UserConfig, Config>;

/** Query parameters that are no positional argument: the page (list options) and the card-details key. */
const PAGE_PARAMS = new Set(['limit', 'cursor']);
const KEY_PARAM = 'publicKey';

type Kind = 'call' | 'list' | 'cardDetails';
interface Row {
  name: string;
  operationId: string;
  method: string;
  /** The path template (`/s2s/users/{userId}`): the client builds each call's URL from it. */
  path: string;
  kind: Kind;
  args: string[];
}
interface Parameter {
  name: string;
  required?: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The default name of an operation the config does not name: the first two literal path segments and the id. */
function defaultName(path: string, operationId: string): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  const camel = (s: string) => s.replace(/[-_.]+([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
  return [camel(segments[0] ?? 'api'), camel(segments[1] ?? 'operations'), operationId].join('.');
}

/** What the type of one method is made of: the operation's generated types, its row, its doc and optional query. */
interface MethodTypes {
  data: unknown;
  response: unknown;
  row: Row;
  doc: string[];
  query: Parameter[];
}

const handler: ResourcesPlugin['Handler'] = ({ plugin }) => {
  const names = plugin.config.names;
  const { rows, types } = collectMethods(plugin, names);
  const unknown = Object.keys(names).filter((id) => !rows.some((r) => r.operationId === id));
  if (unknown.length > 0)
    throw new Error(`resources: names for operations the spec does not have: ${unknown.join(', ')}.`);
  rows.sort((a, b) => a.name.localeCompare(b.name));

  const typeSymbol = plugin.symbol('Resources');
  plugin.node(
    $.type
      .alias(typeSymbol)
      .export()
      .doc(['Every method of the client by area and resource: its kind, positional arguments and response.'])
      .type(resourcesType(byAreaAndResource(rows), types)),
  );
  const tableSymbol = plugin.symbol('resourceTable');
  plugin.node(
    $.const(tableSymbol)
      .export()
      .doc([
        'Every method of the client as data: name, operation, HTTP method, path template, kind and where each argument goes.',
      ])
      .assign($($.fromValue(rows, { layout: 'pretty' })).as('const')),
  );
};

/** A row and the type's makings for every operation of the spec, in the spec's order, by method name. */
function collectMethods(
  plugin: ResourcesPlugin['Instance'],
  names: Readonly<Record<string, string>>,
): { rows: Row[]; types: Map<string, MethodTypes> } {
  const rows: Row[] = [];
  const types = new Map<string, MethodTypes>();
  plugin.forEach('operation', ({ operation }) => {
    const id = operation.id;
    const query = Object.values(operation.parameters?.query ?? {}) as Parameter[];
    const optionalQuery = query.filter((p) => !p.required && !PAGE_PARAMS.has(p.name) && p.name !== KEY_PARAM);
    const name = methodName(names[id] ?? defaultName(operation.path, id), id, types);
    const row: Row = {
      name,
      operationId: id,
      method: operation.method.toUpperCase(),
      path: operation.path,
      kind: kindOf(query),
      args: positionalArgs(operation, query, optionalQuery),
    };
    rows.push(row);
    const symbol = (role: 'data' | 'response') =>
      plugin.querySymbol({ category: 'type', resource: 'operation', resourceId: id, role });
    const doc = [`${operation.summary ?? id} (\`${id}\`: ${row.method} ${row.path})`];
    types.set(name, { data: symbol('data'), response: symbol('response'), row, doc, query: optionalQuery });
  });
  return { rows, types };
}

/** The kind of an operation: a list has a `cursor` parameter, card details a `publicKey` one. */
function kindOf(query: Parameter[]): Kind {
  if (query.some((p) => p.name === 'cursor')) return 'list';
  if (query.some((p) => p.name === KEY_PARAM)) return 'cardDetails';
  return 'call';
}

/** Where each positional argument goes: required query parameters, path parameters, the body, the optional query. */
function positionalArgs(operation: IR.OperationObject, query: Parameter[], optionalQuery: Parameter[]): string[] {
  const pathParams = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return [
    ...query.filter((p) => p.required && p.name !== KEY_PARAM).map((p) => `query.${p.name}`),
    ...pathParams.map((p) => `path.${p}`),
    ...(operation.body ? ['body'] : []),
    ...(optionalQuery.length > 0 ? ['query'] : []),
  ];
}

/** The name, checked: `area.resource.method` of identifiers, not taken by another operation already in `taken`. */
function methodName(name: string, operationId: string, taken: ReadonlyMap<string, unknown>): string {
  const parts = name.split('.');
  if (parts.length !== 3 || !parts.every((p) => IDENTIFIER.test(p)))
    throw new Error(`resources: "${name}" (${operationId}) is not area.resource.method.`);
  if (taken.has(name)) throw new Error(`resources: two operations are named ${name}.`);
  return name;
}

/** The method names grouped by area, then resource, in the rows' order. */
function byAreaAndResource(rows: Row[]): Map<string, Map<string, string[]>> {
  const tree = new Map<string, Map<string, string[]>>();
  for (const row of rows) {
    const [area, resource] = row.name.split('.') as [string, string, string];
    const resources = tree.get(area) ?? tree.set(area, new Map()).get(area)!;
    (resources.get(resource) ?? resources.set(resource, []).get(resource)!).push(row.name);
  }
  return tree;
}

/** The type `Resources`: nested objects of descriptors, area → resource → method. */
function resourcesType(tree: Map<string, Map<string, string[]>>, types: Map<string, MethodTypes>) {
  const areaType = $.type.object();
  for (const [area, resources] of tree) {
    const resourceType = $.type.object();
    for (const [resource, methods] of resources) {
      const methodType = $.type.object();
      for (const name of methods) {
        const method = types.get(name)!;
        methodType.prop(name.split('.')[2]!, (p) => p.doc(method.doc).type(descriptorType(method)));
      }
      resourceType.prop(resource, (p) => p.type(methodType));
    }
    areaType.prop(area, (p) => p.type(resourceType));
  }
  return areaType;
}

/** One method's descriptor: its kind, its positional arguments as a labelled tuple, and its response. */
function descriptorType({ data, response, row, query }: MethodTypes) {
  const tuple = $.type.tuple(
    ...row.args.map((arg) => {
      const label = arg === 'body' || arg === 'query' ? arg : arg.split('.')[1]!;
      return $.type.tupleMember(arg === 'query' ? `${label}?` : label).type(argType(data, arg, query));
    }),
  );
  return $.type
    .object()
    .prop('kind', (p) => p.type($.type.literal(row.kind)))
    .prop('args', (p) => p.type(tuple))
    .prop('response', (p) => p.type($.type(response as never)));
}

/** The type of one positional argument, indexed from the operation's generated `*Data`. */
function argType(data: unknown, arg: string, optionalQuery: Parameter[]) {
  if (arg === 'body') return $.type.idx($.type(data as never), $.type.literal('body'));
  if (arg === 'query') {
    const keys = $.type.or(...optionalQuery.map((p) => $.type.literal(p.name)));
    return $.type('Pick')
      .generic($.type('NonNullable').generic($.type.idx($.type(data as never), $.type.literal('query'))))
      .generic(keys);
  }
  const [where, key] = arg.split('.') as ['path' | 'query', string];
  return $.type.idx(
    $.type('NonNullable').generic($.type.idx($.type(data as never), $.type.literal(where))),
    $.type.literal(key),
  );
}

/** The plugin's configuration, for `plugins` in openapi-ts.config.ts. */
export const resourcesPlugin = definePluginConfig({
  config: { output: 'resources', includeInEntry: false, names: {} },
  dependencies: ['@hey-api/typescript'],
  handler,
  name: 'resources',
} as ResourcesPlugin['Config']);
