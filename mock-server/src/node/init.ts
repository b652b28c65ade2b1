/**
 * `card-issuing-mock init <publicDir>`: puts msw's service worker script where the front-end dev server serves
 * static files, as `msw init <publicDir>` does. The script comes from the installed msw package, so it always
 * matches the msw version the browser entry runs with.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

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
