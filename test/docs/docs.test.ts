/**
 * The README and docs/: a README a newcomer reads top down (at most 300 lines, leading with the two commands), and
 * every relative link of every page pointing at a file that exists and, with a #fragment, at one of its headings.
 * The code blocks that run are run by their own tests (test/sdk/readme-quickstart.test.ts, the consumer matrix,
 * test/observe/readme-example.test.ts).
 */
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
