/**
 * The README and docs/: a README a newcomer reads top down (at most 300 lines, leading with the two commands), and
 * every relative link of every page pointing at a file that exists and, with a #fragment, at one of its headings.
 * The code blocks that run are run by their own tests (test/sdk/readme-quickstart.test.ts, the consumer matrix,
 * test/observe/readme-example.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf, codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

const pages = [
  'README.md',
  ...readdirSync(repoPath('docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (page: string) => readFileSync(repoPath(page), 'utf8');
/** The anchors of a page's headings, outside code blocks. */
const anchors = (page: string) =>
  new Set(
    read(page)
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => /^#+ /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );

describe('README.md', () => {
  it('is at most 300 lines and leads with npm run demo and npm test', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const commands = codeBlockOf(repoPath('README.md'), 'The two commands', 'sh');
    expect(commands).toMatch(/^npm ci\b/m);
    expect(commands).toMatch(/^npm run demo\b/m);
    expect(commands).toMatch(/^npm test\b/m);
    // The clone's command for the mock, which test/server/cli.test.ts starts.
    expect(codeBlockOf(repoPath('README.md'), 'Running the mock', 'sh')).toMatch(/^npm run mock\b/m);
  });
});

describe.each(pages)('%s', (page) => {
  it('links only to files that exist, and to headings they have', () => {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // http(s), mailto: not checked here
      const [file, fragment] = target!.split('#') as [string, string | undefined];
      const path = file === '' ? page : relative(repoPath('.'), join(dirname(repoPath(page)), file));
      if (!existsSync(repoPath(path))) broken.push(`${target} (no ${path})`);
      else if (fragment !== undefined && path.endsWith('.md') && !anchors(path).has(fragment))
        broken.push(`${target} (no heading #${fragment})`);
    }
    expect(broken).toEqual([]);
  });
});

/** What git tracks: the files and every folder on their way. */
const tracked = execFileSync('git', ['ls-files'], { cwd: repoPath('.'), encoding: 'utf8' })
  .trim()
  .split('\n');
const trackedNames = new Set(tracked.map((file) => file.split('/').pop()));
const trackedDirs = new Set(tracked.flatMap((file) => file.split('/').slice(0, -1)));
const TOP = ['sdk/', 'mock-server/', 'contract/', 'test/', 'docs/', 'examples/', 'scripts/', 'bench/', 'spec/', '.ci/'];
/**
 * Names a page mentions that are not in the tree on purpose: what `npm run docs` and the builds write (git-ignored),
 * the files a reader writes in their own project, and the files the drift proxy and the tools write.
 */
const NOT_IN_THE_TREE = new Set([
  'docs/api',
  'docs/api/',
  'dist/',
  'http/',
  'quickstart.ts',
  'instrumentation.ts',
  'drift.json',
  'drift.md',
  'drift.overlay.yaml',
]);
const scripts = Object.keys(JSON.parse(read('package.json')).scripts);

describe.each([...pages, 'contract/README.md'])('%s names', (page) => {
  it('only files, folders and npm scripts that exist', () => {
    const text = read(page);
    const missing: string[] = [];
    for (const [, token] of text.matchAll(/`([^`\s]+)`/g)) {
      const name = token!.replace(/#.*$/, '').replace(/:\d+$/, '');
      if (NOT_IN_THE_TREE.has(name) || /[*{<]/.test(name)) continue;
      if (TOP.some((top) => name.startsWith(top))) {
        if (!existsSync(repoPath(name))) missing.push(name);
      } else if (/^[\w.-]+\.(ts|mts|mjs|cjs|js|json|md|yaml|yml|html)$/.test(name)) {
        if (!trackedNames.has(name)) missing.push(name);
      } else if (/^[\w.-]+\/$/.test(name) && !trackedDirs.has(name.slice(0, -1))) missing.push(name);
    }
    for (const [, script] of text.matchAll(/npm run (?:-s )?([\w:.-]+)/g))
      if (!scripts.includes(script!)) missing.push(`npm run ${script}`);
    expect(missing).toEqual([]);
  });
});
