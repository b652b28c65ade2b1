/**
 * The issues of a failed zod parse as the SDK reports them: `{ path, message }` with English messages. The
 * generated schemas are zod/mini, which ships no messages of its own ("Invalid input" for everything). A value is
 * parsed without any message map (the path of every valid call); only when it fails, and only when the application
 * has not configured zod's messages itself (`z.config(...)`), is the English locale loaded and the value parsed
 * again with it, so the SDK never changes zod's global configuration and a page whose calls succeed never loads it.
 * @module
 * @internal
 */
import { globalConfig, safeParse, type $ZodErrorMap, type $ZodType } from 'zod/v4/core';
import { loadOnce } from '../load-once';

/** One failed check: where (zod's path segments) and why. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** zod's English messages, loaded on the first failed check (their own chunk in a bundle). */
const english = loadOnce(async (): Promise<$ZodErrorMap> => (await import('./zod-english')).english());

/** Whether `value` passes `schema`: zod's runtime check, where no compiled one is at hand. */
export const isValid = (schema: $ZodType, value: unknown): boolean => safeParse(schema, value).success;

/** The issues of `value` against `schema`, or undefined when it is valid. No schema of the spec is async. */
export async function issuesOf(schema: $ZodType, value: unknown): Promise<Issue[] | undefined> {
  const first = safeParse(schema, value);
  if (first.success) return undefined;
  const own = globalConfig.customError ?? globalConfig.localeError;
  const result = own ? first : safeParse(schema, value, { error: await english() });
  if (result.success) return undefined; // cannot be: the same schema and value
  return result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

/** A zod path as a reader writes it: `items[0].status`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}
