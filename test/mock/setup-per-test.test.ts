/**
 * The one-line setups' state lasts one test: the setup's hooks (as `card-issuing-mock/vitest` and `/jest` register
 * them), run by hand here, put the mock back before each test: what a test made, the faults it injected, the clock it
 * moved and the journal it filled are gone when the next one starts; `stateScope('file')` keeps them. (The consumer
 * matrix runs the same with the packed setups in vitest and Jest: a second test registers the same user again.)
 */
import { describe, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { createMockFetch } from '../../mock-server/src/index';
import { mockForFile } from '../../mock-server/src/runners/setup';

/** The setup's hooks, run by hand: `nextTest()` runs what runs before each test. */
function setup() {
  const each: (() => void)[] = [];
  const file = mockForFile({ beforeAll: () => {}, afterAll: () => {}, beforeEach: (fn) => void each.push(fn) });
  const nextTest = () => {
    for (const fn of each) fn();
  };
  return { ...file, nextTest };
}

const ada = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
};

describe('a fresh state for each test', () => {
  it('forgets what the test before made: users, builder-made approvals, faults, the clock, the journal', async () => {
    const { mock, nextTest } = setup();
    const client = createCardIssuingClient({
      baseUrl: 'https://api.example.test',
      apiKey: 'test_key',
      apiSecret: 'test_secret',
      fetch: createMockFetch(mock.handlers),
    });
    nextTest();
    const made = (await client.s2s.users.create(ada)).id;
    mock.given.approval({ status: 'DELIVERED' });
    mock.faults.inject({ path: '/s2s/users/*', status: 503 });
    const clock = mock.clock.now().getTime();
    mock.clock.advance(86_400);

    nextTest();
    expect(mock.snapshot().approvals).toEqual({});
    expect(mock.requests()).toEqual([]);
    expect(mock.clock.now().getTime() - clock).toBeLessThan(86_400_000);
    await expect(client.s2s.users.get(made)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await client.s2s.users.create(ada)).email).toBe(ada.email);
  });

  it("stateScope('file') keeps what each test made for the next", () => {
    const kept = setup();
    kept.stateScope('file');
    kept.nextTest();
    kept.mock.given.businessUser();
    kept.nextTest();
    expect(Object.keys(kept.mock.snapshot().businessUsers)).toHaveLength(1);
    expect(() => kept.stateScope('suite' as 'file')).toThrow(/'test' or 'file'/);
  });
});
