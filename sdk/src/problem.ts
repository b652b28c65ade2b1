/**
 * The problem+json check of an error response, with the generated `zProblem`: loaded by the client with
 * `import()` on the first error response, so that a client with validation off loads no zod until then.
 * @module
 * @internal
 */
import type { Problem } from '../generated/types.gen';
import { zProblem } from '../generated/zod.gen';

/** The body as a problem when it is one (JSON text or parsed), else undefined. */
export function problemOf(body: unknown): Problem | undefined {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const parsed = zProblem.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
