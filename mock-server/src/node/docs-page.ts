/**
 * `GET /__mock/docs`: the API reference, served by the standalone server from a folder that `npm run docs` builds
 * in a clone of the repository (`docs/api/`: `http/` from the spec with Redocly, `sdk/` from the SDK's TSDoc with
 * TypeDoc). The package does not ship it (a few megabytes); the server serves it only when given the folder
 * (`docsDir`, CLI `--docs <dir>`; `npm run mock` passes `docs/api`). Without it, or before it is built, the page
 * says how to get it. Read-only, GET only, nothing outside the folder.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Outcome, Pipeline } from '../pipeline/index.js';
import type { Reply } from '../pipeline/reply.js';

const PREFIX = '/__mock/docs';

/** The two references and where each is in the folder. */
const PARTS = [
  {
    path: 'http/index.html',
    title: 'HTTP API',
    about: 'every operation, schema, status and error code, from spec/openapi.yaml (Redocly)',
  },
  {
    path: 'sdk/index.html',
    title: 'SDK',
    about: "card-issuing-sdk's functions, classes and types, from its TSDoc (TypeDoc)",
  },
] as const;

// Redoc and TypeDoc pages carry inline scripts and styles (and Redoc a blob: worker); everything else stays local.
const CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function reply(status: number, contentType: string, body: string | Buffer): Reply {
  const headers = {
    'content-type': contentType,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
  // A Reply's body is text; a binary asset goes out as a one-chunk stream instead.
  if (typeof body === 'string') return { status, headers, body };
  const bytes = new Uint8Array(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return { status, headers: { ...headers, 'content-length': String(bytes.byteLength) }, body: '', stream };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The landing page: a link to each reference that is built, and the command that builds a missing one. */
async function landing(dir: string | undefined): Promise<Reply> {
  const built = dir ? await Promise.all(PARTS.map((part) => isFile(join(dir, part.path)))) : PARTS.map(() => false);
  const items = PARTS.map((part, i) =>
    built[i]
      ? `<li><a href="${PREFIX}/${part.path}">${part.title}</a>: ${escapeHtml(part.about)}</li>`
      : `<li>${part.title}: not built</li>`,
  ).join('\n');
  const how = !dir
    ? '<p>This server was started without a docs folder. In a clone of the repository, run <code>npm run docs</code>, then start the mock with <code>npm run mock</code> (or pass <code>--docs docs/api</code>).</p>'
    : built.every(Boolean)
      ? ''
      : `<p>Run <code>npm run docs</code> in the repository to build the API reference into <code>${escapeHtml(dir)}</code>; this page serves it without a restart.</p>`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>card-issuing API reference</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{background:#f2f2f2;padding:0 .25em}</style></head>
<body>
<h1>card-issuing API reference</h1>
<ul>
${items}
</ul>
${how}
<p><a href="/__mock/ui">The inspector</a> shows the state of this mock.</p>
</body>
</html>
`;
  return reply(200, 'text/html; charset=utf-8', html);
}

/** A file of the folder, or undefined when there is none at that path (or the path leaves the folder). */
async function file(dir: string, rest: string): Promise<Reply | undefined> {
  let relative: string;
  try {
    relative = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  const path = normalize(join(dir, relative.endsWith('/') ? `${relative}index.html` : relative));
  if (path !== dir && !path.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return undefined;
  if (!(await isFile(path))) return undefined;
  const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const bytes = await readFile(path);
  return type.startsWith('text/') || type === 'application/json' || type === 'image/svg+xml'
    ? reply(200, type, bytes.toString('utf8'))
    : reply(200, type, bytes);
}

/**
 * The pipeline with the API reference in front: GET `/__mock/docs` and below are answered from `dir`,
 * or with a page that says how to build or serve it; everything else goes to the pipeline untouched.
 */
export function withDocsPage(pipeline: Pipeline, dir: string | undefined): Pipeline {
  const root = dir === undefined ? undefined : resolve(dir);
  return {
    // Not async: a request that is not the reference's gets the pipeline's own promise, no extra turn.
    handle(request) {
      const { method, pathname } = request;
      if ((method === 'GET' || method === 'HEAD') && (pathname === PREFIX || pathname.startsWith(`${PREFIX}/`)))
        return docsOutcome(root, pathname.slice(PREFIX.length + 1));
      return pipeline.handle(request);
    },
  };
}

/** The answer of a GET of the reference: its landing page, one of its files, or a 404. */
async function docsOutcome(root: string | undefined, rest: string): Promise<Outcome> {
  if (rest === '' || rest === 'index.html') return { kind: 'reply', reply: await landing(root) };
  const found = root ? await file(root, rest) : undefined;
  return {
    kind: 'reply',
    reply: found ?? reply(404, 'text/plain; charset=utf-8', `Not in the API reference: ${rest}. See ${PREFIX}.\n`),
  };
}
