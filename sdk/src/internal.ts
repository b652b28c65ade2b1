/**
 * `card-issuing-sdk/internal`: what the mock (`card-issuing-mock`) needs from the SDK beyond its public API, and
 * nothing that holds state or a class: the spec's zod schemas by their generated names (`zUser`, `zProblem`, ...),
 * in classic zod (the mock composes them with methods), generated into sdk/generated-classic/ from the same spec
 * as the SDK's own zod/mini schemas. Documented for the mock's use; not covered by semver for other consumers.
 * @packageDocumentation
 */
export * from '../generated-classic/zod.gen';
