/**
 * Lists that page, through the SDK against the mock: every list operation walked page by page (by hand and with
 * `for await`), items added between pages, cursors of another list or tenant refused, `limit` bounds; unknown query
 * parameters refused as unknown body fields are; areas scoped (`/s2s` never serves a business card).
 */
import { describe, expect, it } from 'vitest';
import {
  CardIssuingError,
  approveDeposit,
  createCardIssuingClient,
  type CardIssuingClient,
  type PageBody,
  type PagePromise,
  type ListOptions,
} from '../../sdk/src/index';
import { createCard } from '../../sdk/generated/sdk.gen';
import { generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { fund, makeApproval, makeBusinessUser, makeUser } from './flows';
import { BASE_URL, expectProblem, mockHarness, ok, send } from './helpers';
import { walkPages as walk } from '../helpers/walk-pages';

const h = mockHarness();
const sdk = (apiKey = 'test_key', apiSecret = 'test_secret'): CardIssuingClient =>
  createCardIssuingClient({ baseUrl: BASE_URL, apiKey, apiSecret, retry: false });

/** A Server2Server user with `cards` free virtual cards, a funded balance (so verifications and an address exist). */
async function s2sUser(cards: number) {
  const { user, balanceId } = await makeUser(h.client, h.mock, { depositConsents: true });
  const config = h.mock.fixtures().cardConfigs.find((c) => c.type === 'VIRTUAL' && c.price === null)!;
  const ids: string[] = [];
  for (let i = 0; i < cards; i++) {
    const card = ok(
      await createCard({
        client: h.client,
        path: { userId: user.id },
        body: { configId: config.configId, visualId: config.visualIds[0]! },
      }),
    );
    if (card.object === 'card') ids.push(card.id);
  }
  return {
    user,
    balanceId,
    cardIds: ids,
    addCard: async () => {
      const card = ok(
        await createCard({
          client: h.client,
          path: { userId: user.id },
          body: { configId: config.configId, visualId: config.visualIds[0]! },
        }),
      );
      return card.object === 'card' ? card.id : card.cardId;
    },
  };
}

describe('every list operation pages with limit and cursor, in a stable order', () => {
  it('walks each of the 12 lists page by page (limit 1 and 2) to exactly the items of one big page, and for await gives the same', async () => {
    const client = sdk();
    const { user, balanceId } = await s2sUser(3);
    await fund(h.client, h.mock, user.id, balanceId, '100');
    for (let i = 0; i < 3; i++)
      h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '20', requiresVerification: i % 2 === 0 });
    const corporate = h.mock.fixtures().corporates[0]!;
    for (let i = 0; i < 3; i++)
      h.mock.deposits.incoming({ balanceId: corporate.balanceId, type: 'USDC', amount: `${100 + i}` });
    const businessUser = await makeBusinessUser(h.client, h.mock);
    for (let i = 0; i < 3; i++) await makeApproval(h.client, h.mock, businessUser.userUuid, { budget: 1_000 + i });

    const lists: [string, (o: ListOptions) => PagePromise<PageBody>, number][] = [
      ['listCardConfigs', (o) => client.s2s.cards.listConfigs(user.id, o), 3],
      ['listBalances', (o) => client.s2s.balances.list(user.id, o), 1],
      ['listCards', (o) => client.s2s.cards.list(user.id, o), 3],
      ['listDepositTypes', (o) => client.s2s.deposits.listTypes(balanceId, o), 3],
      ['listDepositAddresses', (o) => client.s2s.deposits.listAddresses(balanceId, 'USDC', o), 1],
      ['listDepositVerifications', (o) => client.s2s.deposits.listVerifications({ userId: user.id }, o), 4],
      ['listAppDepositTypes', (o) => client.app.deposits.listTypes(user.id, o), 3],
      ['listAppDepositAddresses', (o) => client.app.deposits.listAddresses(balanceId, 'USDC', o), 1],
      ['listAppDepositVerifications', (o) => client.app.deposits.listVerifications(user.id, o), 4],
      [
        'listUserApprovals',
        (o) => client.corporates.approvals.listForUser(corporate.corporateUuid, businessUser.userUuid, o),
        3,
      ],
      ['listCorporateDepositAddresses', (o) => client.corporates.deposits.list(corporate.corporateUuid, o), 4],
      ['listTopUps', (o) => client.corporates.topUps.list(corporate.corporateUuid, o), 3],
    ];
    for (const [name, list, count] of lists) {
      const all = (await list({ limit: 100 })).items;
      expect(all, name).toHaveLength(count);
      expect(await walk(list, 1), `${name} by pages of 1`).toEqual(all);
      expect(await walk(list, 2), `${name} by pages of 2`).toEqual(all);
      const iterated: unknown[] = [];
      for await (const item of list({ limit: 1 })) iterated.push(item);
      expect(iterated, `${name} with for await`).toEqual(all);
    }
  });

  it('the order is stable and items created between pages come on a later page, none twice or skipped', async () => {
    const client = sdk();
    const { user, cardIds, addCard } = await s2sUser(3);
    const first = await client.s2s.cards.list(user.id, { limit: 2 });
    expect(first.items.map((c) => c.id)).toEqual(cardIds.slice(0, 2));
    const added = await addCard();
    const second = await first.getNextPage();
    expect(second.items.map((c) => c.id)).toEqual([cardIds[2], added]);
    expect(second.hasNextPage()).toBe(false);
    expect(() => second.getNextPage()).toThrow(expect.objectContaining({ code: 'NO_NEXT_PAGE' }));

    // for await fetches each next page only when the loop reaches it: a card made mid-walk is included.
    const seen: string[] = [];
    let made: string | undefined;
    for await (const card of client.s2s.cards.list(user.id, { limit: 2 })) {
      seen.push(card.id);
      if (seen.length === 1) made = await addCard();
    }
    expect(seen).toEqual([...cardIds, added, made]);
  });

  it('fetches pages on demand: breaking out of for await after the first item sends one request', async () => {
    const { user } = await s2sUser(5);
    let requests = 0;
    const client = createCardIssuingClient({
      baseUrl: BASE_URL,
      apiKey: 'test_key',
      apiSecret: 'test_secret',
      retry: false,
      hooks: { onRequest: () => void requests++ },
    });
    for await (const card of client.s2s.cards.list(user.id, { limit: 2 })) {
      expect(card.object).toBe('card');
      break;
    }
    expect(requests).toBe(1);
    const pages: number[] = [];
    for await (const page of (await client.s2s.cards.list(user.id, { limit: 2 })).iterPages())
      pages.push(page.items.length);
    expect(pages).toEqual([2, 2, 1]);
    expect(requests).toBe(4);
  });

  it('the default page holds 20; limit is 1 to 100, anything else 400 VALIDATION_FAILED naming query.limit', async () => {
    const { user, balanceId } = await s2sUser(0);
    await fund(h.client, h.mock, user.id, balanceId, '10');
    for (let i = 0; i < 21; i++) h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '10' });
    const page = await sdk().s2s.deposits.listVerifications({ userId: user.id });
    expect({ size: page.items.length, hasMore: page.hasMore }).toEqual({ size: 20, hasMore: true });
    expect((await page.getNextPage()).items).toHaveLength(2);
    for (const limit of ['0', '101', 'abc', '1.5', '-1']) {
      const problem = await expectProblem(
        await send('GET', `/s2s/deposits/verifications?limit=${limit}`),
        400,
        'VALIDATION_FAILED',
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(['query.limit']);
    }
  });
});

