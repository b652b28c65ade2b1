/**
 * The engine's lazy loaders: validation (zod and the generated schemas) and the mapping of an error response are
 * loaded with `import()` on first use, then shared by every client: separate chunks in a bundle, never loaded when
 * unused (a page that turns validation off never loads zod).
 * @module
 */

// Validation runs on every call: once loaded, its module is read without another await (`loadedValidation`).
let validation: typeof import('./validation') | undefined;
let validationLoad: Promise<typeof import('./validation')> | undefined;

/** The validation module if it is loaded already (no await on the path of every call after the first). */
export const loadedValidation = (): typeof import('./validation') | undefined => validation;

/** Loads the validation module once; every later call gets the same module. */
export const loadValidation = async (): Promise<typeof import('./validation')> => {
  validationLoad ??= import('./validation').then((module) => {
    validation = module;
    return module;
  });
  return validation ?? validationLoad;
};

// The mapping of an error response (the problem reader with zod, the classes by status, the hints) loads with the
// first error response: a page whose calls succeed never loads it.
let fromResponse: Promise<typeof import('./errors/from-response')> | undefined;

/** Loads the mapping of an error response once (on the first error response). */
export const loadFromResponse = (): Promise<typeof import('./errors/from-response')> =>
  (fromResponse ??= import('./errors/from-response'));
