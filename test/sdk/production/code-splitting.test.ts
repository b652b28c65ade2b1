/**
 * What a page loads up front with code splitting (esbuild `splitting: true` and a Vite production build, as
 * bench/split-bundles.ts builds them): a page that only creates a client loads no zod, no schemas and no card-detail
 * code until it validates or reads card details. A module the root entry imports and the client also loads with
 * import() would be loaded up front by a splitting bundler; this is what keeps it out. Sizes are bench:sdk's.
 */
import { describe, expect, it } from 'vitest';
import { esbuildSplit, viteSplit, type SplitBuild } from '../../../bench/split-bundles';
import { repoPath } from '../../helpers/spec';

const page = `import { createCardIssuingClient } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
  (globalThis as any).client = createCardIssuingClient({ baseUrl: 'https://api.example', apiKey: 'k', apiSecret: 's' });`;

/** The source modules of the chunks loaded up front (the entry and its static imports). */
function upFront(build: SplitBuild): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    build.chunks.get(file)!.imports.forEach(visit);
  };
  visit(build.entry);
  return [...seen].flatMap((file) => build.chunks.get(file)!.modules);
}

describe.each([
  ['esbuild', esbuildSplit],
  ['Vite', viteSplit],
] as const)('%s, split', (_name, split) => {
  it('loads ky and the client up front, and no zod, schemas or card-detail code', async () => {
    const modules = upFront(await split(page));
    expect(modules.some((m) => m.includes('node_modules/ky/'))).toBe(true);
    expect(modules.some((m) => m.includes('sdk/src/client.ts'))).toBe(true);
    for (const absent of [
      'node_modules/zod/',
      'sdk/generated/zod.gen.ts',
      'sdk/generated/zod/',
      'sdk/src/card-details/decrypt.ts',
      'sdk/src/card-details/keys.ts',
      'sdk/src/core/errors/from-response.ts',
    ]) {
      expect(
        modules.filter((m) => m.includes(absent)),
        absent,
      ).toEqual([]);
    }
  }, 60_000);
});
