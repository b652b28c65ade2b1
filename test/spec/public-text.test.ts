/**
 * The spec is published (the HTTP reference, the contract package's copy): its text speaks to integrators, so it
 * names no file of this repository or of the team's own notes, which no integrator has.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

it('the spec names no internal file', () => {
  const spec = readFileSync(repoPath('spec/openapi.yaml'), 'utf8');
  const internal =
    /shared\/|contract\.md|service-interface\.md|contract section|(?<![\w/-])(?:sdk|mock-server|contract|test|docs|scripts)\/[\w./-]+/;
  const lines = spec
    .split('\n')
    .flatMap((line, index) => (internal.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
  expect(lines).toEqual([]);
});
