import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createClient, type UserConfig } from '@hey-api/openapi-ts';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../openapi-ts.config';
import { repoPath } from '../helpers/spec';

const files = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();

describe('sdk/generated', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'generated-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('is exactly what `npm run generate` makes from the spec (regenerate and commit when this fails)', async () => {
    // Every job into one fresh copy of sdk/generated, then the trees compared.
    const jobs = [(await config) as UserConfig | readonly UserConfig[]].flat() as (Omit<UserConfig, 'output'> & {
      output: { path: string } & Record<string, unknown>;
    })[];
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      const target = join(fresh, job.output.path);
      mkdirSync(target, { recursive: true });
      await createClient({ ...job, output: { ...job.output, path: target }, logs: { level: 'silent' } } as UserConfig);
    }
    const committed = repoPath('sdk/generated');
    const target = join(fresh, 'sdk/generated');
    expect(files(committed)).toEqual(files(target));
    for (const file of files(target)) {
      expect(readFileSync(join(committed, file), 'utf8'), `sdk/generated/${file}`).toBe(
        readFileSync(join(target, file), 'utf8'),
      );
    }
  });
});
