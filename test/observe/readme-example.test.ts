/**
 * The guide's example of asserting on what the mock saw (docs/observe.md, the ```ts block under "## In your
 * tests"), run as written: the block below is that block, and the last test checks that the page still says the
 * same.
 */
import { describe } from 'vitest';
import { codeBlockOf, ownBlock } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

// ---- docs/observe.md block start
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { createMock } from 'card-issuing-mock';

const mock = createMock({ baseUrl: 'http://mock.test' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen());
afterAll(() => server.close());
const client = createCardIssuingClient({ baseUrl: 'http://mock.test', apiKey: 'test_key', apiSecret: 'test_secret' });

it('creates one approval and delivers it once the user registers', async () => {
  const user = await client.corporates.users.create({
    name: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.org',
    phone: '+12025550143',
  });
  const { corporateUuid } = mock.fixtures().corporates[0]!;
  const now = mock.clock.now().getTime();
  const approval = await client.corporates.approvals.create(corporateUuid, {
    userUuid: user.userUuid,
    budget: { amount: 50_000, currency: 'EUR' },
    validFrom: new Date(now).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  mock.users.completeRegistration(user.userUuid);

  // Exactly one createApproval, answered 201, with the body the SDK sent.
  const [created, ...others] = mock.requests({ operation: 'createApproval' });
  expect(others).toEqual([]);
  expect(created).toMatchObject({ status: 201, request: { body: { userUuid: user.userUuid } } });
  // The approval went ACCEPTED → DELIVERED.
  const changes = mock.events({ type: 'approval.statusChanged', id: approval.approvalUuid });
  expect(changes.map((e) => e.type === 'approval.statusChanged' && `${e.from} → ${e.to}`)).toEqual([
    'null → ACCEPTED',
    'ACCEPTED → DELIVERED',
  ]);
});
// ---- docs/observe.md block end

describe('docs/observe.md', () => {
  it('shows the block above as its example of mock.requests() and mock.events()', () => {
    const block = codeBlockOf(repoPath('docs/observe.md'), 'In your tests');
    const here = ownBlock(import.meta.url, 'docs/observe.md');
    expect(here).toBeDefined();
    expect(block).toBe(here);
  });
});
