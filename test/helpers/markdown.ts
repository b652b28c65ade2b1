/** Reading the README and docs/ pages in tests: their code blocks (run as written) and their links. */
import { readFileSync } from 'node:fs';

/**
 * The first fenced code block of language `lang` in the section whose heading (of any level) starts with
 * `heading`; the section ends at the next heading of the same or a higher level. Throws, naming what is missing.
 */
export function codeBlock(markdown: string, heading: string, lang = 'ts'): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').startsWith(heading));
  if (start === -1) throw new Error(`no section "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => {
    const hashes = /^(#+) /.exec(line)?.[1];
    return hashes !== undefined && hashes.length <= level;
  });
  const section = (end === -1 ? rest : rest.slice(0, end)).join('\n');
  const block = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!block) throw new Error(`section "${heading}" has no \`\`\`${lang} block`);
  return block[1]!;
}

/** {@link codeBlock} of a file. */
export function codeBlockOf(path: string, heading: string, lang = 'ts'): string {
  return codeBlock(readFileSync(path, 'utf8'), heading, lang);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The lines of a test file between `// ---- <marker> block start` and `// ---- <marker> block end`: the test's own
 * copy of a docs block, which it runs as written and compares with the page.
 */
export function ownBlock(fileUrl: string, marker: string): string | undefined {
  const self = readFileSync(new URL(fileUrl), 'utf8');
  const start = `// ---- ${marker} block start\n`;
  const from = self.indexOf(start);
  const to = self.indexOf(`// ---- ${marker} block end\n`);
  return from === -1 || to < from ? undefined : self.slice(from + start.length, to);
}
