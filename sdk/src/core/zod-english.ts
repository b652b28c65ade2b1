/**
 * zod's English messages, for the issues the SDK reports: loaded with `import()` by `./zod-issues` on the first failed
 * check only. Imported from its own file, not from `zod/locales`: with code splitting, esbuild put the English
 * messages (1.1 KiB gzip) in a chunk that every operation's schemas imported, so a page whose calls succeed loaded them.
 * @module
 * @internal
 */
import type { $ZodErrorMap } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

/** The English message map. */
export const english = (): $ZodErrorMap => en().localeError;
