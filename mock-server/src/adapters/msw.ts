/**
 * The msw adapter: the pipeline as msw request handlers, for `setupServer` in tests and `setupWorker` in the
 * browser (the mock stays MSW-based where users meet MSW). One handler answers every request the pipeline calls
 * its own; anything else falls through to the next handler or to the network, untouched.
 * @module
 */
import { http, type HttpHandler } from 'msw';
import type { Pipeline } from '../pipeline';
import { fromFetchRequest } from '../pipeline/request';
import { toResponse } from '../pipeline/reply';

/** The msw handlers of a pipeline, matching under `baseUrl` (any origin when undefined). */
export function mswHandlers(pipeline: Pipeline, baseUrl: string | undefined): HttpHandler[] {
  const pattern = baseUrl === undefined ? '*' : `${baseUrl.replace(/\/+$/, '')}/*`;
  return [
    http.all(pattern, async ({ request }) => {
      const outcome = await pipeline.handle(await fromFetchRequest(request));
      if (outcome.kind === 'pass') return undefined;
      if (outcome.kind === 'network-error') return Response.error();
      return toResponse(outcome.reply);
    }),
  ];
}