describe('the SDK flows read every page', () => {
  it('approveDeposit finds a verification pending approval beyond the first page, in both areas', async () => {
    const { user, balanceId } = await s2sUser(0);
    await fund(h.client, h.mock, user.id, balanceId, '10');
    for (let i = 0; i < 24; i++) h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '10' });
    const pending = h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '12', requiresVerification: true });
    if (pending.kind !== 'verification') throw new Error('expected a verification');
    const data = { sourceOfFunds: 'SAVINGS' as const, walletType: 'SELF_HOSTED' as const };
    const result = await approveDeposit(sdk(), { userId: user.id, getVerificationData: () => data });
    expect(result.verifications).toHaveLength(26);
    expect(result.approved.map((v) => [v.id, v.status])).toEqual([[pending.verification.id, 'CREDITED']]);
    const another = h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '13', requiresVerification: true });
    if (another.kind !== 'verification') throw new Error('expected a verification');
    const app = await approveDeposit(sdk(), { userId: user.id, area: 'app', getVerificationData: () => data });
    expect(app.approved.map((v) => v.id)).toEqual([another.verification.id]);
  });
});

describe('a cursor belongs to one list of one api key', () => {
  it('refuses with 400 CURSOR_INVALID a cursor of another list, of the same operation with other parameters, of another tenant, or edited', async () => {
    const a = await s2sUser(3);
    await fund(h.client, h.mock, a.user.id, a.balanceId, '10');
    const b = await s2sUser(3);
    const cursor = (await sdk().s2s.cards.list(a.user.id, { limit: 1 })).nextCursor!;
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    const refused = async (path: string, credentials?: { apiKey: string; apiSecret: string }) => {
      const problem = await expectProblem(
        await send('GET', path, credentials ? { credentials } : {}),
        400,
        'CURSOR_INVALID',
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(['query.cursor']);
      return problem;
    };
    const same = await send('GET', `/s2s/cards?userId=${a.user.id}&limit=1&cursor=${cursor}`);
    expect(same.status, 'the cursor is good for its own list').toBe(200);
    expect((await refused(`/s2s/cards?userId=${b.user.id}&cursor=${cursor}`)).detail).toMatch(/another list/);
    await refused(`/s2s/balances?userId=${a.user.id}&cursor=${cursor}`);
    await refused(`/s2s/deposits/verifications?cursor=${cursor}`);
    const [payload, mac] = cursor.split('.');
    expect(
      (await refused(`/s2s/cards?userId=${a.user.id}&cursor=${payload}.${mac === 'abc' ? 'abd' : 'abc'}`)).detail,
    ).toMatch(/not a cursor this api key was given/);
    const edited = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), a: a.cardIds[2] }),
    ).toString('base64url');
    expect(
      (await refused(`/s2s/cards?userId=${a.user.id}&cursor=${edited}.${mac}`)).detail,
      'an edited payload breaks the mac',
    ).toMatch(/not a cursor this api key was given/);
    await refused(`/s2s/cards?userId=${a.user.id}&cursor=garbage`);
    // Another tenant: the same list (every verification of the api key) in both, so only the tenant differs.
    h.mock.deposits.incoming({ balanceId: a.balanceId, type: 'USDC', amount: '10' });
    h.mock.deposits.incoming({ balanceId: a.balanceId, type: 'USDC', amount: '11' });
    const tenantB = h.mock.addCredentials({ apiKey: 'team_b', apiSecret: 'secret_b' });
    const other = createCardIssuingClient({ baseUrl: BASE_URL, apiKey: 'team_b', apiSecret: 'secret_b', retry: false });
    const otherUser = await other.s2s.users.create({
      email: 'b@example.org',
      firstName: 'B',
      lastName: 'B',
      phone: '+447700900123',
      dateOfBirth: '1990-01-01',
      country: 'GB',
    });
    const otherBalance = (await other.s2s.balances.list(otherUser.id)).items[0]!.id;
    // The catalogue is seeded per tenant: sign tenant B's own consents.
    for (const consent of tenantB.fixtures().depositTypes.find((t) => t.type === 'USDC')!.consentIds)
      await other.s2s.consents.sign(otherUser.id, consent);
    await other.s2s.deposits.createAddress(otherBalance, 'USDC', { network: 'POLYGON' });
    tenantB.deposits.incoming({ balanceId: otherBalance, type: 'USDC', amount: '10' });
    tenantB.deposits.incoming({ balanceId: otherBalance, type: 'USDC', amount: '11' });
    const foreign = (await other.s2s.deposits.listVerifications(undefined, { limit: 1 })).nextCursor!;
    expect(
      (
        await send('GET', `/s2s/deposits/verifications?limit=1&cursor=${foreign}`, {
          credentials: { apiKey: 'team_b', apiSecret: 'secret_b' },
        })
      ).status,
    ).toBe(200);
    expect((await refused(`/s2s/deposits/verifications?cursor=${foreign}`)).detail).toMatch(
      /not a cursor this api key was given/,
    );
    const problem = await expectProblem(
      await send('GET', `/s2s/cards?userId=${a.user.id}&cursor=not%20a%20cursor!`),
      400,
      'VALIDATION_FAILED',
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(['query.cursor']);
  });

  it('the SDK surfaces a refused cursor as a ValidationError with code CURSOR_INVALID', async () => {
    const { user } = await s2sUser(1);
    const error = await sdk()
      .s2s.cards.list(user.id, { cursor: 'eyJsIjoieCIsImEiOiJ5In0.abc' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(CardIssuingError);
    expect(error).toMatchObject({ name: 'ValidationError', status: 400, code: 'CURSOR_INVALID' });
  });
});

