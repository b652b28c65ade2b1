/**
 * `errorFromResponse`: the typed error of a response, for code that has a response of its own (a proxy, a test). Its
 * own module, since it reads the problem with zod at once: the client loads that reader with import() on its first
 * error response, so that zod stays out of what a page loads up front.
 * @module
 */
import type { CardIssuingError } from './base';
import { errorFromProblem, type ErrorResponseInput } from './mapping';
import { readProblem } from './problem';

/**
 * Builds the typed error of a non-2xx response from its problem+json body (validated with the generated
 * `zProblem`). A body that is not a problem (HTML from a proxy, empty, other JSON) still gives the right class
 * by status, with a generic code (`HTTP_<status>`).
 */
export function errorFromResponse(input: ErrorResponseInput): CardIssuingError {
  return errorFromProblem(input, readProblem(input.body));
}
