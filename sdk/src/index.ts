/**
 * card-issuing-sdk: the root entry. Types and zod schemas come from the spec through the generated code.
 * @packageDocumentation
 */
export * from '../generated/index';
export * as schemas from '../generated/zod.gen';