describe('unknown query parameters are 400 VALIDATION_FAILED naming them', () => {
  it('on an operation with query parameters and on one without', async () => {
    const { user } = await s2sUser(0);
    const listed = await expectProblem(
      await send('GET', `/s2s/cards?userId=${user.id}&page=2&sort=desc`),
      400,
      'VALIDATION_FAILED',
    );
    expect(listed.errors?.map((e) => e.path).sort()).toEqual(['query.page', 'query.sort']);
    expect(listed.errors?.every((e) => e.message === 'Unknown field')).toBe(true);
    const got = await expectProblem(await send('GET', `/s2s/users/${user.id}?expand=cards`), 400, 'VALIDATION_FAILED');
    expect(got.errors).toEqual([{ path: 'query.expand', message: 'Unknown field' }]);
    const posted = await expectProblem(
      await send('POST', `/s2s/users/${user.id}/email/otp?debug=1`),
      400,
      'VALIDATION_FAILED',
    );
    expect(posted.errors?.map((e) => e.path)).toEqual(['query.debug']);
    expect((await send('GET', `/s2s/cards?userId=${user.id}&limit=5`)).status, 'the stated ones are fine').toBe(200);
  });
});

describe('areas are scoped: /s2s never serves a business card, /corporates never a Server2Server one', () => {
  it('a business card and a business user do not exist under /s2s; a Server2Server user does not exist under /corporates', async () => {
    const businessUser = await makeBusinessUser(h.client, h.mock, true);
    const approval = await makeApproval(h.client, h.mock, businessUser.userUuid);
    const cardId = approval.card.id;
    for (const [method, path] of [
      ['GET', `/s2s/cards?userId=${businessUser.userUuid}`],
      ['GET', `/s2s/balances?userId=${businessUser.userUuid}`],
      ['POST', `/s2s/cards/${cardId}/charge-draft`],
      ['POST', `/s2s/cards/${cardId}/complete-draft`],
      ['POST', `/s2s/cards/${cardId}/activation`],
    ] as const) {
      await expectProblem(await send(method, path), 404, 'NOT_FOUND');
    }
    const client = sdk();
    const details = await client.s2s.cards.getDetails(cardId, { keyPair: await generateCardKeyPair() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(details).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const { user } = await s2sUser(1);
    const corporate = h.mock.fixtures().corporates[0]!.corporateUuid;
    await expectProblem(await send('GET', `/corporates/${corporate}/users/${user.id}/approvals`), 404, 'NOT_FOUND');
    // The business card is served where it belongs.
    expect((await client.corporates.approvals.get(corporate, approval.approvalUuid)).card.id).toBe(cardId);
  });
});
