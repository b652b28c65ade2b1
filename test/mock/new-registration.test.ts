/**
 * `newRegistration` (card-issuing-mock/control), what the examples and the contract suite register users with: the
 * mock accepts it as the spec's registration body, and two calls never collide on the e-mail.
 */
import { describe, expect, it } from 'vitest';
import { createUser } from '../../sdk/generated/sdk.gen';
import { newRegistration } from '../../mock-server/src/control-client';
import { mockHarness, ok } from './helpers';

const h = mockHarness();

describe('newRegistration', () => {
  it('registers a user the mock accepts, with the names given and a lower-case e-mail', async () => {
    const registration = newRegistration('Grace', 'Hopper');
    expect(registration.email).toMatch(/^grace\.hopper\.[0-9a-f]{8}@example\.org$/);
    const user = ok(await createUser({ client: h.client, body: registration }));
    expect(user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email: registration.email });
  });

  it('gives each call its own e-mail, so that two users of the same name both register', async () => {
    const [first, second] = [newRegistration(), newRegistration()];
    expect(first.email).not.toBe(second.email);
    expect(first).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    ok(await createUser({ client: h.client, body: first }));
    ok(await createUser({ client: h.client, body: second }));
  });
});
