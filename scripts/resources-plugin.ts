/**
 * A hey-api plugin that writes `sdk/generated/resources.gen.ts`: the types of the SDK's resource layer, from the
 * spec's operations; and the rules (`clientMethods`) by which every operation becomes a method of the client
 * (`client.s2s.users.create`). One method is two facts the SDK's client is built from:
 *
 * - `Resources`, a type (this plugin): area → resource → method, each method a descriptor of its kind (`call`,
 *   `list`, or `cardDetails`), its positional arguments (named, typed from the operation's generated `*Data`), and
 *   its response (the generated `*Response`); `sdk/src/resources.ts` turns each descriptor into a method signature.
 * - the method as data, in the one operation table (`operations` in operations.gen.ts, written by
 *   scripts/operations-plugin.ts with `clientMethods`): beside the operation's HTTP method and path template, the
 *   method's name, kind and where each positional argument goes (`path.userId`, `query.userUuid`, `body`, or
 *   `query` for the optional query object). The client wires every method from that table.
 *
 * The rules, so that an operation added to the spec gets its method after `npm run generate`:
 * - a list operation has a `cursor` query parameter; a card-details operation a `publicKey` query parameter (the
 *   SDK sends the key pair's public key and decrypts the answer);
 * - positional arguments: required query parameters (the user the call acts for), then path parameters in path
 *   order, then the body; optional query parameters other than `limit` and `cursor` travel as one `query` object;
 * - the method's name comes from the operations plugin's `names` (operationId → `area.resource.method`), as
 *   Stainless keeps names in its config; an operation without one is named `<first path segment>.<second>.<operationId>`.
 * @module
 */
import { $, definePluginConfig, type DefinePlugin, type IR } from '@hey-api/openapi-ts';

type UserConfig = { readonly name: 'resources' };
type Config = UserConfig & { readonly output: 'resources'; readonly includeInEntry: boolean };
type ResourcesPlugin = DefinePlugin<UserConfig, Config>;

/** operationId → `area.resource.method`: the client's name of each operation. */
export type MethodNames = Readonly<Record<string, string>>;

/** Query parameters that are no positional argument: the page (list options) and the card-details key. */
const PAGE_PARAMS = new Set(['limit', 'cursor']);
const KEY_PARAM = 'publicKey';

type Kind = 'call' | 'list' | 'cardDetails';
/** One operation's client method: its name, kind and where each positional argument goes. */
export interface ClientMethod {
  operationId: string;
  name: string;
  kind: Kind;
  args: string[];
  /** For the method's type and doc: the HTTP method, path template and the `query` argument's members. */
  method: string;
  path: string;
  optionalQuery: Parameter[];
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

/**
 * The client method of every operation, by the rules above, in the order given. Throws on a name that is not
 * `area.resource.method`, on two operations of one name, and on a name for an operation the spec does not have.
 */
export function clientMethods(operations: readonly IR.OperationObject[], names: MethodNames): ClientMethod[] {
  const methods: ClientMethod[] = [];
  const taken = new Set<string>();
  for (const operation of operations) {
    const id = operation.id;
    const query = Object.values(operation.parameters?.query ?? {}) as Parameter[];
    const optionalQuery = query.filter((p) => !p.required && !PAGE_PARAMS.has(p.name) && p.name !== KEY_PARAM);
    const name = methodName(names[id] ?? defaultName(operation.path, id), id, taken);
    taken.add(name);
    methods.push({
      operationId: id,
      name,
      kind: kindOf(query),
      args: positionalArgs(operation, query, optionalQuery),
      method: operation.method.toUpperCase(),
      path: operation.path,
      optionalQuery,
    });
  }
  const unknown = Object.keys(names).filter((id) => !methods.some((m) => m.operationId === id));
  if (unknown.length > 0)
    throw new Error(`resources: names for operations the spec does not have: ${unknown.join(', ')}.`);
  return methods;
}

/** What the type of one method is made of: the operation's generated types, its client method and its doc. */
interface MethodTypes {
  data: unknown;
  response: unknown;
  row: ClientMethod;
  doc: string[];
}

const handler: ResourcesPlugin['Handler'] = ({ plugin }) => {
  // The names are the operation table's (the operations plugin's config): one list, read by both plugins.
  const { names } = (plugin.getPluginOrThrow('operations' as never) as { config: { names: MethodNames } }).config;
  const operations: IR.OperationObject[] = [];
  plugin.forEach('operation', ({ operation }) => {
    operations.push(operation);
  });
  const rows = clientMethods(operations, names).sort((a, b) => a.name.localeCompare(b.name));
  const types = new Map<string, MethodTypes>();
  for (const row of rows) {
    const symbol = (role: 'data' | 'response') =>
      plugin.querySymbol({ category: 'type', resource: 'operation', resourceId: row.operationId, role });
    const summary = operations.find((o) => o.id === row.operationId)?.summary ?? row.operationId;
    const doc = [`${summary} (\`${row.operationId}\`: ${row.method} ${row.path})`];
    types.set(row.name, { data: symbol('data'), response: symbol('response'), row, doc });
  }
  plugin.node(
    $.type
      .alias(plugin.symbol('Resources'))
      .export()
      .doc(['Every method of the client by area and resource: its kind, positional arguments and response.'])
      .type(resourcesType(byAreaAndResource(rows), types)),
  );
};

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
function methodName(name: string, operationId: string, taken: ReadonlySet<string>): string {
  const parts = name.split('.');
  if (parts.length !== 3 || !parts.every((p) => IDENTIFIER.test(p)))
    throw new Error(`resources: "${name}" (${operationId}) is not area.resource.method.`);
  if (taken.has(name)) throw new Error(`resources: two operations are named ${name}.`);
  return name;
}

/** The method names grouped by area, then resource, in the rows' order. */
function byAreaAndResource(rows: ClientMethod[]): Map<string, Map<string, string[]>> {
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
function descriptorType({ data, response, row }: MethodTypes) {
  const tuple = $.type.tuple(
    ...row.args.map((arg) => {
      const label = arg === 'body' || arg === 'query' ? arg : arg.split('.')[1]!;
      return $.type.tupleMember(arg === 'query' ? `${label}?` : label).type(argType(data, arg, row.optionalQuery));
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

/** The plugin's configuration, for `plugins` in openapi-ts.config.ts (after the operations plugin, whose names it reads). */
export const resourcesPlugin = definePluginConfig({
  config: { output: 'resources', includeInEntry: false },
  dependencies: ['@hey-api/typescript', 'operations'],
  handler,
  name: 'resources',
} as ResourcesPlugin['Config']);
