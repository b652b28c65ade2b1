/**
 * The packed tarballs themselves: what is in them, what their builds load, one copy of every class per build, and the
 * package linters (publint, @arethetypeswrong/cli) on the very files that would be published.
 */
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ok, run } from './support';

const tarballs = inject('tarballs');
const extracted = { sdk: join(tarballs.root, 'extracted/sdk'), mock: join(tarballs.root, 'extracted/mock') };

beforeAll(async () => {
  for (const [name, dir] of Object.entries(extracted)) {
    mkdirSync(dir, { recursive: true });
    await ok('tar', ['-xzf', name === 'sdk' ? tarballs.sdk : tarballs.mock, '-C', dir, '--strip-components=1'], {
      cwd: dir,
    });
  }
});

const dist = (pkg: keyof typeof extracted) => join(extracted[pkg], 'dist');
const builtFiles = (pkg: keyof typeof extracted, extension: '.js' | '.cjs') =>
  readdirSync(dist(pkg)).filter((f) => f.endsWith(extension));
const read = (pkg: keyof typeof extracted, file: string) => readFileSync(join(dist(pkg), file), 'utf8');

/** How many times a class is defined in a build (esbuild writes `var X = class`, sucrase `(_class = class`). */
function definitions(pkg: keyof typeof extracted, extension: '.js' | '.cjs', className: string): number {
  const pattern = new RegExp(`class ${className}\\b|\\b${className} = (?:\\(\\w+ = )?class\\b`, 'g');
  return builtFiles(pkg, extension).reduce((n, file) => n + (read(pkg, file).match(pattern)?.length ?? 0), 0);
}

/** Every bare specifier an ESM build file loads, following relative imports into shared chunks. */
function esmImports(pkg: keyof typeof extracted, entry: string): string[] {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, a, b] of source.matchAll(
      /(?:^|[\s;])(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    )) {
      const specifier = a ?? b;
      if (!specifier) continue;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else bare.add(specifier);
    }
  };
  visit(join(dist(pkg), entry));
  return [...bare].sort();
}

/** Every bare specifier a CJS build file requires, following relative requires into shared chunks. */
function cjsRequires(pkg: keyof typeof extracted, entry: string): string[] {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      if (specifier!.startsWith('.')) visit(join(dirname(file), specifier!));
      else bare.add(specifier!);
    }
  };
  visit(join(dist(pkg), entry));
  return [...bare].sort();
}

