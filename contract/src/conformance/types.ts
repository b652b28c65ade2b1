/** The public shapes of the conformance checker: the exchange it reads, the findings and coverage it reports. */
/** One HTTP exchange as it crossed the wire (or the MSW boundary). */
export interface Exchange {
  /** HTTP method, any case. */
  method: string;
  /** Absolute URL, or a path with its query (`/s2s/balances?userId=...`). */
  url: string;
  requestHeaders?: HeadersLike;
  /** The raw request body text, or an already parsed JSON value; `undefined`, `null` or `''` for none. */
  requestBody?: unknown;
  status: number;
  responseHeaders?: HeadersLike;
  /** The raw response body text, or an already parsed JSON value; `undefined`, `null` or `''` for none. */
  responseBody?: unknown;
}

/** Headers as a `Headers` object, a plain record or a list of pairs. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined> | [string, string][];

/** One way in which an exchange departs from the spec. */
export interface Finding {
  /** The operation the exchange was matched to; `null` when it matched none. */
  operationId: string | null;
  /** HTTP method, upper case. */
  method: string;
  /** The spec's path template, or the request's path when no operation matched. */
  path: string;
  /** The request's path and query as sent. */
  url: string;
  /** Where the problem is: `request.path.userId`, `request.query.userId`, `request.body/email`,
   *  `response.status`, `response.headers.content-type`, `response.body/items/0/status`, ... */
  location: string;
  /** What the spec says, in words. */
  message: string;
  /** What the server (or client) sent at `location`, when it is a value: the status, the field's value, ... */
  actual?: unknown;
  /** The Ajv keyword that failed (`required`, `additionalProperties`, `type`, `format`, `enum`, ...), if any. */
  keyword?: string;
  /** The JSON pointer, inside the spec, of the schema that failed (for proposals such as an overlay). */
  schemaPointer?: string;
  /** What in the request led to it, when the finding is about the answer to a request that broke the spec. */
  cause?: string;
}

/** Which operations of the spec the checked exchanges touched. */
export interface Coverage {
  /** The operationIds touched by at least one checked exchange, sorted. */
  operations: string[];
  /** The operationIds of the spec that no checked exchange touched, sorted. */
  missing: string[];
  covered: number;
  /** The number of operations in the spec (32 today). */
  total: number;
}

/** Options of {@link createConformanceChecker}. */
export interface ConformanceCheckerOptions {
  /** Path of the OpenAPI document (YAML or JSON). */
  specPath: string;
  /** A path prefix before the spec's paths on the server under test (e.g. `/api` for `https://host/api/s2s/...`). */
  basePath?: string;
  /**
   * When a request breaks the spec, the server is right to refuse it; a finding is raised only when it accepted it
   * (each broken field), or refused it with another status than the spec allows for such a request (400, or
   * 401/429/5xx which come before validation; one `response.status` finding naming the first broken field). `strictRequests: true` reports every non-conforming request whatever the answer (for a client's
   * own traffic, as in the demo, where every request should conform).
   */
  strictRequests?: boolean;
}

/** The checker returned by {@link createConformanceChecker}. */
export interface ConformanceChecker {
  /** Checks one exchange; returns its findings and keeps them (see {@link ConformanceChecker.findings}). */
  check(exchange: Exchange): Finding[];
  /** Every finding of every exchange checked so far. */
  findings(): Finding[];
  /** How many exchanges were checked (control routes and foreign paths are skipped, not counted). */
  checked(): number;
  coverage(): Coverage;
  /** A human-readable summary: coverage, then one line per finding. */
  report(): string;
  /** The operationId a method and path (with or without query) match, or null. */
  operationOf(method: string, url: string): string | null;
}
