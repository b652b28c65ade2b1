// JSON Pointer (RFC 6901): the checker, the overlay and the tests read the spec with these, so that `~0`/`~1` are
// written and read in one place.

/** A key as a pointer's token writes it (`~` → `~0`, `/` → `~1`). */
export const escapeToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The key a pointer's token names. */
export const unescapeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The value at `pointer` (`''` is the document itself) inside `doc`, or undefined where the path leaves it. */
export function valueAt(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[unescapeToken(raw)];
  }
  return node;
}
