/**
 * Global setup of the consumer matrix: `npm pack` of the three packages (prepack builds them and copies the README), into
 * a temporary folder outside the repository that every row's project installs from. KEEP_CONSUMERS=1 keeps the
 * folder for a look afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoPath } from '../helpers/spec';
import { ok, type Tarballs } from './support';

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'card-issuing-consumers-'));
  const destination = join(root, 'tarballs');
  mkdirSync(destination);
  const started = performance.now();
  // From the repository (its own npm and scripts); --json lists what was packed.
  const packed = await ok(
    'npm',
    [
      'pack',
      '--workspace',
      'sdk',
      '--workspace',
      'mock-server',
      '--workspace',
      'contract',
      '--pack-destination',
      destination,
      '--json',
    ],
    {
      cwd: repoPath('.'),
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 300_000,
    },
  );
  const files = (
    JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { name: string; filename: string }[]
  ).map((p) => ({ name: p.name, path: join(destination, p.filename) }));
  const find = (name: string) =>
    files.find((f) => f.name === name)?.path ?? fail(`npm pack made no tarball of ${name}`);
  const tarballs: Tarballs = {
    root,
    sdk: find('card-issuing-sdk'),
    mock: find('card-issuing-mock'),
    contract: find('card-issuing-contract'),
  };
  console.log(
    `consumers: packed the three packages in ${((performance.now() - started) / 1000).toFixed(1)} s into ${destination}`,
  );
  project.provide('tarballs', tarballs);
  return () => {
    if (process.env.KEEP_CONSUMERS === '1') console.log(`consumers: kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}

function fail(message: string): never {
  throw new Error(message);
}
