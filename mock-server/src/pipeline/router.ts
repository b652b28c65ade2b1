/**
 * The route table, compiled once: a tree of path segments (literal segments tried before parameters) whose leaves
 * map methods to routes. Matching a request walks one branch per segment, so it costs the same with 5 routes or
 * 500, and no route is tried that cannot match.
 * @module
 */

/** The roots under which every path is the mock's: a path there that matches no route is 404 ROUTE_NOT_FOUND. */
export const AREAS = ['s2s', 'app', 'corporates', '__mock'] as const;

interface Node<R> {
  literal: Map<string, Node<R>>;
  param: { name: string; node: Node<R> } | undefined;
  methods: Map<string, R>;
}

/** A match: the route and its path parameters (percent-decoded). */
export interface RouteMatch<R> {
  route: R;
  params: Record<string, string>;
}

/** What {@link Router.match} finds. */
export type MatchResult<R> =
  | { kind: 'route'; match: RouteMatch<R> }
  /** Under one of the {@link AREAS}, but no route has this method and path. */
  | { kind: 'not-found'; path: string }
  /** Not the mock's (another origin or prefix, or no area): left to whatever else answers it. */
  | { kind: 'not-ours' };

const node = <R>(): Node<R> => ({ literal: new Map(), param: undefined, methods: new Map() });

/** A compiled route table over `{param}`-style paths. */
export class Router<R> {
  readonly #root: Node<R> = node();

  /**
   * @param baseUrl The origin (and optional path prefix) routes live under; undefined: any origin, and any prefix
   * before an area root (as msw's `*` patterns match).
   */
  constructor(
    routes: Iterable<{ method: string; path: string; route: R }>,
    readonly baseUrl: string | undefined,
  ) {
    for (const { method, path, route } of routes) {
      let at = this.#root;
      for (const segment of path.split('/').slice(1)) at = child(at, segment, path);
      if (at.methods.has(method)) throw new Error(`Two routes for ${method} ${path}.`);
      at.methods.set(method, route);
    }
  }

  /** The route of a request, from its method, absolute URL and path (as received). */
  match(method: string, url: string, pathname: string): MatchResult<R> {
    let path = pathname;
    if (this.baseUrl !== undefined) {
      if (
        !url.startsWith(this.baseUrl) ||
        !(url.length === this.baseUrl.length || '/?#'.includes(url[this.baseUrl.length]!))
      )
        return { kind: 'not-ours' };
      const prefix = pathOf(this.baseUrl);
      path = pathname.slice(prefix.length) || '/';
    }
    const segments = path.split('/');
    // segments[0] is '' (the path starts with '/'); find the area root.
    let start = 1;
    if (this.baseUrl === undefined) {
      while (start < segments.length && !(AREAS as readonly string[]).includes(segments[start]!)) start++;
      if (start >= segments.length) return { kind: 'not-ours' };
    } else if (!(AREAS as readonly string[]).includes(segments[1] ?? '')) {
      return { kind: 'not-ours' };
    }
    const params: Record<string, string> = {};
    const route = walk(this.#root, segments, start, method, params);
    if (route !== undefined) return { kind: 'route', match: { route, params } };
    return { kind: 'not-found', path: `/${segments.slice(start).join('/')}` };
  }
}

/** The node under `at` for one segment of a route's path (`{name}`: its parameter), made when new. */
function child<R>(at: Node<R>, segment: string, path: string): Node<R> {
  const param = /^\{(.+)\}$/.exec(segment);
  if (param) {
    at.param ??= { name: param[1]!, node: node() };
    if (at.param.name !== param[1]) throw new Error(`Routes disagree on the parameter name at ${path}.`);
    return at.param.node;
  }
  let next = at.literal.get(segment);
  if (!next) {
    next = node();
    at.literal.set(segment, next);
  }
  return next;
}

function walk<R>(
  at: Node<R>,
  segments: string[],
  i: number,
  method: string,
  params: Record<string, string>,
): R | undefined {
  if (i === segments.length) return at.methods.get(method);
  const segment = segments[i]!;
  const literal = at.literal.get(segment);
  if (literal) {
    const found = walk(literal, segments, i + 1, method, params);
    if (found !== undefined) return found;
  }
  if (at.param && segment !== '') {
    const found = walk(at.param.node, segments, i + 1, method, params);
    if (found !== undefined) {
      params[at.param.name] = decode(segment);
      return found;
    }
  }
  return undefined;
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pathOf(baseUrl: string): string {
  const schemeEnd = baseUrl.indexOf('://');
  const slash = baseUrl.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  return slash < 0 ? '' : baseUrl.slice(slash);
}
