/**
 * `card-issuing-contract/conformance`: the independent conformance checker as a library (Ajv on the raw spec, no
 * code shared with the SDK or the mock), and a `fetch` that feeds it every exchange it makes. The demo uses it, and
 * anyone who wants to check recorded traffic against the spec.
 * @packageDocumentation
 */
export {
  createConformanceChecker,
  type ConformanceChecker,
  type ConformanceCheckerOptions,
  type Exchange,
  type Finding,
} from './validator';
export { createRecordingFetch } from './recording-fetch';
