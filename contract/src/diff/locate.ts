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

  return {
    lineOf(path) {
      let node: Node | null | undefined = root;
      let line = 1;
      for (const segment of path) {
        node = follow(node);
        let next: unknown;
        if (isMap(node)) {
          // The key's line: where a reader finds the member.
          const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
          if (pair) line = lineOfNode(pair.key as Node, line);
          next = pair?.value;
        } else if (isSeq(node) && typeof segment === 'number') {
          next = node.items[segment];
          if (next) line = lineOfNode(next as Node, line);
        }
        if (next === undefined || next === null) return line;
        node = next as Node;
      }
      return line;
    },
  };
}
