/**
 * Applies an OpenAPI Overlay 1.0 document to an OpenAPI document, as the Overlay specification says: actions in
 * order; each selects nodes by its JSONPath `target`; `remove: true` removes them from their parent, `update` is
 * merged into an object (recursively) or appended to an array. JSONPath is jsonpath-plus's (well kept; the npm
 * overlay appliers, openapi-overlays-js and oas-patch, are young and little used), the rest is these few lines.
 * `card-issuing-contract diff` applies the proxy's proposal with it (`--revision drift.overlay.yaml`).
 * @module
 */
import { JSONPath } from 'jsonpath-plus';

type Node = Record<string, unknown>;

interface Action {
  target: string;
  update?: unknown;
  remove?: boolean;
}

/** A node JSONPath selected, with its parent. */
interface Match {
  value: unknown;
  parent: unknown;
  parentProperty: string | number;
}

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(into: Node, update: Node): void {
  for (const [key, value] of Object.entries(update)) {
    if (isObject(into[key]) && isObject(value)) merge(into[key], value);
    else into[key] = structuredClone(value);
  }
}

/** Returns a copy of `doc` with the overlay's actions applied; throws when a target selects nothing. */
export function applyOverlay(doc: unknown, overlay: { overlay: string; actions: Action[] }): Node {
  if (!/^1\.\d+\.\d+$/.test(overlay.overlay))
    throw new Error(`Not an Overlay 1.x document: overlay ${overlay.overlay}`);
  const result = structuredClone(doc) as Node;
  for (const action of overlay.actions) {
    const matches = JSONPath({ path: action.target, json: result, resultType: 'all', eval: 'safe' }) as Match[];
    if (matches.length === 0) throw new Error(`Overlay target selects nothing: ${action.target}`);
    // Removals from an array go from the last index, so earlier indexes stay right.
    for (const match of [...matches].reverse()) applyAction(action, match);
  }
  return result;
}

/** One action on one node it selects: removed from its parent, or the update merged into it or appended to it. */
function applyAction(action: Action, match: Match): void {
  if (action.remove) {
    if (Array.isArray(match.parent)) match.parent.splice(Number(match.parentProperty), 1);
    else delete (match.parent as Node)[match.parentProperty];
  } else if (Array.isArray(match.value)) match.value.push(structuredClone(action.update));
  else if (isObject(match.value) && isObject(action.update)) merge(match.value, action.update);
  else throw new Error(`Overlay update of ${action.target} needs an object or an array there`);
}
