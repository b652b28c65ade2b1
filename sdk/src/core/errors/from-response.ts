/**
 * From a non-2xx response to its typed error, for the client (loaded with import() on its first error response, so
 * that a page whose calls succeed never loads zod for it) and for code that has a response of its own
 * (`errorFromResponse`, from `card-issuing-sdk/schemas`): the problem+json body checked with the generated
 * `zProblem`, the class by status, the code and words from the problem, everything the server said redacted first,
 * `Retry-After`, and a hint on a signature mismatch.
 * @module
 */
import * as z from 'zod/mini';
import type { Problem } from '../../../generated/types.gen';
import { zProblem } from '../../../generated/zod/zProblem.gen';
import { CardIssuingError, type CardIssuingErrorInit, type FieldError } from './base';
import {
  AuthenticationError,
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './classes';
import { parseRetryAfter } from '../retry-after';
import { redactDeep } from './redaction';

/**
 * Builds the typed error of a non-2xx response from its problem+json body (validated with the generated
 * `zProblem`). A body that is not a problem (HTML from a proxy, empty, other JSON) still gives the right class
 * by status, with a generic code (`HTTP_<status>`). A problem some of whose members are malformed (a string `status`,
 * a numeric `code`) gives the same class with the members that could be read, and its detail names the others.
 */
export function errorFromResponse(input: ErrorResponseInput): CardIssuingError {
  return errorFromProblem(input, readProblem(input.body));
}

/** What {@link errorFromResponse} needs: the status, headers and raw text of a non-2xx response. */
export interface ErrorResponseInput {
  status: number;
  headers: Headers;
  /** The body as received (problem+json, other JSON, text, or nothing). */
  body: unknown;
  /** Texts to blank out of anything the server said (the api secret, the Authorization header), defence in depth. */
  redact?: readonly string[];
  /** The string the client signed; compared with the mock's expected `stringToSign` on a signature mismatch. */
  signedString?: string;
  /**
   * How the client's secret became its key, and whether the secret reads as base64: on a signature mismatch that the
   * string does not explain, the other encoding is worth trying.
   */
  secret?: { encoding: 'utf8' | 'base64'; looksBase64: boolean };
}

/** {@link errorFromResponse} for a body already read by {@link readProblem}. */
function errorFromProblem(input: ErrorResponseInput, read: ReadProblem): CardIssuingError {
  // Everything the server said is redacted before it is used anywhere (every member, paths and extensions too).
  const problem: Problem | undefined = read.problem ? redactDeep(read.problem, input.redact) : undefined;
  // A problem whose code this SDK version does not know (a newer server added it): its words, not its code; or one
  // with malformed members: those that could be read.
  let newer: Omit<PartialProblem, 'malformed'> | undefined;
  if (read.newer) {
    const { code, title, detail, type, requestId } = redactDeep(read.newer, input.redact);
    newer = { code, title, detail: `${detail ?? title} (code ${code}, unknown to this SDK version)`, type, requestId };
  } else if (read.partial) {
    const partial = redactDeep(read.partial, input.redact);
    newer = { ...partial, detail: partialDetail(input.status, partial) };
  }
  const requestId = redactDeep(
    input.headers.get('x-request-id') ?? problem?.requestId ?? newer?.requestId ?? undefined,
    input.redact,
  );
  const detail =
    problem?.detail ??
    problem?.title ??
    newer?.detail ??
    `The server answered ${input.status} without a problem+json body.`;
  const hint =
    problem?.code === 'AUTH_SIGNATURE_MISMATCH'
      ? [
          signatureMismatchHint(input.signedString, problem.stringToSign),
          encodingHint(input.signedString, problem.stringToSign, input.secret),
        ]
          .filter(Boolean)
          .join(' ')
      : '';
  const init: CardIssuingErrorInit = {
    status: input.status,
    // A code this version does not know is kept as it came (the spec tells clients to tolerate new codes).
    code: problem?.code ?? newer?.code ?? `HTTP_${input.status}`,
    detail: hint ? `${detail} ${hint}` : detail,
    errors: problem?.errors ?? newer?.errors,
    requestId,
    type: problem?.type ?? newer?.type,
    title: problem?.title ?? newer?.title,
    problem,
    redact: input.redact,
  };
  switch (input.status) {
    case 400:
      return new ValidationError(init);
    case 401:
      return new AuthenticationError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new BusinessRuleError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfter: parseRetryAfter(input.headers.get('retry-after')) });
    default:
      return input.status >= 500 ? new ServerError(init) : new CardIssuingError(init);
  }
}

