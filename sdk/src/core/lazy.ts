/**
 * The engine's lazy chunks: validation (zod and the generated schemas) and the reader of an error response are
 * loaded with `import()` on first use, then shared by every client: separate chunks in a bundle, never loaded when
 * unused (a page that turns validation off never loads zod; a page whose calls succeed never loads the reader).
 * @module
 */
import { loadOnce } from '../load-once';

// Validation runs on every call: once loaded, its module is read without another await (`loadedValidation`).
let validation: typeof import('./validation-chunk') | undefined;

/** The validation chunk if it is loaded already (no await on the path of every call after the first). */
export const loadedValidation = (): typeof import('./validation-chunk') | undefined => validation;

const validationOnce = loadOnce(async () => {
  validation = await import('./validation-chunk');
  return validation;
});

/** Loads the validation chunk (`./validation-chunk`: `./validation` and its reports) once; every later call gets it. */
export const loadValidation = async (): Promise<typeof import('./validation-chunk')> => validation ?? validationOnce();

// The error-response chunk, once loaded: what a retry reads synchronously (`Retry-After`).
let errorResponse: typeof import('./error-response') | undefined;

/** The error-response chunk if it is loaded already (it is once an error response has been read). */
export const loadedErrorResponse = (): typeof import('./error-response') | undefined => errorResponse;

/** Loads the reader of an error response once (on the first error response), with what only such a response needs. */
export const loadErrorResponse: () => Promise<typeof import('./error-response')> = loadOnce(async () => {
  errorResponse = await import('./error-response');
  return errorResponse;
});
