import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

// What the two package.json files promise, checked without building anything (npm test does not build). What the
// packed tarballs hold and do (exports resolving, publint, attw, one copy of every class, every consumer) is checked
// by npm run test:consumers.
interface Manifest {
  name: string;
  version: string;
  type?: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  files: string[];
  sideEffects: boolean | string[];
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = (folder: string) => JSON.parse(readFileSync(repoPath(`${folder}/package.json`), 'utf8')) as Manifest;
const sdk = manifest('sdk');
const mock = manifest('mock-server');

describe('the packages', () => {
  it('share one version; the mock depends on exactly that SDK, and on the same zod range, so npm installs one of each', () => {
    expect(mock.version).toBe(sdk.version);
    expect(mock.dependencies['card-issuing-sdk']).toBe(sdk.version);
    expect(mock.dependencies.zod).toBe(sdk.dependencies.zod);
  });

  it('the SDK never depends on msw, in any kind of dependency', () => {
    expect(Object.keys({ ...sdk.dependencies, ...sdk.peerDependencies })).not.toContain('msw');
    expect(Object.keys(sdk.dependencies).sort()).toEqual(['ky', 'node-forge', 'zod']);
  });

  it.each([
    ['card-issuing-sdk', sdk, ['.', './server', './schemas', './reveal'], []],
    [
      'card-issuing-mock',
      mock,
      ['.', './node', './browser', './control', './vitest', './jest', './jest-environment-jsdom', './playwright'],
      ['scenario.schema.json'],
    ],
  ] as const)(
    '%s exports each entry to import and require, each with its own declarations in dist/',
    (name, pkg, entries, jsonFiles) => {
      expect(pkg.name).toBe(name);
      // JSON files (the scenario schema) are exported as themselves, and shipped beside dist/; the reveal frame is an
      // HTML page to serve, not a module (below).
      for (const file of jsonFiles) expect(pkg.exports[`./${file}`]).toBe(`./${file}`);
      const modules = Object.keys(pkg.exports).filter((key) => key !== './package.json' && !/\.(json|html)$/.test(key));
      expect(modules).toEqual(entries);
      const built = (base: string) => ({
        import: { types: `./dist/${base}.d.ts`, default: `./dist/${base}.js` },
        require: { types: `./dist/${base}.d.cts`, default: `./dist/${base}.cjs` },
      });
      for (const entry of entries) {
        const base = entry === '.' ? 'index' : entry.slice(2);
        if (name === 'card-issuing-mock' && entry === './browser') {
          // A server (Node, React Server Components) gets the inert build; a browser bundler the real one. The
          // first matching condition wins, so "browser" comes before "node" (a bundler for the browser may set both).
          const browser = pkg.exports[entry] as Record<string, unknown>;
          expect(Object.keys(browser)).toEqual(['react-server', 'browser', 'node', 'import', 'require']);
          expect(browser).toEqual({
            'react-server': built('browser-server'),
            browser: built('browser'),
            node: built('browser-server'),
            ...built('browser'),
          });
          continue;
        }
        expect(pkg.exports[entry], entry).toEqual(built(base));
      }
      expect(pkg.files).toEqual(['dist', ...jsonFiles, 'README.md']);
    },
  );

  it('the SDK exports the reveal frame, one HTML file, beside its modules', () => {
    expect(Object.keys(sdk.exports).filter((key) => key.endsWith('.html'))).toEqual(['./reveal/frame.html']);
    expect(sdk.exports['./reveal/frame.html']).toBe('./dist/reveal/frame.html');
  });

  it("the mock's runner peers are optional (npm installs neither vitest, Jest nor Playwright for a user of the mock) and its setup files keep their side effects", () => {
    expect(Object.keys(mock.peerDependencies ?? {}).sort()).toEqual([
      '@playwright/test',
      'jest-environment-jsdom',
      'vitest',
    ]);
    for (const peer of Object.keys(mock.peerDependencies ?? {}))
      expect(mock.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    expect(mock.sideEffects).toEqual(['./dist/vitest.js', './dist/vitest.cjs', './dist/jest.js', './dist/jest.cjs']);
    expect(mock.bin).toEqual({ 'card-issuing-mock': './dist/cli.js' });
  });
});
