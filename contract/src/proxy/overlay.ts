/**
 * A proposal from observed traffic: an OpenAPI Overlay 1.0 document (the OpenAPI Initiative's format for changes to
 * an OpenAPI document) that would make the spec agree with the target for each mechanical drift: an undocumented
 * status documented, a problem code added to the closed set, an unexpected field added to its schema, a required
 * field the target leaves out dropped from `required`. A person reviews it, applies it, then runs `npm run generate`.
 * Drifts that need judgement (a wrong type, a refused signature) are left to the report.
 * @module
 */
import { unescapeToken, valueAt } from '../json-pointer';
import type { Drift } from './drift';

/** An Overlay 1.0 action. */
export interface OverlayAction {
  target: string;
  description: string;
  update?: unknown;
  remove?: boolean;
}

/** An Overlay 1.0 document. */
export interface Overlay {
  overlay: '1.0.0';
  info: { title: string; version: string };
  extends?: string;
  actions: OverlayAction[];
}

type Doc = Record<string, unknown>;

/** A JSON pointer inside `doc` as a JSONPath (RFC 9535) in normalized bracket-or-dot form. */
export function pointerToJsonPath(doc: unknown, pointer: string): string {
  let path = '$';
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const token = unescapeToken(raw);
    if (Array.isArray(node)) {
      path += `[${Number(token)}]`;
      node = node[Number(token)];
    } else {
      path += /^[A-Za-z_][A-Za-z0-9_]*$/.test(token)
        ? `.${token}`
        : `['${token.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
      node = (node as Doc | undefined)?.[token];
    }
  }
  return path;
}

/** The JSON Schema of an observed value: its type, and a format where a string shows one. */
export function schemaOf(value: unknown): Doc {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return value.length > 0 ? { type: 'array', items: schemaOf(value[0]) } : { type: 'array' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return { type: 'string', format: 'date-time' };
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { type: 'string', format: 'date' };
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
      return { type: 'string', format: 'uuid' };
    return { type: 'string' };
  }
  if (typeof value === 'object') return { type: 'object' };
  return { type: typeof value };
}

/** The response object for a status the spec does not document: the operation's success response, or a Problem. */
function responseFor(doc: Doc, drift: Drift): unknown {
  const description = `Observed from the target (card-issuing-contract proxy, ${drift.request}); review before applying.`;
  if (drift.mediaType === 'application/problem+json') {
    return {
      description,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  const responses = valueAt(doc, drift.schemaPointer ?? '') as Doc | undefined;
  const success = Object.entries(responses ?? {}).find(([status]) => status.startsWith('2'));
  if (success) {
    const documented = success[1] as Doc;
    // A $ref response is resolved one level, so its description can say where the answer was seen.
    const body = typeof documented.$ref === 'string' ? (valueAt(doc, documented.$ref.slice(1)) as Doc) : documented;
    return { ...body, description: `${description} Documented as ${success[0]}.` };
  }
  return drift.mediaType ? { description, content: { [drift.mediaType]: {} } } : { description };
}

/** The overlay for the mechanical drifts among `drifts`, against `doc` (the spec the proxy checks with). */
export function buildOverlay(doc: Doc, drifts: Drift[], target: string): Overlay {
  const actions: OverlayAction[] = [];
  const seen = new Set<string>();
  const push = (action: OverlayAction) => {
    const key = `${action.target} ${JSON.stringify(action.update)} ${action.remove}`;
    if (seen.has(key)) return;
    seen.add(key);
    actions.push(action);
  };
  for (const d of drifts) {
    if (!d.schemaPointer) continue;
    const where = `${d.operationId ?? '(no operation)'} ${d.method} ${d.path}`;
    switch (d.kind) {
      case 'undocumented-status':
        push({
          target: pointerToJsonPath(doc, d.schemaPointer),
          description: `${where}: the target answered ${d.subject}, which the spec does not document.`,
          update: { [String(d.subject)]: responseFor(doc, d) },
        });
        break;
      case 'problem-code-outside-set':
        push({
          target: `${pointerToJsonPath(doc, d.schemaPointer)}.enum`,
          description: `${where}: the target sent problem code ${d.subject}, outside the closed set.`,
          update: d.subject,
        });
        break;
      case 'unexpected-field':
        push({
          target: `${pointerToJsonPath(doc, d.schemaPointer)}.properties`,
          description: `${where}: the target sent field ${d.subject}, which the schema does not have.`,
          update: { [String(d.subject)]: schemaOf(d.observed) },
        });
        break;
      case 'missing-required-field':
        push({
          target: `${pointerToJsonPath(doc, d.schemaPointer)}.required[?(@ == '${String(d.subject).replace(/'/g, "\\'")}')]`,
          description: `${where}: the target leaves out ${d.subject}, which the schema requires.`,
          remove: true,
        });
        break;
      default:
        break;
    }
  }
  return {
    overlay: '1.0.0',
    info: { title: `Drift of ${target} from the spec, observed by card-issuing-contract proxy`, version: '1.0.0' },
    extends: 'openapi.yaml',
    actions,
  };
}
