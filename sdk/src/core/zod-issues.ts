/**
 * The issues of a failed zod parse as the SDK reports them: `{ path, message }` with English messages. The
 * generated schemas are zod/mini, which ships no messages of its own ("Invalid input" for everything); the English
 * locale is passed per parse, and only when the application has not configured zod's messages itself
 * (`z.config(...)`), so the SDK never changes zod's global configuration.
 * @module
 * @internal
 */
import { globalConfig, safeParse, type $ZodErrorMap, type $ZodType } from 'zod/v4/core';
import { en } from 'zod/locales';

/** One failed check: where (zod's path segments) and why. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

let english: $ZodErrorMap | undefined;

/** The application's zod messages when it set any, else English. */
const messages: $ZodErrorMap = (issue) => {
  const chosen = globalConfig.customError ?? globalConfig.localeError;
  if (chosen) return chosen(issue);
  english ??= en().localeError;
  return english(issue);
};

/** The issues of `value` against `schema`, or undefined when it is valid. Synchronous: no schema of the spec is async. */
export function issuesOf(schema: $ZodType, value: unknown): Issue[] | undefined {
  const result = safeParse(schema, value, { error: messages });
  if (result.success) return undefined;
  return result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

/** A zod path as a reader writes it: `items[0].status`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}
