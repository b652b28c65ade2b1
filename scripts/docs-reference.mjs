#!/usr/bin/env node
// `npm run docs`, between Redocly and TypeDoc. Redoc 3's page loads its logo from Redocly's CDN whenever it is
// opened, so the logo is inlined and the page asks nothing of any other host. The two CLIs' references are written
// from their own --help (one source: the text a user sees), for TypeDoc to publish beside the packages' entries.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const HTTP_PAGE = 'docs/api/http/index.html';
const CLI_DIR = 'docs/api/cli';
// Redoc's own mark, reduced to its words: the page keeps its attribution without a request.
const LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="72" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#888">Redocly</text></svg>',
)}`;

const page = readFileSync(HTTP_PAGE, 'utf8');
const offline = page.replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, LOGO);
writeFileSync(HTTP_PAGE, offline);

const clis = [
  { name: 'card-issuing-mock', entry: 'mock-server/src/cli.ts' },
  { name: 'card-issuing-contract', entry: 'contract/src/cli.ts' },
];
mkdirSync(CLI_DIR, { recursive: true });
for (const { name, entry } of clis) {
  const help = execFileSync(process.execPath, ['--import', 'tsx', entry, '--help'], { encoding: 'utf8' });
  const doc = `---\ntitle: ${name} CLI\n---\n\n# ${name}\n\nWhat \`${name} --help\` prints.\n\n\`\`\`text\n${help.trimEnd()}\n\`\`\`\n`;
  writeFileSync(`${CLI_DIR}/${name}.md`, doc);
}
