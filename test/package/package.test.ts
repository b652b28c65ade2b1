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

const PACKAGES = ['sdk', 'mock-server'] as const;

describe('the packages', () => {
  it.each(PACKAGES)('%s is built: every export target exists', (folder) => {
    const pkg = JSON.parse(readFileSync(repoPath(`${folder}/package.json`), 'utf8'));
    const targets = JSON.stringify(pkg.exports).match(/\.\/dist\/[^"]+/g)!;
    for (const target of [...targets, ...Object.values<string>(pkg.bin ?? {})]) expect(existsSync(repoPath(join(folder, target))), target).toBe(true);
  });

  it('share one version, and the mock depends on exactly that SDK version and never the SDK on msw', () => {
    const sdk = JSON.parse(readFileSync(repoPath('sdk/package.json'), 'utf8'));
    const mock = JSON.parse(readFileSync(repoPath('mock-server/package.json'), 'utf8'));
    expect(mock.version).toBe(sdk.version);
    expect(mock.dependencies['card-issuing-sdk']).toBe(sdk.version);
    expect(Object.keys({ ...sdk.dependencies, ...sdk.peerDependencies })).not.toContain('msw');
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
    const root = importGraph('sdk/dist/index.js');
    expect(root.bare.filter((s) => s === 'msw' || s.startsWith('msw/'))).toEqual([]);
    expect(root.bare.filter((s) => s.startsWith('node:'))).toEqual([]);
    const mock = importGraph('mock-server/dist/index.js');
    expect(mock.bare.filter((s) => s.startsWith('node:') || s === 'msw/node')).toEqual([]);
  });

  it.each(PACKAGES)('%s passes publint and @arethetypeswrong/cli --pack with no problems', (folder) => {
    const publint = run('npx', ['publint', '--strict', folder]);
    expect(publint.status, publint.output).toBe(0);
    expect(publint.output).toMatch(/All good/);
    const attw = run('npx', ['attw', '--pack', folder, '--profile', 'node16']);
    // Exit 0 under the node16 profile: no problem for node16 (CJS and ESM) or bundler. node10 is ignored on
    // purpose: it cannot see subpath exports, and engines.node >=22 rules it out.
    expect(attw.status, attw.output).toBe(0);
    expect(attw.output).not.toMatch(/🔴|❌|🐛|🥴|🎭|❗️|⚠️/u);
  });
});
