/**
 * The problem+json check of an error response, with the generated `zProblem`. `errorFromResponse` uses it; the
 * client loads it with import() on its first error response, so that a page's first load holds no zod.
 * @module
 * @internal
 */
import * as z from 'zod/mini';
import type { Problem } from '../../../generated/types.gen';
import { zProblem } from '../../../generated/zod.gen';

/** A problem whose `code` this SDK version does not know (a newer server added it): read for its words. */
const zNewerProblem = /* @__PURE__ */ z.extend(zProblem, {
  code: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[A-Z][A-Z0-9_]{0,63}$/)),
});

/** What an error body says: a problem of the spec, or one with a code newer than this SDK, or neither. */
export interface ReadProblem {
  problem?: Problem | undefined;
  newer?: z.infer<typeof zNewerProblem> | undefined;
}

/** Reads an error body (JSON text or parsed) as a problem. Never throws. */
export function readProblem(body: unknown): ReadProblem {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return {};
    }
  }
  const parsed = zProblem.safeParse(value);
  if (parsed.success) return { problem: parsed.data };
  const other = zNewerProblem.safeParse(value);
  return other.success ? { newer: other.data } : {};
}
