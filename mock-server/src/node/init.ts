/**
 * `card-issuing-mock init <publicDir> [--inspector]`: puts msw's service worker script where the front-end dev server
 * serves static files, as `msw init <publicDir>` does, and with `--inspector` the inspector page beside it. The script comes from the installed msw package, so it always
 * matches the msw version the browser entry runs with.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { INSPECTOR_HTML, inspectorAssets } from './inspector-page.js';

/** The worker script's file name; `startBrowserMock` loads `/mockServiceWorker.js` by default. */
export const WORKER_SCRIPT = 'mockServiceWorker.js';

/**
 * Copies msw's `mockServiceWorker.js` into `publicDir` (created when missing) and returns the written path.
 * `resolveFrom` is where msw is looked up from (a file URL or path; default: this module).
 */
export async function copyWorkerScript(publicDir: string, resolveFrom: string): Promise<string> {
  let source: string;
  try {
    source = createRequire(resolveFrom).resolve(`msw/${WORKER_SCRIPT}`);
  } catch {
    throw new Error(
      'Cannot find the msw package, which holds the worker script: install it with `npm install -D msw`.',
    );
  }
  const folder = resolve(publicDir);
  await mkdir(folder, { recursive: true });
  const target = join(folder, WORKER_SCRIPT);
  await copyFile(source, target);
  return target;
}

/** Where `init --inspector` puts the inspector page, under the public folder (served as `/__mock/ui/index.html`). */
export const INSPECTOR_FOLDER = '__mock/ui';

/**
 * Writes the inspector page (`index.html`, its script and stylesheet, from this package's build) into
 * `publicDir/__mock/ui/`, for `startBrowserMock({ inspector: true })`; returns the folder.
 */
export async function copyInspectorPage(publicDir: string): Promise<string> {
  const assets = await inspectorAssets();
  if (!assets) throw new Error('The inspector page is not built: run `npm run build` in card-issuing-mock.');
  const folder = join(resolve(publicDir), INSPECTOR_FOLDER);
  await mkdir(folder, { recursive: true });
  await Promise.all([
    writeFile(join(folder, 'index.html'), INSPECTOR_HTML),
    writeFile(join(folder, 'app.js'), assets.js),
    writeFile(join(folder, 'app.css'), assets.css),
  ]);
  return folder;
}
