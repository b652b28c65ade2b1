/**
 * docs/ci.md's job, run as a CI runner would run it (act-like): in an empty project, the page's install command
 * (with the packed tarballs for the package names, and the SDK's, which the registry does not have), then each
 * `run:` step of its workflow as written, in one bash with `set -e` (a step sent to the background keeps running, as
 * on a runner), and what the upload step names must exist. npx may not fetch anything: a command the page runs but
 * does not install fails the test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { repoPath } from '../helpers/spec';
import { consumerEnv, ok } from './support';

const tarballs = inject('tarballs');

/** The first fenced block of `lang` after the heading `heading` of docs/ci.md. */
function blockAfter(page: string, heading: string, lang: string): string {
  const from = page.indexOf(`\n## ${heading}\n`);
  if (from < 0) throw new Error(`docs/ci.md has no heading "## ${heading}"`);
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(page.slice(from));
  if (!match) throw new Error(`docs/ci.md has no ${lang} block under "## ${heading}"`);
  return match[1]!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Step {
  run?: string;
  uses?: string;
  with?: { path?: string };
}

describe("docs/ci.md's workflow", () => {
  it('installs what it runs, and its steps pass against the mock', async () => {
    const page = readFileSync(repoPath('docs/ci.md'), 'utf8');
    const install = blockAfter(page, 'Install', 'sh').trim();
    const steps = parse(blockAfter(page, 'Run against the mock in a job', 'yaml')) as Step[];

    const dir = join(tarballs.root, 'ci-doc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', private: true }, null, 2)}\n`);
    // The page's command, each of our package names replaced by its tarball; the SDK's tarball first.
    const words = install.split(/\s+/);
    expect(words.slice(0, 2)).toEqual(['npm', 'install']);
    const packages = { 'card-issuing-contract': tarballs.contract, 'card-issuing-mock': tarballs.mock };
    const args = words.slice(2).map((word) => packages[word as keyof typeof packages] ?? word);
    await ok('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarballs.sdk, ...args], {
      cwd: dir,
      timeoutMs: 300_000,
    });

    const port = String(await freePort());
    const script = steps
      .filter((step) => step.run !== undefined)
      .map((step) => step.run!.replaceAll('4010', port))
      .join('\n');
    expect(script).toContain('npx card-issuing-contract run');
    const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd: dir,
      // npm_config_yes=false: npx uses what is installed, or fails; it never downloads.
      env: consumerEnv({ npm_config_yes: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'exit', not 'close': the mock started in the background holds the output open until it is stopped.
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // the group has ended already
    }
    expect(code, output).toBe(0);
    expect(output).toMatch(/Operations covered: 32 of 32; \d+ exchanges checked against the spec, 0 mismatch\(es\)/);
    expect(output).toContain('Result: PASS');
    for (const step of steps.filter((s) => s.uses?.startsWith('actions/upload-artifact'))) {
      const path = step.with?.path;
      expect(path, 'the upload step names a path').toBeTruthy();
      expect(existsSync(join(dir, path!)), `${path} exists to upload`).toBe(true);
    }
    expect(readFileSync(join(dir, 'reports/contract.xml'), 'utf8')).toMatch(
      /<testsuites name="card-issuing-contract run" tests="\d+" failures="0"/,
    );
  });
});
