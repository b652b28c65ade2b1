/**
 * Drift: how the target departs from the spec, one kind per thing a person would fix, each kept once per operation
 * and place (the first request that showed it, and how often it was seen).
 * @module
 */
import type { Finding } from '../conformance/validator';

/** The kinds of drift the proxy names. */
export type DriftKind =
  | 'undocumented-status'
  | 'problem-code-outside-set'
  | 'missing-required-field'
  | 'unexpected-field'
  | 'wrong-type-or-format'
  | 'wrong-content-type'
  | 'signature-refused'
  | 'request-breaks-spec';

/** One drift, as the report and `GET /__drift` give it. */
export interface Drift {
  kind: DriftKind;
  operationId: string | null;
  method: string;
  /** The spec's path template. */
  path: string;
  /** Where: `response.status`, `response.body/code`, `response.body/dateOfBirth`, ... */
  location: string;
  /** The field or value the drift is about: the status, the code, the field's name. */
  subject?: string;
  /** What the spec says. */
  spec: string;
  /** What the target did. */
  observed?: unknown;
  /** The first request that showed it. */
  request: string;
  /** For a refused signature: what was signed, and the likely causes. */
  signing?: { stringToSign: string; serverStringToSign?: string; likelyCauses: string[] };
  /** For the overlay: the JSON pointer of the spec schema concerned. */
  schemaPointer?: string;
  /** For an undocumented status: the response's media type. */
  mediaType?: string;
  count: number;
  firstSeen: string;
}

const quoted = (message: string): string | undefined => /'([^']+)'/.exec(message)?.[1];

/** The kind and subject of a conformance finding. */
export function classify(finding: Finding): { kind: DriftKind; subject?: string; location: string } {
  const { location, keyword, message } = finding;
  // A request that broke the spec, accepted or refused with another status than 400: the caller's to fix first.
  if (location.startsWith('request') || finding.cause !== undefined) return { kind: 'request-breaks-spec', location };
  if (location === 'response.status') return { kind: 'undocumented-status', subject: String(finding.actual), location };
  if (location === 'response.headers.content-type') return { kind: 'wrong-content-type', location };
  if (keyword === 'enum' && /^response\.body\/code$/.test(location))
    return { kind: 'problem-code-outside-set', subject: String(finding.actual), location };
  if (keyword === 'required' || message === 'is required') {
    const field = quoted(message) ?? location.replace(/^.*[./]/, '');
    return {
      kind: 'missing-required-field',
      subject: field,
      location: keyword === 'required' ? `${location}/${field}` : location,
    };
  }
  if (keyword === 'additionalProperties') {
    const field = quoted(message) ?? '';
    return { kind: 'unexpected-field', subject: field, location: `${location}/${field}` };
  }
  return { kind: 'wrong-type-or-format', location };
}

/** The drifts seen so far, deduplicated by kind, operation and place (array indexes folded). */
export class DriftLog {
  readonly #byKey = new Map<string, Drift>();

  /** Records a drift; returns it when it is new (the caller prints it), undefined when it was seen before. */
  add(drift: Omit<Drift, 'count' | 'firstSeen'>): Drift | undefined {
    const key = `${drift.kind} ${drift.method} ${drift.path} ${drift.location.replace(/\/\d+(?=\/|$)/g, '/*')}`;
    const seen = this.#byKey.get(key);
    if (seen) {
      seen.count++;
      return undefined;
    }
    const entry: Drift = { ...drift, count: 1, firstSeen: new Date().toISOString() };
    this.#byKey.set(key, entry);
    return entry;
  }

  all(): Drift[] {
    return [...this.#byKey.values()];
  }
}

/** One line for the console. */
export function driftLine(d: Drift): string {
  const observed = d.observed === undefined ? '' : `; the target sent ${JSON.stringify(d.observed)?.slice(0, 120)}`;
  return `drift ${d.kind}: ${d.operationId ?? '(no operation)'} ${d.request} at ${d.location}: ${d.spec}${observed}`;
}

/** The drift report, as `GET /__drift` and `<report>.json` give it. */
export interface DriftReport {
  tool: 'card-issuing-contract proxy';
  target: string;
  startedAt: string;
  exchanges: number;
  drifts: Drift[];
}
