/**
 * `card-issuing-sdk/schemas`: the spec's zod schemas (zod/mini, generated from `spec/openapi.yaml`: `schemas.zUser`,
 * `schemas.zCardDetails`, `schemas.zProblem`, ... and each by name), the same the client validates with, and
 * {@link errorFromResponse}, which reads a problem with them at once. Their own entry so that the root entry never
 * loads zod: a bundler that splits code (esbuild, Vite) would load, up front, every module the root imports, and the
 * client loads validation with import() only when it validates.
 * @module card-issuing-sdk/schemas
 */
export * as schemas from '../generated/zod.gen';
export * from '../generated/zod.gen';
export { errorFromResponse, type ErrorResponseInput } from './core/errors/from-response';
