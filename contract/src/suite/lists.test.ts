/**
 * Lists that page and requests that are scoped: every list operation walked page by page with `limit` and `cursor`
 * (and with the SDK's `for await`), items added between pages, cursors of another list or another api key refused
 * with 400 CURSOR_INVALID, `limit` bounds; unknown query parameters 400 VALIDATION_FAILED naming them; `/s2s` never
 * serving a business card nor `/corporates` a Server2Server user.
 *
 * Against a real service the lists it can fill through the API alone (card configs, balances, approvals of a
 * corporate given by CONTRACT_CORPORATE_UUID, its deposit addresses and top-ups) are walked; filling the others
 * (cards, deposits, verifications) needs the mock's control API.
 */
import { describe, expect, it } from './support/test';
import { generateCardKeyPair, type ListOptions, type PageBody, type PagePromise } from 'card-issuing-sdk';
import { businessApproval, cardReadyUser, fundBalance, registeredUser } from './support/actors';
import { expectProblem, expectRefusal, newBusinessUser, useContract } from './support/harness';
import { walkPages as walk } from './support/walk-pages';

const contract = useContract(import.meta.url);

type List = (options: ListOptions) => PagePromise<PageBody>;

/** Checks that a list walked by pages of 1 and 2, and with for await, is exactly its one big page (and not empty). */
async function expectPaged(name: string, list: List, atLeast = 1): Promise<void> {
  const all = (await list({ limit: 100 })).items;
  expect(all.length, `${name} has items to page`).toBeGreaterThanOrEqual(atLeast);
  expect(await walk(list, 1), `${name} by pages of 1`).toEqual(all);
  expect(await walk(list, 2), `${name} by pages of 2`).toEqual(all);
  const iterated: unknown[] = [];
  for await (const item of list({ limit: 1 })) iterated.push(item);
  expect(iterated, `${name} with for await`).toEqual(all);
}

describe('every list operation pages with limit and cursor', () => {
  it('lists any server can fill through the API: card configs, balances, approvals, corporate deposit addresses, top-ups', async (context) => {
    const corporate = await contract.corporate(context);
    const user = await registeredUser(contract);
    const { client } = contract;
    const { user: businessUser } = await businessApproval(contract, corporate);
    await businessApproval(contract, corporate, { user: businessUser });
    await businessApproval(contract, corporate, { user: businessUser });
    await expectPaged('listCardConfigs', (o) => client.s2s.cards.listConfigs(user.id, o), 2);
    await expectPaged('listBalances', (o) => client.s2s.balances.list(user.id, o));
    await expectPaged(
      'listUserApprovals',
      (o) => client.corporates.approvals.listForUser(corporate.corporateUuid, businessUser.userUuid, o),
      3,
    );
    await expectPaged('listCorporateDepositAddresses', (o) =>
      client.corporates.deposits.list(corporate.corporateUuid, o),
    );
    const topUps = await client.corporates.topUps.list(corporate.corporateUuid, { limit: 1 });
    expect(topUps.items.length).toBeLessThanOrEqual(1);
    const configs = await client.s2s.cards.listConfigs(user.id, { limit: 1 });
    expect(configs, 'list-level fields are on every page').toMatchObject({
      kycUrl: expect.any(String),
      kycStatus: expect.any(String),
    });
  });

  it('the lists the mock fills: cards, deposit types and addresses, verifications (both areas), top-ups', async (context) => {
    const own = await contract.isolated(context);
    const ownControl = own.control(context);
    const { client } = own;
    const user = await cardReadyUser(own, ownControl);
    const configs = await client.s2s.cards.listConfigs(user.id, { limit: 100 });
    const free = configs.items.find((c) => c.price === null && c.type === 'VIRTUAL')!;
    for (let i = 0; i < 3; i++)
      await client.s2s.cards.create(user.id, { configId: free.id, visualId: free.visuals[0]!.id });
    const balanceId = await fundBalance(own, ownControl, user.id);
    for (let i = 0; i < 3; i++)
      await ownControl.incomingDeposit({ balanceId, type: 'USDC', amount: '20', requiresVerification: i === 0 });
    const fixtures = await ownControl.fixtures();
    const corporate = fixtures.corporates[0]!;
    for (let i = 0; i < 3; i++)
      await ownControl.incomingDeposit({ balanceId: corporate.balanceId, type: 'USDC', amount: `${50 + i}` });
    await expectPaged('listCards', (o) => client.s2s.cards.list(user.id, o), 3);
    await expectPaged('listDepositTypes', (o) => client.s2s.deposits.listTypes(balanceId, o), 2);
    await expectPaged('listDepositAddresses', (o) => client.s2s.deposits.listAddresses(balanceId, 'USDC', o));
    await expectPaged(
      'listDepositVerifications',
      (o) => client.s2s.deposits.listVerifications({ userId: user.id }, o),
      4,
    );
    await expectPaged('listAppDepositTypes', (o) => client.app.deposits.listTypes(user.id, o), 2);
    await expectPaged('listAppDepositAddresses', (o) => client.app.deposits.listAddresses(balanceId, 'USDC', o));
    await expectPaged('listAppDepositVerifications', (o) => client.app.deposits.listVerifications(user.id, o), 4);
    await expectPaged('listTopUps', (o) => client.corporates.topUps.list(corporate.corporateUuid, o), 3);
  });
});

