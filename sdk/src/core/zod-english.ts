/**
 * zod's English messages, for the issues the SDK reports: loaded with `import()` by `./zod-issues` on the first failed
 * check only.
 * @module
 * @internal
 */
import type { $ZodErrorMap } from 'zod/v4/core';
import { en } from 'zod/locales';

/** The English message map. */
export const english = (): $ZodErrorMap => en().localeError;
