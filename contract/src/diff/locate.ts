/**
 * The line of a change in the revision's YAML: the node at its path, following `$ref`s as the diff did (the diff
 * sees documents with references resolved), or its nearest ancestor that the revision still has (for a removal).
 * @module
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** Finds lines in one YAML document. */
export function createLocator(text: string): { lineOf(path: readonly (string | number)[]): number } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  const root = doc.contents as Node | null;
  const lineOfNode = (node: Node | null | undefined, fallback: number) =>
    node?.range ? counter.linePos(node.range[0]).line : fallback;

  /** The node a local `$ref` names (`#/components/schemas/User`). */
  const follow = (node: Node | null | undefined, hops = 0): Node | null | undefined => {
    if (!isMap(node) || hops > 20) return node;
    const ref = node.get('$ref');
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    const target = doc.getIn(
      ref
        .slice(2)
        .split('/')
        .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~')),
      true,
    );
    return follow(target as Node | undefined, hops + 1);
  };

  /** The member `segment` of a map or a sequence and its line (a map member's key's: where a reader finds it). */
  const child = (node: Node | null | undefined, segment: string | number, line: number) => {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      return { next: pair?.value as unknown, line: pair ? lineOfNode(pair.key as Node, line) : line };
    }
    if (isSeq(node) && typeof segment === 'number') {
      const next: unknown = node.items[segment];
      return { next, line: next ? lineOfNode(next as Node, line) : line };
    }
    return { next: undefined, line };
  };

  return {
    lineOf(path) {
      let node: Node | null | undefined = root;
      let line = 1;
      for (const segment of path) {
        const step = child(follow(node), segment, line);
        line = step.line;
        if (step.next === undefined || step.next === null) return line;
        node = step.next as Node;
      }
      return line;
    },
  };
}
