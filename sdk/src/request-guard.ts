/**
 * What makes a local server of this API safe to leave running (the standalone mock, the contract package's drift
 * proxy; contract section 7): every request, API and control alike, is checked before it has any effect, as
 * front-end dev servers do.
 *
 * - `Origin`: a browser page may call the server only from a local origin (`http(s)://localhost`, `127.0.0.1`,
 *   `[::1]`, any port), from the server's own names (below) or from a `--cors-origin` addition. Any other web page
 *   could otherwise drive a developer's running server with a cross-site "simple" request (a `text/plain` POST needs
 *   no preflight): inject faults, reset it, add tenants. Refused with 403 `ORIGIN_NOT_ALLOWED`.
 * - `Host`: only the listen address, `localhost`, `127.0.0.1`, `[::1]`, the `publicUrl` host and `--allowed-host`
 *   names (and, listening on every interface, this machine's addresses). A page on `rebind.evil.example` whose name
 *   is re-pointed at 127.0.0.1 (DNS rebinding) sends its own name as `Host`; refused with 403 `HOST_NOT_ALLOWED`.
 * @module
 */
/** What the guard allows. */
export interface RequestGuardOptions {
  /** The address the server listens on. */
  host: string;
  /** The public URL of the server behind a proxy or tunnel, if any: its host is allowed, and its origin. */
  publicUrl?: string | undefined;
  /** More host names (or addresses) the server may be reached by (`--allowed-host`). */
  allowedHosts?: readonly string[] | undefined;
  /** More origins browser pages may call from (`--cors-origin`), e.g. `https://app.example.test`. */
  corsOrigins?: readonly string[] | undefined;
  /**
   * This machine's addresses, allowed as `Host` when `host` is a wildcard (`0.0.0.0`, `::`). Node's
   * `os.networkInterfaces()`; the caller reads them, so that this module runs in browsers too.
   */
  interfaceAddresses?: readonly string[] | undefined;
}

/** A refusal: the code (its status is the spec's) and detail of a problem+json. */
export interface GuardRefusal {
  code: 'ORIGIN_NOT_ALLOWED' | 'HOST_NOT_ALLOWED';
  detail: string;
}

/** The checks of one server. */
export interface RequestGuard {
  /** Why this request must be refused, or undefined when it may go on. */
  check(host: string | undefined, origin: string | undefined): GuardRefusal | undefined;
  /** True when a browser page at `origin` may call the server (it then gets CORS headers). */
  originAllowed(origin: string | undefined): origin is string;
  /** Every address the server can be reached at (for the `0.0.0.0` warning). */
  readonly reachableAt: readonly string[];
}

const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];
const WILDCARDS = ['0.0.0.0', '::', ''];

/** The names the server listens under (every interface's for a wildcard host), added to `hosts`; where it is reachable. */
function listenNames(options: RequestGuardOptions, hosts: Set<string>): string[] {
  const reachableAt: string[] = [];
  if (WILDCARDS.includes(options.host)) {
    for (const address of options.interfaceAddresses ?? []) {
      hosts.add(hostName(address));
      reachableAt.push(address.includes(':') ? `[${address}]` : address);
    }
  } else {
    hosts.add(hostName(options.host));
    reachableAt.push(options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host);
  }
  return reachableAt;
}

/** Builds the Host and Origin guard of a local server from its options. */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const hosts = new Set<string>(LOCAL_NAMES);
  const reachableAt = listenNames(options, hosts);
  const origins = new Set<string>();
  if (options.publicUrl !== undefined) {
    const url = new URL(options.publicUrl);
    hosts.add(url.hostname.toLowerCase());
    origins.add(url.origin.toLowerCase());
  }
  for (const name of options.allowedHosts ?? []) hosts.add(hostName(name));
  for (const origin of options.corsOrigins ?? []) origins.add(normaliseOrigin(origin));

  const originAllowed = (origin: string | undefined): origin is string => {
    if (origin === undefined) return false;
    const normalised = normaliseOrigin(origin);
    if (origins.has(normalised)) return true;
    // A local page, or a page of the server itself (the mock's inspector, under any of its names).
    const match = /^https?:\/\/(\[[0-9a-f:.]+\]|[^/:]+)(?::\d{1,5})?$/.exec(normalised);
    return match !== null && hosts.has(match[1]!);
  };

  // The last Host header found allowed: a server's clients send the same one on every request (the names are fixed
  // once the guard is made), so its name is not taken apart again for each.
  let allowedHost: string | undefined;
  const hostAllowed = (host: string): boolean => {
    if (host === allowedHost) return true;
    if (!hosts.has(hostName(host))) return false;
    allowedHost = host;
    return true;
  };

  return {
    reachableAt,
    originAllowed,
    check(host, origin) {
      // Requests without a Host header cannot come from a browser (HTTP/1.1 requires it); a client that leaves it
      // out is not a page being rebound.
      if (host !== undefined && !hostAllowed(host)) {
        return {
          code: 'HOST_NOT_ALLOWED',
          detail: `Host ${JSON.stringify(host)} is not a name of this server (DNS rebinding protection). Start it with --allowed-host ${hostName(host)} or --public-url to allow that name.`,
        };
      }
      if (origin !== undefined && !originAllowed(origin)) {
        return {
          code: 'ORIGIN_NOT_ALLOWED',
          detail: `Origin ${JSON.stringify(origin)} may not call this server; only local origins (localhost, 127.0.0.1, [::1], any port) and --cors-origin additions may.`,
        };
      }
      return undefined;
    },
  };
}

/** The host name of a `Host` header or address, lower case, without the port; IPv6 in brackets. */
function hostName(value: string): string {
  const text = value.trim().toLowerCase();
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1);
  // A bare IPv6 address (listen option) has several colons; a host:port has one.
  if ((text.match(/:/g) ?? []).length > 1) return `[${text}]`;
  const colon = text.indexOf(':');
  return colon === -1 ? text : text.slice(0, colon);
}

function normaliseOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}
