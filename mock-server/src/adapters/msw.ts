/**
 * The msw adapter: the pipeline as msw request handlers, for `setupServer` in tests and `setupWorker` in the
 * browser (the mock stays MSW-based where users meet MSW). One handler answers every request the pipeline calls
 * its own; anything else falls through to the next handler or to the network, untouched.
 * @module
 */
import { getResponse, http, isPassthroughResponse, type HttpHandler, type RequestHandler } from 'msw';
import type { Pipeline } from '../pipeline';
import { fromFetchRequest } from '../pipeline/request';
import { toResponse } from '../pipeline/reply';

/**
 * The msw handlers of a pipeline, matching under `baseUrl` (any origin when undefined). `used` are the handlers
 * `mock.use()` added: tried first, newest first, as msw's `server.use` puts its handlers before the initial ones, so
 * that they work whichever runner serves the mock (setupServer, the fetch of the test setups, the service worker).
 */
export function mswHandlers(
  pipeline: Pipeline,
  baseUrl: string | undefined,
  used: readonly RequestHandler[] = [],
): HttpHandler[] {
  const pattern = baseUrl === undefined ? '*' : `${baseUrl.replace(/\/+$/, '')}/*`;
  return [
    http.all(pattern, async ({ request }) => {
      if (used.length > 0) {
        // A handler that answers nothing, or passes through, lets the mock answer.
        const answered = await getResponse([...used], request.clone());
        if (answered && !isPassthroughResponse(answered)) return answered;
      }
      const outcome = await pipeline.handle(await fromFetchRequest(request));
      if (outcome.kind === 'pass') return undefined;
      if (outcome.kind === 'network-error') return Response.error();
      return toResponse(outcome.reply);
    }),
  ];
}
