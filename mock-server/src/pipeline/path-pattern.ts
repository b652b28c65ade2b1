/**
 * Fault path patterns, matched in time linear in the path for a bounded pattern: `*` matches any run of characters
 * (slashes included), `{name}` or `:name` one non-empty segment, anything else itself. A pattern compiled to a
 * regular expression (`.*` per star) backtracks: one unsigned request with many stars froze the server for 21 s.
 * This runs the pattern as a set of positions advanced together over the path (a Thompson simulation): at most
 * `pattern tokens × path length` steps, whatever the input.
 * @module
 */

/** The longest pattern accepted, in tokens (each literal character, star or parameter is one). */
export const MAX_PATTERN_TOKENS = 512;

const ANY = 0; // `*`: zero or more of any character
const ONE_SEGMENT = 1; // the first character of a parameter: one non-slash
const REST_SEGMENT = 2; // the rest of a parameter: zero or more non-slash
type Token = number | string; // a one-character string is a literal

/** A compiled pattern: `matches(path)` in linear time. */
export interface PathPattern {
  readonly source: string;
  matches(path: string): boolean;
}

/** Compiles a pattern; throws a RangeError for a pattern over {@link MAX_PATTERN_TOKENS} tokens. */
export function compilePathPattern(source: string): PathPattern {
  const tokens: Token[] = [];
  const parameter = /^(\{[^}/]+\}|:[A-Za-z_][A-Za-z0-9_]*)/;
  for (let i = 0; i < source.length; ) {
    const rest = source.slice(i);
    const param = parameter.exec(rest);
    if (source[i] === '*') {
      // Consecutive stars are one star.
      if (tokens.at(-1) !== ANY) tokens.push(ANY);
      i += 1;
    } else if (param) {
      tokens.push(ONE_SEGMENT, REST_SEGMENT);
      i += param[0].length;
    } else {
      tokens.push(source[i]!);
      i += 1;
    }
    if (tokens.length > MAX_PATTERN_TOKENS)
      throw new RangeError(`A fault path pattern has at most ${MAX_PATTERN_TOKENS} characters and wildcards.`);
  }
  return { source, matches: (path) => run(tokens, path) };
}

function run(tokens: readonly Token[], path: string): boolean {
  const m = tokens.length;
  let current = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  current[0] = 1;
  closeOverEmpty(tokens, current);
  for (let p = 0; p < path.length; p++) {
    next.fill(0);
    advance(tokens, current, next, path[p]!);
    closeOverEmpty(tokens, next);
    if (!next.includes(1)) return false;
    [current, next] = [next, current];
  }
  return current[m] === 1;
}

/** Adds the positions reachable without reading a character: a star or the rest of a parameter may match nothing. */
function closeOverEmpty(tokens: readonly Token[], set: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++)
    if (set[i] && (tokens[i] === ANY || tokens[i] === REST_SEGMENT)) set[i + 1] = 1;
}

/** Marks in `next` the positions reached from those in `current` by reading the character `c`. */
function advance(tokens: readonly Token[], current: Uint8Array, next: Uint8Array, c: string): void {
  for (let i = 0; i < tokens.length; i++) {
    if (!current[i]) continue;
    const step = stepOn(tokens[i]!, c);
    if (step !== undefined) next[i + step] = 1;
  }
}

/** Where the token leads on reading `c`: 0 stays on it (it may read more), 1 moves past it, undefined fails. */
function stepOn(token: Token, c: string): 0 | 1 | undefined {
  if (token === ANY) return 0;
  if (token === REST_SEGMENT) return c === '/' ? undefined : 0;
  if (token === ONE_SEGMENT) return c === '/' ? undefined : 1;
  return token === c ? 1 : undefined;
}