describe('a list that grows while it is walked', () => {
  it('items created between pages come on a later page, none twice or skipped; for await fetches each page when it gets there', async (context) => {
    const corporate = await contract.corporate(context);
    const { client } = contract;
    const { user, approval } = await businessApproval(contract, corporate);
    const second = (await businessApproval(contract, corporate, { user })).approval;
    const third = (await businessApproval(contract, corporate, { user })).approval;
    const first = await client.corporates.approvals.listForUser(corporate.corporateUuid, user.userUuid, { limit: 2 });
    expect(first.items.map((a) => a.approvalUuid)).toEqual([approval.approvalUuid, second.approvalUuid]);
    const added = (await businessApproval(contract, corporate, { user })).approval;
    const next = await first.getNextPage();
    expect(next.items.map((a) => a.approvalUuid)).toEqual([third.approvalUuid, added.approvalUuid]);
    expect(next.hasMore).toBe(false);

    const seen: string[] = [];
    let madeMidWalk: string | undefined;
    for await (const a of client.corporates.approvals.listForUser(corporate.corporateUuid, user.userUuid, {
      limit: 2,
    })) {
      seen.push(a.approvalUuid);
      if (seen.length === 1)
        madeMidWalk = (await businessApproval(contract, corporate, { user })).approval.approvalUuid;
    }
    expect(seen).toEqual([
      approval.approvalUuid,
      second.approvalUuid,
      third.approvalUuid,
      added.approvalUuid,
      madeMidWalk,
    ]);
  });
});

describe('limit bounds', () => {
  it('limit is 1 to 100 (400 VALIDATION_FAILED naming query.limit otherwise); the default page holds at most 20', async () => {
    const user = await registeredUser(contract);
    for (const limit of ['0', '101', 'ten']) {
      const response = await contract.send({
        method: 'GET',
        path: `/s2s/users/${user.id}/cards/configs`,
        query: { limit },
      });
      const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((e) => e.path)).toEqual(['query.limit']);
    }
    expect((await contract.client.s2s.deposits.listVerifications()).items.length).toBeLessThanOrEqual(20);
  });
});

