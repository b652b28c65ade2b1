import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * Serves msw's worker script at `/mockServiceWorker.js` (dev and preview) and emits it with the build, straight
 * from the installed msw, so the worker can never lag behind the library. An app outside this repository runs
 * `npx card-issuing-mock init public` instead.
 */
function mswWorkerScript(): Plugin {
  const source = () => readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
  const serve: NonNullable<Plugin['configureServer']> = (server) => {
    server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
      res.setHeader('content-type', 'text/javascript');
      res.end(source());
    });
  };
  return {
    name: 'msw-worker-script',
    configureServer: serve,
    configurePreviewServer: serve as NonNullable<Plugin['configurePreviewServer']>,
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source: source() });
    },
  };
}

// The page imports the packages by their public names; inside this repository tsconfig.json's paths point them at
// the sources, so the example needs no build of the packages first.
export default defineConfig({
  root: here('.'),
  resolve: { tsconfigPaths: true },
  plugins: [mswWorkerScript()],
  build: { outDir: here('dist'), emptyOutDir: true, target: 'es2023' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  logLevel: 'warn',
});
