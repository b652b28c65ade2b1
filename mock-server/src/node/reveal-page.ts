/**
 * `GET /__mock/reveal`: the SDK's reveal frame (`card-issuing-sdk/reveal/frame.html`, as the package ships it), for
 * pages in development to mount with `mountCardReveal` and for the inspector's card view. Served with a
 * Content-Security-Policy that allows the frame's inline script and style by their hashes and nothing else (no
 * connection at all), sandboxes the document (an opaque origin even when opened on its own), and lets local pages
 * (and the `--cors-origin` and public origins) frame it.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Outcome, Pipeline } from '../pipeline/index.js';
import type { Reply } from '../pipeline/reply.js';

/** The path of the frame. */
export const REVEAL_PATH = '/__mock/reveal';

/** Local origins any port, as the guard allows pages to call the mock from. */
const LOCAL_ANCESTORS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*', 'https://localhost:*'];

interface Frame {
  html: string;
  csp: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The CSP of the frame's header: the meta element's rules, and what only a header can say. */
function cspOf(html: string, ancestors: readonly string[]): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "connect-src 'none'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${ancestors.join(' ')}`,
    'sandbox allow-scripts',
  ].join('; ');
}

let loading: Promise<string | undefined> | undefined;

/** The frame's page from the installed SDK, read once (a missing build is retried). */
function frameHtml(): Promise<string | undefined> {
  loading ??= (async () => {
    try {
      const path = createRequire(import.meta.url).resolve('card-issuing-sdk/reveal/frame.html');
      return await readFile(path, 'utf8');
    } catch {
      loading = undefined;
      return undefined;
    }
  })();
  return loading;
}

const MISSING =
  'The reveal frame is not built: run `npm run build` (card-issuing-sdk writes dist/reveal/frame.html).\n';

/**
 * The pipeline with the reveal frame in front: GET `/__mock/reveal` is the SDK's frame page; everything else goes
 * to the pipeline untouched. `origins` are the origins beside the local ones that may frame it.
 */
export function withRevealPage(pipeline: Pipeline, origins: readonly string[] = []): Pipeline {
  let frame: Frame | undefined;
  const ancestors = [...LOCAL_ANCESTORS, ...origins];
  return {
    // Not async: a request that is not the frame's gets the pipeline's own promise, no extra turn.
    handle(request) {
      if (request.method !== 'GET' || request.pathname !== REVEAL_PATH) return pipeline.handle(request);
      return revealOutcome();
    },
  };

  async function revealOutcome(): Promise<Outcome> {
    const html = await frameHtml();
    if (!html) return { kind: 'reply', reply: plain(503, MISSING) };
    frame ??= { html, csp: cspOf(html, ancestors) };
    const reply: Reply = {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': frame.csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      },
      body: frame.html,
    };
    return { kind: 'reply', reply };
  }
}

function plain(status: number, body: string): Reply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}