describe('a cursor belongs to one list of one api key', () => {
  it('a cursor of another list, or of the same operation for another user, or not a cursor at all, is 400 CURSOR_INVALID', async () => {
    const a = await registeredUser(contract);
    const b = await registeredUser(contract);
    const cursor = (await contract.client.s2s.cards.listConfigs(a.id, { limit: 1 })).nextCursor!;
    expect(cursor, 'three configs, one per page: a next cursor').toEqual(expect.any(String));
    expect(
      (await contract.send({ method: 'GET', path: `/s2s/users/${a.id}/cards/configs`, query: { cursor } })).status,
    ).toBe(200);
    for (const [path, query] of [
      [`/s2s/users/${b.id}/cards/configs`, { cursor }],
      [`/s2s/balances`, { userId: a.id, cursor }],
      [`/s2s/users/${a.id}/cards/configs`, { cursor: `${cursor}x` }],
      [`/s2s/users/${a.id}/cards/configs`, { cursor: 'bm90LWEtY3Vyc29y' }],
    ] as const) {
      const problem = expectProblem(await contract.send({ method: 'GET', path, query }), 400, 'CURSOR_INVALID');
      expect(problem.errors?.map((e) => e.path)).toEqual(['query.cursor']);
    }
    await expectRefusal(contract.client.s2s.cards.listConfigs(b.id, { cursor }), {
      status: 400,
      code: 'CURSOR_INVALID',
    });
  });

  it('a cursor of another api key is refused, even for the same list', async (context) => {
    const other = await contract.isolated(context);
    const mine = await contract.isolated(context);
    for (const tenant of [other, mine]) {
      const control = tenant.control(context);
      const user = await cardReadyUser(tenant, control);
      const balanceId = await fundBalance(tenant, control, user.id);
      await control.incomingDeposit({ balanceId, type: 'USDC', amount: '15' });
    }
    // Every verification of the api key: the same list in both tenants, so only the api key tells them apart.
    const foreign = (await other.client.s2s.deposits.listVerifications(undefined, { limit: 1 })).nextCursor!;
    expect(
      (await other.send({ method: 'GET', path: '/s2s/deposits/verifications', query: { cursor: foreign } })).status,
    ).toBe(200);
    const problem = expectProblem(
      await mine.send({ method: 'GET', path: '/s2s/deposits/verifications', query: { cursor: foreign } }),
      400,
      'CURSOR_INVALID',
    );
    expect(problem.detail).toMatch(/cursor/i);
  });
});

describe('unknown query parameters are 400 VALIDATION_FAILED naming them', () => {
  it('on a list, on a read without query parameters and on a POST', async () => {
    const user = await registeredUser(contract);
    const list = expectProblem(
      await contract.send({
        method: 'GET',
        path: '/s2s/balances',
        query: { userId: user.id, page: '2', sort: 'desc' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(list.errors?.map((e) => e.path).sort()).toEqual(['query.page', 'query.sort']);
    const read = expectProblem(
      await contract.send({ method: 'GET', path: `/s2s/users/${user.id}`, query: { expand: 'cards' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(read.errors?.map((e) => e.path)).toEqual(['query.expand']);
    const post = expectProblem(
      await contract.send({
        method: 'POST',
        path: '/corporates/users',
        query: { dryRun: 'true' },
        body: newBusinessUser(),
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(post.errors?.map((e) => e.path)).toEqual(['query.dryRun']);
  });
});

describe('areas are scoped', () => {
  it('/s2s never serves a business card nor a business user; /corporates never a Server2Server user (404 NOT_FOUND)', async (context) => {
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    const { client } = contract;
    const cardId = approval.card.id;
    await expectRefusal(client.s2s.cards.list(user.userUuid), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.balances.list(user.userUuid), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.cards.getDetails(cardId, { keyPair: await generateCardKeyPair() }), {
      status: 404,
      code: 'NOT_FOUND',
    });
    await expectRefusal(client.s2s.cards.activate(cardId), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.cards.chargeDraft(cardId), { status: 404, code: 'NOT_FOUND' });
    const s2sUser = await registeredUser(contract);
    await expectRefusal(client.corporates.approvals.listForUser(corporate.corporateUuid, s2sUser.id), {
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(
      (await client.corporates.approvals.get(corporate.corporateUuid, approval.approvalUuid)).card.id,
      'where it belongs, it is served',
    ).toBe(cardId);
  });

  it('a business card stays out of /s2s once DELIVERED and ACTIVE', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    await control.completeRegistration(user.userUuid);
    expect(
      (await contract.client.corporates.approvals.get(corporate.corporateUuid, approval.approvalUuid)).card.status,
    ).toBe('ACTIVE');
    await expectRefusal(
      contract.client.s2s.cards.getDetails(approval.card.id, { keyPair: await generateCardKeyPair() }),
      { status: 404, code: 'NOT_FOUND' },
    );
  });
});
