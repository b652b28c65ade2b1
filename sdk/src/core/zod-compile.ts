/**
 * zod's compiled validators (`compile`, zod 4.6+): a function generated once per schema that answers valid or not
 * without building the parsed copy a parse makes, about a seventh of a parse's time for a user. Loaded with
 * `import()` by `./validation` on servers only (Node, Bun, Deno): a browser page never downloads the compiler, and
 * never runs `new Function`, which a Content-Security-Policy may forbid. A schema the compiler cannot model keeps
 * zod's runtime check (`compile` gives it back unchanged).
 * @module
 * @internal
 */
import { compile, type $ZodType, validate } from 'zod/v4/core';

/** A check of `schema`: true when a value passes it. A false is confirmed by zod's runtime before it is reported. */
export function compiledCheck(schema: $ZodType): (value: unknown) => boolean {
  const compiled = compile(schema);
  return (value) => validate(compiled, value);
}