describe('the packed tarballs', () => {
  it.each(['sdk', 'mock'] as const)(
    '%s: every export target, the bin and the README are in the tarball, and no source or test',
    (pkg) => {
      const manifest = JSON.parse(readFileSync(join(extracted[pkg], 'package.json'), 'utf8')) as {
        exports: unknown;
        bin?: Record<string, string>;
      };
      const targets = JSON.stringify(manifest.exports).match(/\.\/(dist\/[^"]+|[\w.-]+\.json)/g)!;
      for (const target of [...targets, ...Object.values(manifest.bin ?? {})])
        expect(existsSync(join(extracted[pkg], target)), target).toBe(true);
      expect(readFileSync(join(extracted[pkg], 'README.md'), 'utf8')).toMatch(/### Quickstart/);
      // The mock also ships the JSON Schema of its scenario files (card-issuing-mock/scenario.schema.json).
      expect(readdirSync(extracted[pkg]).sort()).toEqual(
        ['README.md', 'dist', 'package.json', ...(pkg === 'mock' ? ['scenario.schema.json'] : [])].sort(),
      );
      if (pkg === 'mock')
        expect(JSON.parse(readFileSync(join(extracted.mock, 'scenario.schema.json'), 'utf8')).title).toBe(
          'card-issuing-mock scenario',
        );
    },
  );

  it('the reveal frame is one self-contained page whose own CSP allows exactly its inline script and style', async () => {
    const { createHash } = await import('node:crypto');
    const html = read('sdk', 'reveal/frame.html');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toMatch(/default-src 'none'.*connect-src 'none'/);
    // Nothing loaded from anywhere: no src or href, one script, one style.
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(script).not.toMatch(/node-forge|forge\.pki/);
  });

  it('one copy of every class in each build: CardIssuingError once in the SDK (ESM, CJS), none in the mock; ProblemError once in the mock', () => {
    expect(definitions('sdk', '.js', 'CardIssuingError')).toBe(1);
    expect(definitions('sdk', '.cjs', 'CardIssuingError')).toBe(1);
    expect(definitions('mock', '.js', 'CardIssuingError')).toBe(0);
    expect(definitions('mock', '.cjs', 'CardIssuingError')).toBe(0);
    expect(definitions('mock', '.js', 'ProblemError')).toBe(1);
    expect(definitions('mock', '.cjs', 'ProblemError')).toBe(1);
  });

  it('the SDK loads no msw and nothing node-only; its CommonJS build carries ky (ESM only) and requires only zod and node-forge (both CommonJS)', () => {
    for (const entry of ['index.js', 'server.js']) {
      expect(
        esmImports('sdk', entry).filter((s) => s === 'msw' || s.startsWith('msw/') || s.startsWith('node:')),
      ).toEqual([]);
    }
    expect(esmImports('sdk', 'index.js')).toContain('ky');
    const required = cjsRequires('sdk', 'index.cjs');
    expect(required.filter((s) => s !== 'zod' && !s.startsWith('zod/') && !s.startsWith('node-forge/'))).toEqual([]);
    expect(required).toContain('node-forge/lib/forge.js');
  });

  it("the mock root is browser-safe (no node:, no msw/node); its CommonJS builds carry msw's core and share the SDK and zod", () => {
    expect(esmImports('mock', 'index.js').filter((s) => s.startsWith('node:') || s === 'msw/node')).toEqual([]);
    expect(esmImports('mock', 'index.js')).toEqual(expect.arrayContaining(['card-issuing-sdk/server', 'msw', 'zod']));
    for (const entry of ['index.cjs', 'node.cjs', 'browser.cjs', 'jest.cjs', 'vitest.cjs']) {
      const required = cjsRequires('mock', entry);
      // msw/browser only from the browser entry, for a bundler to resolve to msw's browser build.
      expect(
        required.filter((s) => s === 'msw' || s.startsWith('msw/')),
        entry,
      ).toEqual(entry === 'browser.cjs' ? ['msw/browser'] : []);
      expect(required, entry).toContain('card-issuing-sdk/server');
    }
  });

  it('card-issuing-contract (a command, and the checker at /conformance) passes publint --strict on the tarball', async () => {
    const publint = await run('npx', ['publint', 'run', '--strict', tarballs.contract], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(publint.code, publint.output).toBe(0);
    expect(publint.stdout).toMatch(/All good/);
  });

  it.each(['sdk', 'mock'] as const)(
    '%s passes publint --strict and @arethetypeswrong/cli (profile node16) on the tarball',
    async (pkg) => {
      const tarball = pkg === 'sdk' ? tarballs.sdk : tarballs.mock;
      const publint = await run('npx', ['publint', 'run', '--strict', tarball], {
        cwd: process.cwd(),
        env: { PATH: process.env.PATH ?? '' },
      });
      expect(publint.code, publint.output).toBe(0);
      expect(publint.stdout).toMatch(/All good/);
      // node10 is left out on purpose: it cannot see subpath exports, and engines.node >=22 rules it out.
      // The reveal frame is an HTML file to serve, not a module: nothing for TypeScript to resolve there.
      const notModules = pkg === 'sdk' ? ['--exclude-entrypoints', './reveal/frame.html'] : [];
      const attw = await run('npx', ['attw', tarball, '--profile', 'node16', ...notModules], {
        cwd: process.cwd(),
        env: { PATH: process.env.PATH ?? '' },
      });
      expect(attw.code, attw.output).toBe(0);
      expect(attw.output).not.toMatch(/🔴|❌|🐛|🥴|🎭|❗️|⚠️/u);
    },
  );
});
