/** Debian's Chromium for the browser tests, launched headless through playwright-core (no browser download). */
import { existsSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { repoPath } from './spec';

/** The Chromium binary: `CHROME_PATH`, or Debian's `/usr/bin/chromium` (scripts/ensure-chromium.sh installs it). */
export function chromePath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(`No Chromium at ${candidates.join(' or ')}: run scripts/ensure-chromium.sh or set CHROME_PATH`);
  return found;
}

/**
 * Chromium's flags for every browser test: --no-sandbox because CI runs as root; without the background-networking
 * ones Chromium dials Google's hosts, which a closed network refuses.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium, quiet (no first-run, sync or background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromePath(), headless: true, args: CHROMIUM_ARGS });
}

/** A page's script (TypeScript importing the repo's sources by path) bundled for the browser as one classic script. */
export async function bundlePageScript(contents: string): Promise<string> {
  const bundle = await esbuild.build({
    stdin: { contents, resolveDir: repoPath('.'), loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2023',
    write: false,
    logLevel: 'silent',
  });
  return bundle.outputFiles[0]!.text;
}
