/**
 * `GET /__mock/ui`: the inspector page of the standalone server, same origin as the control API it calls. The
 * page is built with the package (tsup bundles it with Preact into `dist/inspector/`), so it works offline and
 * needs nothing from a CDN. It is served with a strict Content-Security-Policy: only this origin's script, style
 * and connections, and no framing.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pipeline } from '../pipeline/index.js';
import type { Reply } from '../pipeline/reply.js';
import { revealFrameOrigin } from '../inspector/reveal-origin.js';
import { REVEAL_PATH } from './reveal-page.js';

/** The page's assets: where they are relative to this module, built (dist/) or from the sources (src/node/). */
const CANDIDATES = ['./inspector/', '../../dist/inspector/'];

/** The page's CSP; it frames only the reveal frame, from this server under its other loopback name. */
function cspOf(revealOrigin: string | undefined): string {
  const frames = revealOrigin ? `${revealOrigin}${REVEAL_PATH}` : "'none'";
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src ${frames}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** The page: its script and stylesheet at /__mock/ui/ (also what `init --inspector` writes for the browser mock). */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>card-issuing-mock inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__mock/ui/app.css">
<script src="/__mock/ui/app.js" defer></script>
</head>
<body>
<div id="app"><noscript>The inspector needs JavaScript.</noscript></div>
</body>
</html>
`;

interface Assets {
  js: string;
  css: string;
}

let loading: Promise<Assets | undefined> | undefined;

async function loadAssets(): Promise<Assets | undefined> {
  for (const candidate of CANDIDATES) {
    try {
      const dir = fileURLToPath(new URL(candidate, import.meta.url));
      const [js, css] = await Promise.all([readFile(`${dir}app.js`, 'utf8'), readFile(`${dir}app.css`, 'utf8')]);
      return { js, css };
    } catch {
      // Not here: try the next place.
    }
  }
  return undefined;
}

/** The page's assets, read once (undefined when the package is not built). */
export function inspectorAssets(): Promise<Assets | undefined> {
  loading ??= loadAssets().then((found) => {
    // A missing build is not cached: `npm run build` in another terminal fixes it without a restart.
    if (!found) loading = undefined;
    return found;
  });
  return loading;
}

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

function reply(status: number, contentType: string, body: string, csp = cspOf(undefined)): Reply {
  return { status, headers: { 'content-type': contentType, 'content-security-policy': csp, ...SECURITY }, body };
}

const MISSING = 'The inspector page is not built: run `npm run build` (it writes dist/inspector/).\n';

/** The page at `/__mock/ui` (and `/__mock/ui/`), its script and its stylesheet, or undefined for another path. */
async function page(pathname: string, url: URL): Promise<Reply | undefined> {
  if (pathname === '/__mock/ui' || pathname === '/__mock/ui/')
    return reply(200, 'text/html; charset=utf-8', INSPECTOR_HTML, cspOf(revealFrameOrigin(url)));
  if (pathname !== '/__mock/ui/app.js' && pathname !== '/__mock/ui/app.css') return undefined;
  const found = await inspectorAssets();
  if (!found) return reply(503, 'text/plain; charset=utf-8', MISSING);
  return pathname.endsWith('.js')
    ? reply(200, 'text/javascript; charset=utf-8', found.js)
    : reply(200, 'text/css; charset=utf-8', found.css);
}

/**
 * The pipeline with the inspector page in front: GET `/__mock/ui`, its script and stylesheet are answered from
 * the package's files; everything else goes to the pipeline untouched.
 */
export function withInspectorPage(pipeline: Pipeline): Pipeline {
  return {
    // Not async: a request that is not the page's gets the pipeline's own promise, no extra turn.
    handle(request) {
      if (request.method !== 'GET' || !request.pathname.startsWith('/__mock/ui')) return pipeline.handle(request);
      return page(request.pathname, new URL(request.url)).then((found) =>
        found ? { kind: 'reply', reply: found } : pipeline.handle(request),
      );
    },
  };
}
