/**
 * A path parameter never changes which path is called: against a real node:http server that records the path that
 * arrived. `.` and `..` are dot segments that URL resolution removes (`/s2s/users/..` would be `/s2s/`) and an empty
 * value leaves an empty segment; all three are refused with a ValidationError before anything is sent, whether or
 * not requests are validated. Any other value goes, encoded, as its one segment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError, createCardIssuingClient } from '../../../sdk/src/index';
import { startServer, type RunningServer } from './servers';

const SECRET = 'sk_test_paths_7c2e';
const CORPORATE = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function setup(validateRequests: boolean) {
  const api = await startServer({ apiKey: 'k', apiSecret: SECRET, answer: () => undefined }); // 404 to everything
  running.push(api);
  const client = createCardIssuingClient({
    baseUrl: api.url,
    apiKey: 'k',
    apiSecret: SECRET,
    validateRequests,
    retry: false,
  });
  return { api, client };
}

describe('a path parameter that would change the path is refused before sending', () => {
  it.each([
    ['..', false],
    ['.', false],
    ['', false],
    ['..', true],
  ] as const)('users.get(%j) with validateRequests: %s', async (value, validateRequests) => {
    const { api, client } = await setup(validateRequests);
    const error = await client.s2s.users.get(value).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: undefined, code: 'VALIDATION_FAILED' });
    // The field is in `errors`, as for every refused argument (with validation on, zod's words for it).
    expect((error as ValidationError).errors).toEqual(
      validateRequests
        ? expect.arrayContaining([expect.objectContaining({ path: 'path.userId' })])
        : [{ path: 'path.userId', message: 'must not be ".", ".." or empty' }],
    );
    expect((error as ValidationError).message).toContain('path.userId');
    expect(api.seen).toEqual([]);
  });

  it('in any position of a template, and as the one item of an array', async () => {
    const { api, client } = await setup(false);
    for (const call of [
      () => client.corporates.approvals.get(CORPORATE, '..'),
      () => client.corporates.approvals.get('..', CORPORATE),
      () => client.s2s.users.get(['..'] as unknown as string),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).detail).toMatch(/^path\.(approvalUuid|corporateUuid|userId) must not be/);
    }
    expect(api.seen).toEqual([]);
  });
});

describe('any other value is sent as its own segment', () => {
  it.each(['a/../b', '../x', 'x?y=1#z', '%2e%2e', '.%2E', '...', '.x', ' '])(
    'users.get(%j) arrives as /s2s/users/<the value, encoded>',
    async (value) => {
      const { api, client } = await setup(false);
      const error = await client.s2s.users.get(value).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError); // the server's answer: the request went
      expect(api.seen.map((s) => s.path)).toEqual([`/s2s/users/${encodeURIComponent(value)}`]);
    },
  );
});
