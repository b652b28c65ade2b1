/**
 * `card-issuing-sdk/internal`: what the mock (`card-issuing-mock`) needs from the SDK beyond its public API, and
 * nothing that holds state or a class: the spec's zod schemas by their generated names (`zUser`, `zProblem`, ...).
 * Documented for the mock's use; not covered by semver for other consumers.
 * @packageDocumentation
 */
export * from '../generated/zod.gen';
