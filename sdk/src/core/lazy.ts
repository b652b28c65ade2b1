/**
 * The engine's lazy loaders: validation (zod and the generated schemas) and the mapping of an error response are
 * loaded with `import()` on first use, then shared by every client: separate chunks in a bundle, never loaded when
 * unused (a page that turns validation off never loads zod).
 * @module
 */

// Validation runs on every call: once loaded, its module is read without another await (`loadedValidation`).
let validation: typeof import('./validation') | undefined;

/** The validation module if it is loaded already (no await on the path of every call after the first). */
export const loadedValidation = (): typeof import('./validation') | undefined => validation;

/**
 * `load()` once, its promise shared by every caller; a load that fails is forgotten, so the next call tries again
 * (a chunk that did not arrive on a flaky network must not break every later call until the page reloads).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

const validationOnce = loadOnce(async () => {
  validation = await import('./validation');
  return validation;
});

/** Loads the validation module once; every later call gets the same module. */
export const loadValidation = async (): Promise<typeof import('./validation')> => validation ?? validationOnce();

// The mapping of an error response (the problem reader with zod, the classes by status, the hints) loads with the
// first error response: a page whose calls succeed never loads it.
/** Loads the mapping of an error response once (on the first error response). */
export const loadFromResponse: () => Promise<typeof import('./errors/from-response')> = loadOnce(
  () => import('./errors/from-response'),
);
