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

/** A schema path inside a body (`properties`, `items`, `allOf`...) as a field path: `a.b`, `items[].id`. */
function fieldOf(segments: (string | number)[], change: { before?: unknown; after?: unknown }): string | undefined {
  const parts: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === 'properties' && i + 1 < segments.length) {
      parts.push(String(segments[++i]));
    } else if (segment === 'items') {
      if (parts.length > 0) parts[parts.length - 1] += '[]';
    } else if (segment === 'required') {
      // A name added to or removed from `required`: the change's value is the field's name.
      const name = typeof change.after === 'string' ? change.after : change.before;
      if (typeof name === 'string') parts.push(name);
      break;
    } else if (segment === 'allOf' || segment === 'oneOf' || segment === 'anyOf') {
      i++;
    } else break;
  }
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

/** Whether a breaking change in an operation the app used touches what it used. */
function scope(
  rest: (string | number)[],
  change: { before?: unknown; after?: unknown; action: string },
  used: UsedOperation,
  parameterName: (index: number) => string | undefined,
): Scoped {
  const [area, key, ...inner] = rest;
  if (area === undefined) return { blocking: true, reason: 'the operation the app calls changed' };
  if (area === 'responses' && typeof key === 'string') {
    if (!covers(key, used.statuses))
      return { subject: `response ${key}`, blocking: false, reason: `the app never got ${key}` };
    if (inner.length === 0) return { subject: `response ${key}`, blocking: true, reason: `the app gets ${key}` };
    if (inner[0] === 'content' && inner[2] === 'schema') {
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
    return { subject: `response ${key} ${inner[0]}`, blocking: true, reason: `the app gets ${key}` };
  }
  if (area === 'requestBody') {
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
  if (area === 'parameters' && typeof key === 'number') {
    const name = parameterName(key) ?? `#${key}`;
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

/** Every change from `base` to `revision` (parsed documents), with what it means for `usage` (when given). */
export function classifyChanges(baseDoc: object, revision: object, usage: UsageFile | undefined): SpecChange[] {
  const { diffs } = apiCompare(baseDoc, revision);
  const parameterName = (doc: object, template: string, method: string, index: number): string | undefined => {
    const op = (doc as { paths?: Record<string, Record<string, { parameters?: { name?: string; $ref?: string }[] }>> })
      .paths?.[template]?.[method];
    const parameter = op?.parameters?.[index];
    if (parameter?.name) return parameter.name;
    const ref = parameter?.$ref?.split('/').pop();
    const components = (doc as { components?: { parameters?: Record<string, { name?: string }> } }).components;
    return ref ? components?.parameters?.[ref]?.name : undefined;
  };
  const changes: SpecChange[] = [];
  for (const diff of diffs as {
    type: string;
    action: string;
    path: (string | number)[];
    description?: string;
    before?: unknown;
    after?: unknown;
  }[]) {
    // api-smart-diff reports a change of a shared schema in every operation that uses it (refs resolved) and once
    // more under components: the operations' copies are the ones that matter.
    if (diff.path[0] === 'components') continue;
    const description = describe(diff);
    const entry: SpecChange = {
      type: diff.type,
      action: diff.action,
      path: diff.path,
      description,
      blocking: false,
      reason: '',
    };
    if (diff.path[0] === 'paths' && typeof diff.path[1] === 'string') {
      const template = diff.path[1];
      const method = typeof diff.path[2] === 'string' && METHODS.has(diff.path[2]) ? diff.path[2] : undefined;
      if (method) entry.operation = { method: method.toUpperCase(), path: template };
      if (diff.type !== 'breaking') {
        changes.push(entry);
        continue;
      }
      if (!usage) {
        changes.push({ ...entry, blocking: true, reason: 'breaking (no usage file: every breaking change counts)' });
        continue;
      }
      const used = usage.operations.filter(
        (o) => o.path === template && (method === undefined || o.method === method.toUpperCase()),
      );
      if (used.length === 0) {
        changes.push({ ...entry, reason: 'the app never calls this operation' });
        continue;
      }
      const scoped = method
        ? scope(diff.path.slice(3), diff, used[0]!, (i) =>
            parameterName(diff.action === 'add' ? revision : baseDoc, template, method, i),
          )
        : { blocking: true, reason: 'an operation the app calls changed' };
      changes.push({ ...entry, ...scoped });
      continue;
    }
    if (diff.type === 'breaking')
      changes.push({
        ...entry,
        blocking: !usage || usage.operations.length > 0,
        reason: usage ? 'a change to the whole API' : 'breaking (no usage file: every breaking change counts)',
      });
    else changes.push(entry);
  }
  return changes;
}
