import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
    const base = (await config) as UserConfig & { output: object };
    await createClient({ ...base, output: { ...base.output, path: fresh }, logs: { level: 'silent' } });
    const committed = repoPath('sdk/generated');
    expect(files(committed)).toEqual(files(fresh));
    for (const file of files(fresh)) {
      expect(readFileSync(join(committed, file), 'utf8'), file).toBe(readFileSync(join(fresh, file), 'utf8'));
    }
  });
});
