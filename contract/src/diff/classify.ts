/**
 * `card-issuing-contract diff`: every change between two versions of the spec, classified by api-smart-diff's
 * compatibility rules (an operation or status removed, a response field removed or retyped, a request field newly
 * required, an enum widened in a response or narrowed in a request, a format or pattern tightened, ...), and for
 * each breaking change whether it touches what an app's usage file lists.
 * @module
 */
import { apiCompare } from 'api-smart-diff';
import type { UsageFile, UsedOperation } from '../usage/usage';

/** One change between the base and the revision. */
export interface SpecChange {
  /** `breaking`, `non-breaking`, `deprecated`, `annotation` or `unclassified`, as api-smart-diff classifies it. */
  type: string;
  action: string;
  /** Where, in the documents with `$ref`s resolved: `paths./s2s/users.post.responses.201...`. */
  path: (string | number)[];
  description: string;
  /** The operation it is in, when it is in one. */
  operation?: { method: string; path: string };
  /** What in the operation: `response 201 body kycStatus`, `request body email`, `query limit`. */
  subject?: string;
  /** Breaking, and touching what the usage lists (or breaking without a usage file). */
  blocking: boolean;
  /** Why it blocks or not, in words (empty for a change that is not breaking). */
  reason: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * One step of {@link fieldOf} at `segments[i]`, adding to `parts`: the index of the next segment, or undefined where
 * the field's path ends.
 */
function fieldStep(
  segments: (string | number)[],
  i: number,
  parts: string[],
  change: { before?: unknown; after?: unknown },
): number | undefined {
  const segment = segments[i];
  if (segment === 'properties' && i + 1 < segments.length) {
    parts.push(String(segments[i + 1]));
    return i + 2;
  }
  if (segment === 'items') {
    if (parts.length > 0) parts[parts.length - 1] += '[]';
    return i + 1;
  }
  if (segment === 'required') {
    // A name added to or removed from `required`: the change's value is the field's name.
    const name = typeof change.after === 'string' ? change.after : change.before;
    if (typeof name === 'string') parts.push(name);
    return undefined;
  }
  if (segment === 'allOf' || segment === 'oneOf' || segment === 'anyOf') return i + 2;
  return undefined;
}

/** A schema path inside a body (`properties`, `items`, `allOf`...) as a field path: `a.b`, `items[].id`. */
function fieldOf(segments: (string | number)[], change: { before?: unknown; after?: unknown }): string | undefined {
  const parts: string[] = [];
  let i: number | undefined = 0;
  while (i !== undefined && i < segments.length) i = fieldStep(segments, i, parts, change);
  return parts.length > 0 ? parts.join('.') : undefined;
}

/** Whether `used` (fields the app sent or received) includes `field` or anything under it. */
const touches = (used: readonly string[], field: string) =>
  used.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[]`));

/** Whether a documented status key (`201`, `4XX`, `default`) covers one the app got. */
const covers = (key: string, statuses: readonly number[]) =>
  statuses.some((s) => key === String(s) || key === `${String(s)[0]}XX` || key === 'default');

interface Scoped {
  subject?: string;
  blocking: boolean;
  reason: string;
}

type Change = { before?: unknown; after?: unknown; action: string };

/** Whether a breaking change in a response (status `key`, then `inner`) touches what the app got. */
function scopeResponse(key: string, inner: (string | number)[], change: Change, used: UsedOperation): Scoped {
  if (!covers(key, used.statuses))
    return { subject: `response ${key}`, blocking: false, reason: `the app never got ${key}` };
  if (inner.length === 0) return { subject: `response ${key}`, blocking: true, reason: `the app gets ${key}` };
  if (inner[0] !== 'content' || inner[2] !== 'schema')
    return { subject: `response ${key} ${inner[0]}`, blocking: true, reason: `the app gets ${key}` };
  const field = fieldOf(inner.slice(3), change);
  const received = Object.entries(used.responseFields)
    .filter(([status]) => covers(key, [Number(status)]))
    .flatMap(([, fields]) => fields);
  if (field === undefined)
    return { subject: `response ${key} body`, blocking: true, reason: `the app reads ${key} bodies` };
  return touches(received, field)
    ? { subject: `response ${key} body ${field}`, blocking: true, reason: `the app receives ${field}` }
    : { subject: `response ${key} body ${field}`, blocking: false, reason: `the app never received ${field}` };
}

/** Whether a breaking change in the request body touches what the app sends (or now must send). */
function scopeRequestBody(rest: (string | number)[], change: Change, used: UsedOperation): Scoped {
  const schemaAt = rest.indexOf('schema');
  const field = schemaAt >= 0 ? fieldOf(rest.slice(schemaAt + 1), change) : undefined;
  if (field === undefined) return { subject: 'request body', blocking: true, reason: 'the app sends this body' };
  const newlyRequired = rest.includes('required') && change.action === 'add';
  if (newlyRequired)
    return touches(used.requestFields, field)
      ? { subject: `request body ${field}`, blocking: false, reason: `the app already sends ${field}` }
      : { subject: `request body ${field}`, blocking: true, reason: `the app does not send ${field}, now required` };
  return touches(used.requestFields, field)
    ? { subject: `request body ${field}`, blocking: true, reason: `the app sends ${field}` }
    : { subject: `request body ${field}`, blocking: false, reason: `the app never sends ${field}` };
}

/** Whether a breaking change to a parameter touches the app: one it sends, or one now required. */
function scopeParameter(name: string, inner: (string | number)[], change: Change, used: UsedOperation): Scoped {
  const sent = used.queryParameters.includes(name);
  const required = inner.includes('required') || change.action === 'add';
  if (sent || required)
    return {
      subject: `parameter ${name}`,
      blocking: true,
      reason: sent ? `the app sends ${name}` : `${name} is now required`,
    };
  return { subject: `parameter ${name}`, blocking: false, reason: `the app never sends ${name}` };
}

/** Whether a breaking change in an operation the app used touches what it used. */
function scope(
  rest: (string | number)[],
  change: Change,
  used: UsedOperation,
  parameterName: (index: number) => string | undefined,
): Scoped {
  const [area, key, ...inner] = rest;
  if (area === undefined) return { blocking: true, reason: 'the operation the app calls changed' };
  if (area === 'responses' && typeof key === 'string') return scopeResponse(key, inner, change, used);
  if (area === 'requestBody') return scopeRequestBody(rest, change, used);
  if (area === 'parameters' && typeof key === 'number')
    return scopeParameter(parameterName(key) ?? `#${key}`, inner, change, used);
  return { subject: String(area), blocking: true, reason: 'the operation the app calls changed' };
}

