import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

// These read dist/, which `npm test` builds first (npm run build).
const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { cwd: repoPath('.'), encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
};

/** Every file an ESM build file loads, following relative imports into shared chunks. */
function importGraph(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
      if (!specifier) continue;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else bare.add(specifier);
    }
  };
  visit(repoPath(entry));
  return { files: [...files], bare: [...bare].sort() };
}

describe('the package', () => {
  it('is built: every export target exists', () => {
    const pkg = JSON.parse(readFileSync(repoPath('package.json'), 'utf8'));
    const targets = JSON.stringify(pkg.exports).match(/\.\/dist\/[^"]+/g)!;
    for (const target of [...targets, pkg.bin['card-issuing-mock']]) expect(existsSync(repoPath(target)), target).toBe(true);
  });

  // ky 2 and msw 3 ship ESM only, so a CommonJS consumer relies on Node 22's require(esm), which TypeScript
  // models as module node20; engines.node >=22 guarantees it.
  it('type-checks a consumer of every entry under moduleResolution bundler and node16, and from CommonJS', () => {
    for (const project of ['bundler', 'node16', 'cjs']) {
      const { status, output } = run('npx', ['tsc', '-p', `test/fixtures/consumer/tsconfig.${project}.json`]);
      expect(status, `${project}: ${output}`).toBe(0);
    }
  });

  it('never loads msw from the root entry, and nothing node-only from the root or ./mock entries', () => {
    const root = importGraph('dist/index.js');
    expect(root.bare.filter((s) => s === 'msw' || s.startsWith('msw/'))).toEqual([]);
    expect(root.bare.filter((s) => s.startsWith('node:'))).toEqual([]);
    const mock = importGraph('dist/mock.js');
    expect(mock.bare.filter((s) => s.startsWith('node:') || s === 'msw/node')).toEqual([]);
  });

  it('passes publint and @arethetypeswrong/cli --pack with no problems', () => {
    const publint = run('npx', ['publint', '--strict']);
    expect(publint.status, publint.output).toBe(0);
    expect(publint.output).toMatch(/All good/);
    const attw = run('npx', ['attw', '--pack', '.', '--profile', 'node16']);
    // Exit 0 under the node16 profile: no problem for node16 (CJS and ESM) or bundler. node10 is ignored on
    // purpose: it cannot see subpath exports, and engines.node >=22 rules it out.
    expect(attw.status, attw.output).toBe(0);
    expect(attw.output).not.toMatch(/🔴|❌|🐛|🥴|🎭|❗️|⚠️/u);
  });
});
