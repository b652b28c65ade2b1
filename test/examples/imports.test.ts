/**
 * The examples are what integrators copy: they import the packages by their public names only, never a source path
 * of the SDK, the mock or the contract package (which a consumer of the packages does not have).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

/** The examples' TypeScript files (examples/*.ts and examples/support/**), not the browser page, which has its own. */
function exampleFiles(dir = repoPath('examples')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'browser' ? [] : exampleFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const specifiers = (source: string): string[] =>
  [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => (m[1] ?? m[2])!);

describe('examples import only public entries', () => {
  const files = exampleFiles();

  it('there is one example file per flow, plus the demo entry', () => {
    const names = files.map((f) => relative(repoPath('examples'), f)).filter((f) => !f.startsWith('support'));
    expect(names.sort()).toEqual([
      'business-lifecycle.ts',
      'card-details.ts',
      'card-issuing.ts',
      'registration.ts',
      'run-all.ts',
      's2s-deposit.ts',
      'wallet-app-deposit.ts',
    ]);
  });

  it.each(files.map((f) => [relative(repoPath('.'), f), f]))(
    '%s names the SDK, the mock and the contract package by their public entries',
    (_name, file) => {
      const used = specifiers(readFileSync(file, 'utf8'));
      expect(used.length).toBeGreaterThan(0);
      for (const specifier of used) {
        expect(specifier, 'a source path of the SDK or the mock').not.toMatch(
          /(^|\/)(sdk|mock-server|contract)\/(src|generated)\b/,
        );
        if (specifier.startsWith('card-issuing-'))
          expect([
            'card-issuing-sdk',
            'card-issuing-mock',
            'card-issuing-mock/node',
            'card-issuing-mock/control',
            'card-issuing-contract/conformance',
          ]).toContain(specifier);
      }
    },
  );
});