/**
 * What a signature mismatch comes from, when the server (the mock, never production) says what it expected to be
 * signed: the same string means the secret differs; otherwise, where the two strings part. Neither string holds a
 * secret: api key, method, URL, timestamp, nonce and body hash.
 */
function signatureMismatchHint(signed: string | undefined, expected: string | undefined): string {
  if (signed === undefined || expected === undefined) return '';
  if (signed === expected) {
    return 'The server expected exactly the string that was signed, so the api secret is not the one the server holds for this api key.';
  }
  let at = 0;
  while (at < signed.length && at < expected.length && signed[at] === expected[at]) at++;
  const window = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 12), at + 24));
  return `The string signed and the one the server expected differ from character ${at}: signed ${window(signed)}, expected ${window(expected)}.`;
}

/** A partial problem's detail: its own words (or that it has none), then the members left out as malformed. */
function partialDetail(status: number, { detail, title, malformed }: PartialProblem): string {
  const words =
    detail ?? title ?? `The server answered ${status} with a problem body without a readable title or detail.`;
  return malformed.length > 0
    ? `${words} (malformed members of the problem body, left out: ${malformed.join(', ')})`
    : words;
}

/**
 * When the other secret encoding is worth trying (contract section 2): the string signed is the one expected, or the
 * server does not say (a production server never does), and the secret reads as base64 while it is used as UTF-8,
 * or it is used base64-decoded. A mismatch of the strings themselves is explained by them instead.
 */
function encodingHint(
  signed: string | undefined,
  expected: string | undefined,
  secret: { encoding: 'utf8' | 'base64'; looksBase64: boolean } | undefined,
): string {
  if (!secret || (expected !== undefined && signed !== expected)) return '';
  if (secret.encoding === 'base64') {
    return "The key was the secret's base64-decoded bytes (secretEncoding 'base64'); if the service signs with the secret's own characters, pass secretEncoding: 'utf8'.";
  }
  return secret.looksBase64
    ? "The api secret reads as base64: if the service decodes it to sign (as its C# sample does), pass secretEncoding: 'base64'."
    : '';
}

/** A problem whose `code` this SDK version does not know (a newer server added it): read for its words. */
const zNewerProblem = /* @__PURE__ */ z.extend(zProblem, {
  code: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[A-Z][A-Z0-9_]{0,63}$/)),
});

/**
 * A problem some of whose members are malformed (a string `status`, a numeric `code`, `errors` not a list): the
 * members that are well-formed, and the names of the others.
 */
interface PartialProblem {
  type?: string;
  title?: string;
  detail?: string;
  code?: string;
  requestId?: string;
  errors?: FieldError[];
  malformed: string[];
}

/** What an error body says: a problem of the spec, one with a code newer than this SDK, a partial one, or none. */
interface ReadProblem {
  problem?: Problem | undefined;
  newer?: z.infer<typeof zNewerProblem> | undefined;
  partial?: PartialProblem | undefined;
}

/** Reads an error body (JSON text or parsed) as a problem. Never throws. */
function readProblem(body: unknown): ReadProblem {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return {};
    }
  }
  const parsed = zProblem.safeParse(value);
  if (parsed.success) return { problem: parsed.data };
  const other = zNewerProblem.safeParse(value);
  if (other.success) return { newer: other.data };
  return isObject(value) && Object.keys(zProblem.shape).some((name) => name in value)
    ? { partial: readMembers(value) }
    : {};
}

/** A JSON object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Each member of a body that names problem members but is no problem, checked on its own: an absent member is
 * left absent, a malformed one is named (never a body called absent that was there). `code` may be newer than
 * this SDK, as in {@link zNewerProblem}.
 */
function readMembers(value: Record<string, unknown>): PartialProblem {
  const read: Record<string, unknown> & { malformed: string[] } = { malformed: [] };
  for (const [name, schema] of Object.entries(zNewerProblem.shape)) {
    if (value[name] === undefined) continue;
    const member = schema.safeParse(value[name]);
    if (member.success) read[name] = member.data;
    else read.malformed.push(name);
  }
  return read;
}