const VERBS: Record<string, string> = { add: 'Added', remove: 'Removed', replace: 'Changed', rename: 'Renamed' };

/**
 * api-smart-diff's description, or one of ours where it repeats a shared schema's change in a second operation
 * ("[Removed] annotation (10)"): the keyword and the value.
 */
function describe(diff: {
  action: string;
  path: (string | number)[];
  description?: string;
  before?: unknown;
  after?: unknown;
}): string {
  if (diff.description && !/\] annotation \(/.test(diff.description)) return diff.description;
  const verb = VERBS[diff.action] ?? diff.action;
  const value = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));
  const at = diff.path.lastIndexOf('required');
  if (at >= 0 && at >= diff.path.length - 2)
    return `[${verb}] required status of \`${value(diff.before ?? diff.after)}\``;
  const last = diff.path.at(-1);
  const parent = diff.path.at(-2);
  if (parent === 'properties') return `[${verb}] property \`${String(last)}\``;
  if (parent === 'enum') return `[${verb}] enum value \`${value(diff.before ?? diff.after)}\``;
  return `[${verb}] ${String(last)}${diff.action === 'replace' ? `: ${value(diff.before)} → ${value(diff.after)}` : ''}`;
}

/** A diff as api-smart-diff reports it. */
interface Diff {
  type: string;
  action: string;
  path: (string | number)[];
  description?: string;
  before?: unknown;
  after?: unknown;
}

/** The name of an operation's parameter `index` in `doc`, its own or its `$ref`'s. */
function parameterNameIn(doc: object, template: string, method: string, index: number): string | undefined {
  const op = (doc as { paths?: Record<string, Record<string, { parameters?: { name?: string; $ref?: string }[] }>> })
    .paths?.[template]?.[method];
  const parameter = op?.parameters?.[index];
  if (parameter?.name) return parameter.name;
  const ref = parameter?.$ref?.split('/').pop();
  const components = (doc as { components?: { parameters?: Record<string, { name?: string }> } }).components;
  return ref ? components?.parameters?.[ref]?.name : undefined;
}

/** A change under `paths./template`: its operation, and for a breaking one whether it touches what the app used. */
function classifyPathChange(
  diff: Diff,
  entry: SpecChange,
  template: string,
  docs: { baseDoc: object; revision: object; usage: UsageFile | undefined },
): SpecChange {
  const { usage } = docs;
  const method = typeof diff.path[2] === 'string' && METHODS.has(diff.path[2]) ? diff.path[2] : undefined;
  if (method) entry.operation = { method: method.toUpperCase(), path: template };
  if (diff.type !== 'breaking') return entry;
  if (!usage) return { ...entry, blocking: true, reason: 'breaking (no usage file: every breaking change counts)' };
  const used = usage.operations.filter(
    (o) => o.path === template && (method === undefined || o.method === method.toUpperCase()),
  );
  if (used.length === 0) return { ...entry, reason: 'the app never calls this operation' };
  const scoped = method
    ? scope(diff.path.slice(3), diff, used[0]!, (i) =>
        parameterNameIn(diff.action === 'add' ? docs.revision : docs.baseDoc, template, method, i),
      )
    : { blocking: true, reason: 'an operation the app calls changed' };
  return { ...entry, ...scoped };
}

/** Every change from `base` to `revision` (parsed documents), with what it means for `usage` (when given). */
export function classifyChanges(baseDoc: object, revision: object, usage: UsageFile | undefined): SpecChange[] {
  const { diffs } = apiCompare(baseDoc, revision);
  const changes: SpecChange[] = [];
  for (const diff of diffs as Diff[]) {
    // api-smart-diff reports a change of a shared schema in every operation that uses it (refs resolved) and once
    // more under components: the operations' copies are the ones that matter.
    if (diff.path[0] === 'components') continue;
    const entry: SpecChange = {
      type: diff.type,
      action: diff.action,
      path: diff.path,
      description: describe(diff),
      blocking: false,
      reason: '',
    };
    if (diff.path[0] === 'paths' && typeof diff.path[1] === 'string')
      changes.push(classifyPathChange(diff, entry, diff.path[1], { baseDoc, revision, usage }));
    else if (diff.type === 'breaking')
      changes.push({
        ...entry,
        blocking: !usage || usage.operations.length > 0,
        reason: usage ? 'a change to the whole API' : 'breaking (no usage file: every breaking change counts)',
      });
    else changes.push(entry);
  }
  return changes;
}
