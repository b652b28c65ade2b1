/**
 * Invariants under a few thousand random operations (seeded, so a failure replays; `INVARIANTS_SEED=N` walks another way): every response validates
 * against the spec's schemas (success bodies through the generated response validators, errors as Problem);
 * no balance below zero; each user balance equals what was credited minus what was charged and spent on its
 * cards; nothing is credited twice; per corporate, funded (seed + top-ups) = available + reserved + spent, spent
 * is exactly what captures took on its cards less refunds, held exactly the pending holds, and the reservations are
 * exactly budget − spent of the instances in force plus the holds of ended ones; every approval's remaining is
 * budget − spent − held; card holds are captured (within +15 %), raised, reversed, refunded and expire after 7 days
 * by the test's own model; at most one change pending per approval; every list read page by page (random limits) gives each item
 * once, in the order of one big page; idempotent retries replay without running. The walk aims at the rare outcomes
 * (each change request given a fate in turn, actions aimed at the instances and holds in the status they need, some
 * holds left to expire), so that it reaches every status, reason, decline and state whatever the seed; the end asserts
 * that it did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as sdk from '../../sdk/generated/sdk.gen';
import type { ApprovalStatus } from '../../sdk/generated/types.gen';
import {
  zApproval,
  zApprovalStatus,
  zBusinessUser,
  zCard,
  zDepositVerification,
  zProblem,
  zTopUp,
  zUser,
} from '../../sdk/generated/zod.gen';
import { zAuthorization } from '../../mock-server/src/control/schemas';
import { exportPublicKey, generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { ProblemError, type CardIssuingMock } from '../../mock-server/src/index';
import { BASE_URL, DAY, mockHarness, signedClient, responseOf } from './helpers';

/** Operations per run. */
const OPERATIONS = 3000;
/** Operations of the walk from builder-made states. */
const BUILT_OPERATIONS = 800;
/** Full invariant checks every this many operations (and at the end). */
const CHECK_EVERY = 250;

const h = mockHarness({ seed: 'invariants' });

/** A world made by the builders: an approval in every status (with purchases where it was DELIVERED), Server2Server users and cards at each step, deposits, a corporate topped up. */
function buildWorld(mock: CardIssuingMock): void {
  const ada = mock.given.businessUser({ registered: true }).user.userUuid;
  for (const status of ['ACCEPTED', 'PREPARED', 'CANCELED'] as const) mock.given.approval({ status, budget: 40_000 });
  for (const status of ['DELIVERED', 'FINISHED', 'REAPPROVED', 'CREATED', 'REJECTED', 'EXPIRED'] as const)
    mock.given.approval({ status, budget: 60_000, user: ada, spent: 10_000, held: 5_000 });
  mock.given.approval({ status: 'DELIVERED', corporate: 'Globex Studio SARL', spent: 99_000, budget: 100_000 });
  const user = mock.given.user({ emailVerified: true, kyc: 'PASSED', balance: 50_000 }).user.id;
  mock.given.card({ user });
  mock.given.card({ type: 'PHYSICAL' });
  mock.given.card({ type: 'PHYSICAL', status: 'ORDERED' });
  mock.given.card({ status: 'LOCKED' });
  mock.given.card({ draft: 'CREATED' });
  mock.given.card({ type: 'PHYSICAL', draft: 'CHARGED' });
  mock.given.user({ registered: false });
  mock.given.verification({ user });
  mock.given.verification({ status: 'CREDITED', amount: '25' });
  mock.given.depositAddress({ type: 'BTC' });
  mock.given.corporateBalance({ corporate: 'Globex Studio SARL', available: 30_000_000 });
}

/** mulberry32: the test's own seeded generator. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

type Result = { data?: unknown; error?: unknown; response?: Response };

describe('invariants under random operations', () => {
  let publicKey: string;
  beforeAll(async () => {
    publicKey = await exportPublicKey(await generateCardKeyPair());
  });

  it(`hold over ${OPERATIONS} seeded operations`, async () => {
    await walkFrom(h.mock, OPERATIONS, true);
  });

  it(`hold from builder-made states (every approval status, users, cards, deposits) over ${BUILT_OPERATIONS} operations`, async () => {
    const mock = h.start();
    buildWorld(mock);
    await walkFrom(mock, BUILT_OPERATIONS, false);
  });

  /**
   * The random walk from the mock's state as it is: the model starts from what is there (nothing on a fresh mock;
   * the builders' records otherwise), every invariant is checked before the first step, then as the walk goes. With
   * `everywhere`, the end asserts that the walk reached every status, reason, decline and state.
   */
  async function walkFrom(mock: CardIssuingMock, operations: number, everywhere: boolean): Promise<void> {
    const rng = generator(Number(process.env.INVARIANTS_SEED ?? 1));
    const client = signedClient(mock.fixtures().credentials[0]!, BASE_URL, mock.handlers);
    const fixtures = mock.fixtures();
    const consents = fixtures.consents.map((c) => c.id);

    // The test's own model: what it did and what must follow from it.
    const users: { id: string; balanceId: string; email: string }[] = [];
    const drafts: string[] = [];
    const cards: string[] = [];
    const verifications = new Map<string, 'PENDING_APPROVAL' | 'CREDITED'>();
    const ledger = new Map<string, { credited: number; charged: number; spent: number }>();
    const businessUsers: string[] = [];
    const approvals: { corporateUuid: string; approvalUuid: string; cardId: string }[] = [];
    // Where each approval is now (time and registration move them too), from the mock's event stream: only to aim
    // actions at the instances whose outcome is rare; what the run proves is read through the API.
    const statusOf = new Map<string, ApprovalStatus>();
    const pendingChangeOf = new Map<string, string>();
    const unsubscribe = mock.subscribe((message) => {
      if (message.kind !== 'event' || message.event.type !== 'approval.statusChanged') return;
      const { approvalUuid, to, from, previousApprovalUuid } = message.event;
      statusOf.set(approvalUuid, to);
      if (to === 'CREATED' && previousApprovalUuid) pendingChangeOf.set(previousApprovalUuid, approvalUuid);
      if (from === 'CREATED' && previousApprovalUuid) pendingChangeOf.delete(previousApprovalUuid);
    });
    const inStatus = (...statuses: ApprovalStatus[]) =>
      approvals.filter((a) => statuses.includes(statusOf.get(a.approvalUuid)!));
    // Each change request is given a fate when it is made, in turn, so that every way a change ends is reached on
    // purpose: accepted, rejected, its approval ended by the corporation first (cancel or budget increase), or left
    // undecided until it expires.
    const FATES = ['accept', 'reject', 'endChanged', 'leave'] as const;
    const fates = new Map<string, Exclude<(typeof FATES)[number], 'leave'>>();
    let changesRequested = 0;
    const topUps = new Map<string, number>(fixtures.corporates.map((c) => [c.corporateUuid, 0]));
    const seeded = new Map(fixtures.corporates.map((c) => [c.corporateUuid, c.funded.amount]));
    // The test's model of each approved authorization: where its money is, by its own rules (7 days, +15 %).
    type HoldModel = {
      id: string;
      corporateUuid: string | null;
      balanceId: string | null;
      state: string;
      /** The purchase plus approved increments (what a forced capture after a reversal or expiry takes by default). */
      authorized: number;
      held: number;
      captured: number;
      refunded: number;
      expiresAt: number;
    };
    // Captures the network forced (by reason), approvals seen overspent, merchant credits per corporate.
    const forcedSeen = new Set<string>();
    let overspentSeen = 0;
    const credits = new Map<string, number>(fixtures.corporates.map((c) => [c.corporateUuid, 0]));
    const merchantCredits = new Map<string, number>();
    const holds = new Map<string, HoldModel>();
    const leftToExpire = new Set<string>();
    const statesSeen = new Set<string>();
    const cardCorporate = new Map<string, string>();
    const declines = new Set<string>();
    const reasonsSeen = new Set<string>();
    let pagesWalked = 0;
    const statusesSeen = new Set<ApprovalStatus>();
    const outcomes = new Map<string, { ok: number; refused: number }>();
    const replayable: {
      name: string;
      call: () => Promise<Result>;
      first: { status: number; body: unknown };
      at: number;
    }[] = [];
    let replays = 0;

    const entryOf = (balanceId: string) => {
      const entry = ledger.get(balanceId) ?? { credited: 0, charged: 0, spent: 0 };
      ledger.set(balanceId, entry);
      return entry;
    };
    const credit = (balanceId: string, amount: number) => {
      entryOf(balanceId).credited += amount;
    };
    /** Every item of a list, read page by page with a random limit: each page checked, the whole compared with one big page. */
    const walk = async <T>(
      name: string,
      page: (query: { limit: number; cursor?: string }) => Promise<{
        data?: { items: T[]; hasMore: boolean; nextCursor: string | null };
        error?: unknown;
        response?: Response;
      }>,
      smallest = 1,
    ): Promise<T[]> => {
      const limit = smallest + rng.int(101 - smallest);
      const items: T[] = [];
      let cursor: string | undefined;
      for (;;) {
        const result = (await checked(name, page({ limit, ...(cursor === undefined ? {} : { cursor }) })))!;
        expect(result.items.length, `${name}: a page holds at most limit`).toBeLessThanOrEqual(limit);
        expect(result.nextCursor === null, `${name}: nextCursor null exactly on the last page`).toBe(!result.hasMore);
        items.push(...result.items);
        pagesWalked++;
        if (!result.hasMore) break;
        expect(result.items.length, `${name}: a page before the last is full`).toBe(limit);
        cursor = result.nextCursor!;
      }
      if (limit < 100) {
        const whole = (await checked(name, page({ limit: 100 })))!;
        if (!whole.hasMore) expect(items, `${name}: pages = one big page`).toEqual(whole.items);
      }
      return items;
    };
    const tally = (name: string, ok: boolean) => {
      const t = outcomes.get(name) ?? { ok: 0, refused: 0 };
      if (ok) t.ok++;
      else t.refused++;
      outcomes.set(name, t);
    };

    /** Checks one API result: a success validated by the generated response validator, or a Problem of an expected status. */
    const checked = async <T>(
      name: string,
      promise: Promise<{ data?: T; error?: unknown; response?: Response }>,
    ): Promise<T | undefined> => {
      const result = await promise;
      const { status } = responseOf(result);
      if (status < 300) {
        expect(result.error, `${name}: a ${status} whose body fails the spec's schema`).toBeUndefined();
        tally(name, true);
        return result.data;
      }
      expect(responseOf(result).headers.get('content-type'), name).toBe('application/problem+json');
      const problem = zProblem.parse(result.error);
      expect([404, 409, 422], `${name}: ${status} ${problem.code} ${problem.detail}`).toContain(status);
      expect(problem.status).toBe(status);
      tally(name, false);
      return undefined;
    };
    /** Runs a control action: its result validated with `schema`, or a ProblemError of an expected status. */
    const controlled = <T>(name: string, schema: z.core.$ZodType<T>, action: () => unknown): T | undefined => {
      try {
        const value = z.parse(schema, action());
        tally(name, true);
        return value;
      } catch (error) {
        expect(error, name).toBeInstanceOf(ProblemError);
        expect([404, 409, 422], `${name}: ${(error as ProblemError).message}`).toContain(
          (error as ProblemError).status,
        );
        tally(name, false);
        return undefined;
      }
    };
    /** A POST sent with an Idempotency-Key, remembered so that a later step can retry it. */
    const keyed = async <T>(
      name: string,
      call: (headers: { 'Idempotency-Key': string }) => Promise<{ data?: T; error?: unknown; response?: Response }>,
    ) => {
      const headers = { 'Idempotency-Key': `k-${rng.int(1e9)}` };
      const repeat = () => call(headers) as Promise<Result>;
      const result = (await repeat()) as Result;
      if (replayable.length < 50)
        replayable.push({
          name,
          call: repeat,
          first: { status: responseOf(result).status, body: result.data ?? result.error },
          at: mock.clock.now().getTime(),
        });
      return checked(name, Promise.resolve(result as { data?: T; error?: unknown; response?: Response }));
    };

    /** The reapproval adding `amount` to `a`'s budget (any pending change of `a` ends with it). */
    const increaseBudget = async (a: (typeof approvals)[number], amount: number) => {
      const reapproval = await keyed('increaseApprovalBudget', (headers) =>
        sdk.increaseApprovalBudget({
          client,
          path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid },
          body: { additionalBudget: { amount, currency: 'EUR' } },
          headers,
        }),
      );
      if (reapproval)
        approvals.push({
          corporateUuid: reapproval.corporateUuid,
          approvalUuid: reapproval.approvalUuid,
          cardId: reapproval.card.id,
        });
    };
    /** A control action on an approval: the corporation's decision, or the user's change request (given the next fate). */
    const approvalAction = (
      action: 'cancel' | 'reject' | 'requestChange' | 'accept',
      a: (typeof approvals)[number],
    ) => {
      const result = controlled(action, zApproval, () =>
        action === 'requestChange'
          ? mock.approvals.requestChange(a.corporateUuid, a.approvalUuid, {
              additionalBudget: { amount: rng.int(100_000), currency: 'EUR' },
              pinUpdate: rng.chance(0.3),
            })
          : mock.approvals[action](a.corporateUuid, a.approvalUuid),
      );
      if (result) statusesSeen.add(result.status);
      if (result && action === 'accept')
        expect(['ACCEPTED', 'DELIVERED'], 'an accepted change takes over a live status').toContain(result.status);
      if (result && action === 'requestChange') {
        approvals.push({
          corporateUuid: result.corporateUuid,
          approvalUuid: result.approvalUuid,
          cardId: result.card.id,
        });
        const fate = FATES[changesRequested++ % FATES.length]!;
        if (fate !== 'leave') fates.set(result.approvalUuid, fate);
      }
    };

    /** The model of what the mock holds before the walk: the records builders made (nothing on a fresh mock). */
    const seedModel = () => {
      const state = mock.snapshot();
      for (const u of Object.values(state.users)) {
        const balance = Object.values(state.balances).find((b) => b.userId === u.id)!;
        users.push({ id: u.id, balanceId: balance.id, email: u.email });
        entryOf(balance.id);
      }
      for (const v of Object.values(state.verifications)) {
        verifications.set(v.id, v.status);
        if (v.creditedAmount) credit(v.balanceId, v.creditedAmount.amount);
      }
      for (const d of Object.values(state.drafts)) {
        drafts.push(d.cardId);
        if (d.chargedAt !== null) entryOf(d.balanceId).charged += d.price.amount;
      }
      for (const c of Object.values(state.cards)) {
        if (c.corporateUuid === null) cards.push(c.id);
        else cardCorporate.set(c.id, c.corporateUuid);
      }
      for (const u of Object.values(state.businessUsers)) businessUsers.push(u.userUuid);
      for (const a of Object.values(state.approvals)) {
        approvals.push({ corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid, cardId: a.cardId });
        statusOf.set(a.approvalUuid, a.status);
        if (a.status === 'CREATED' && a.previousApprovalUuid)
          pendingChangeOf.set(a.previousApprovalUuid, a.approvalUuid);
      }
      for (const auth of Object.values(state.authorizations)) {
        if (auth.status !== 'APPROVED') continue;
        holds.set(auth.id, {
          id: auth.id,
          corporateUuid: cardCorporate.get(auth.cardId) ?? null,
          balanceId: auth.balanceId,
          state: auth.state,
          authorized: auth.authorized,
          held: auth.held,
          captured: auth.captured,
          refunded: auth.refunded,
          expiresAt: Date.parse(auth.expiresAt ?? '') || 0,
        });
      }
    };

    const steps: [number, () => Promise<void>][] = [
      [
        6,
        async () => {
          if (users.length >= 40) return;
          const email =
            rng.chance(0.05) && users.length > 0 ? rng.pick(users)!.email : `user${rng.int(1e9)}@example.org`;
          const user = await checked(
            'createUser',
            sdk.createUser({
              client,
              body: {
                email,
                firstName: 'Ran',
                lastName: 'Dom',
                phone: '+447700900123',
                dateOfBirth: '1990-01-01',
                country: 'GB',
              },
            }),
          );
          if (!user) return;
          const balances = await checked('listBalances', sdk.listBalances({ client, query: { userId: user.id } }));
          users.push({ id: user.id, balanceId: balances!.items[0]!.id, email });
        },
      ],
      [
        4,
        async () => {
          // Onboarding in one go (each request checked), so that paid cards and deposits are reached often.
          const user = rng.pick(users);
          if (!user) return;
          for (const consentId of consents)
            await checked('signUserConsent', sdk.signUserConsent({ client, path: { userId: user.id, consentId } }));
          if (
            (await checked('requestEmailOtp', sdk.requestEmailOtp({ client, path: { userId: user.id } }))) !== undefined
          ) {
            await checked(
              'confirmEmail',
              sdk.confirmEmail({
                client,
                path: { userId: user.id },
                body: { code: mock.outbox(user.id).at(-1)!.code! },
              }),
            );
          }
          controlled('kyc', zUser, () => mock.kyc(user.id, 'PASSED'));
          await checked(
            'createDepositAddress',
            sdk.createDepositAddress({
              client,
              path: { balanceId: user.balanceId, type: 'USDC' },
              body: { network: 'ETHEREUM' },
            }),
          );
        },
      ],
      [
        10,
        async () => {
          const user = rng.pick(users);
          if (!user) return;
          if (rng.chance(0.5))
            await checked(
              'signUserConsent',
              sdk.signUserConsent({ client, path: { userId: user.id, consentId: rng.pick(consents)! } }),
            );
          else
            await checked(
              'signAppConsent',
              sdk.signAppConsent({ client, path: { consentUuid: rng.pick(consents)! }, query: { userUuid: user.id } }),
            );
        },
      ],
      [
        5,
        async () => {
          const user = rng.pick(users);
          if (!user) return;
          await checked('requestEmailOtp', sdk.requestEmailOtp({ client, path: { userId: user.id } }));
          const code = mock.outbox(user.id).at(-1)?.code ?? '000000';
          await checked(
            'confirmEmail',
            sdk.confirmEmail({ client, path: { userId: user.id }, body: { code: rng.chance(0.8) ? code : '999999' } }),
          );
        },
      ],
      [
        3,
        async () => {
          const user = rng.pick(users);
          if (user) controlled('kyc', zUser, () => mock.kyc(user.id, rng.chance(0.85) ? 'PASSED' : 'FAILED'));
        },
      ],
      [
        8,
        async () => {
          const user = rng.pick(users);
          if (!user) return;
          const config = rng.pick(fixtures.cardConfigs)!;
          const visualId = rng.chance(0.95) ? rng.pick(config.visualIds)! : fixtures.cardConfigs[0]!.visualIds[0]!;
          const made = await keyed('createCard', (headers) =>
            sdk.createCard({
              client,
              path: { userId: user.id },
              body: { configId: config.configId, visualId },
              headers,
            }),
          );
          if (made?.object === 'draft') drafts.push(made.cardId);
          if (made?.object === 'card') cards.push(made.id);
        },
      ],
      [
        6,
        async () => {
          const cardId = rng.pick(drafts);
          if (!cardId) return;
          const draft = await keyed('chargeDraft', (headers) => sdk.chargeDraft({ client, path: { cardId }, headers }));
          if (draft) entryOf(draft.balanceId).charged += draft.price.amount;
        },
      ],
      [
        5,
        async () => {
          const cardId = rng.pick(drafts);
          if (!cardId) return;
          const card = await checked('completeDraft', sdk.completeDraft({ client, path: { cardId } }));
          if (card?.object === 'card') cards.push(card.id);
        },
      ],
      [
        3,
        async () => {
          const cardId = rng.pick(cards);
          if (cardId) await checked('activateCard', sdk.activateCard({ client, path: { cardId } }));
        },
      ],
      [
        2,
        async () => {
          const cardId = rng.pick(cards);
          if (!cardId) return;
          if (rng.chance(0.5)) controlled('lockCard', zCard, () => mock.cards.lock(cardId));
          else controlled('unlockCard', zCard, () => mock.cards.unlock(cardId));
        },
      ],
      [
        1,
        async () => {
          const cardId = rng.pick(cards);
          if (cardId)
            await checked('getCardDetails', sdk.getCardDetails({ client, path: { cardId }, query: { publicKey } }));
        },
      ],
      [
        6,
        async () => {
          const user = rng.pick(users);
          if (!user) return;
          const type = rng.pick(fixtures.depositTypes)!;
          const network = rng.chance(0.9) ? rng.pick(type.networks)! : 'SOLANA';
          await checked(
            'createDepositAddress',
            sdk.createDepositAddress({
              client,
              path: { balanceId: user.balanceId, type: type.type },
              body: { network },
            }),
          );
        },
      ],
      [
        10,
        async () => {
          const toCorporate = rng.chance(0.25);
          const corporate = rng.pick(fixtures.corporates)!;
          const user = rng.pick(users);
          const balanceId = toCorporate || !user ? corporate.balanceId : user.balanceId;
          const type = rng.pick(fixtures.depositTypes)!;
          const whole = { BTC: rng.int(3), ETH: rng.int(20), USDC: rng.int(20_000) }[type.type] ?? 1;
          const amount = `${whole}.${String(rng.int(1e8)).padStart(8, '0')}`;
          const result = controlled(
            'incomingDeposit',
            z.union([
              z.object({ kind: z.literal('verification'), verification: zDepositVerification }),
              z.object({ kind: z.literal('topUp'), topUp: zTopUp }),
            ]),
            () => mock.deposits.incoming({ balanceId, type: type.type, amount, requiresVerification: rng.chance(0.5) }),
          );
          if (result?.kind === 'topUp')
            topUps.set(
              result.topUp.corporateUuid,
              topUps.get(result.topUp.corporateUuid)! + result.topUp.amount.amount,
            );
          if (result?.kind === 'verification') {
            verifications.set(result.verification.id, result.verification.status);
            if (result.verification.status === 'CREDITED')
              credit(result.verification.balanceId, result.verification.creditedAmount!.amount);
          }
        },
      ],
      [
        6,
        async () => {
          const id = rng.pick([...verifications.keys()]);
          if (!id) return;
          const body = { sourceOfFunds: 'SAVINGS' as const, walletType: 'SELF_HOSTED' as const };
          const wasPending = verifications.get(id) === 'PENDING_APPROVAL';
          const approved = rng.chance(0.5)
            ? await keyed('approveDepositVerification', (headers) =>
                sdk.approveDepositVerification({ client, path: { id }, body, headers }),
              )
            : await keyed('approveAppDepositVerification', (headers) =>
                sdk.approveAppDepositVerification({ client, path: { id }, body, headers }),
              );
          expect(approved !== undefined, `approval of a ${verifications.get(id)} verification`).toBe(wasPending);
          if (approved) {
            verifications.set(id, 'CREDITED');
            credit(approved.balanceId, approved.creditedAmount!.amount);
          }
        },
      ],
      [
        4,
        async () => {
          if (businessUsers.length >= 25) return;
          const user = await checked(
            'createBusinessUser',
            sdk.createBusinessUser({
              client,
              body: { name: 'Biz', lastName: 'User', email: `biz${rng.int(1e9)}@corp.example`, phone: '+12025550143' },
            }),
          );
          if (user) businessUsers.push(user.userUuid);
        },
      ],
      [
        3,
        async () => {
          const userUuid = rng.pick(businessUsers);
          if (userUuid)
            controlled('completeRegistration', zBusinessUser, () => mock.users.completeRegistration(userUuid));
        },
      ],
      [
        10,
        async () => {
          const userUuid = rng.pick(businessUsers);
          if (!userUuid) return;
          const corporate = rng.pick(fixtures.corporates)!;
          const now = mock.clock.now().getTime();
          const validFrom = new Date(now + (rng.int(6) - 1) * DAY * 1000).toISOString();
          const validTo = new Date(now + (rng.int(20) + (rng.chance(0.05) ? -30 : 1)) * DAY * 1000).toISOString();
          const amount = rng.chance(0.05) ? 50 : 100 + rng.int(rng.chance(0.1) ? 40_000_000 : 2_000_000);
          const currency = rng.chance(0.97) ? 'EUR' : 'USD';
          const approval = await keyed('createApproval', (headers) =>
            sdk.createApproval({
              client,
              path: { corporateUuid: corporate.corporateUuid },
              headers,
              body: { userUuid, budget: { amount, currency }, validFrom, validTo },
            }),
          );
          if (approval) {
            statusesSeen.add(approval.status);
            approvals.push({
              corporateUuid: approval.corporateUuid,
              approvalUuid: approval.approvalUuid,
              cardId: approval.card.id,
            });
            cardCorporate.set(approval.card.id, approval.corporateUuid);
          }
        },
      ],
      [
        6,
        async () => {
          const a = rng.pick(approvals);
          if (a) await increaseBudget(a, 1 + rng.int(rng.chance(0.2) ? 30_000_000 : 500_000));
        },
      ],
      [
        8,
        async () => {
          // Aimed: a pending change gets the decision planned for it (accepted, rejected, or its approval ended first).
          const change = rng.chance(0.5)
            ? rng.pick(inStatus('CREATED').filter((c) => fates.has(c.approvalUuid)))
            : undefined;
          if (change) {
            const fate = fates.get(change.approvalUuid)!;
            const changed = [...pendingChangeOf].find(([, pending]) => pending === change.approvalUuid)![0];
            const target = approvals.find((a) => a.approvalUuid === changed)!;
            if (fate === 'endChanged' && statusOf.get(changed) === 'DELIVERED')
              await increaseBudget(target, 1 + rng.int(100_000));
            else approvalAction(fate === 'endChanged' ? 'cancel' : fate, fate === 'endChanged' ? target : change);
            return;
          }
          // Otherwise any action on any approval (refusals included); a change is mostly requested where it can be.
          const action = rng.pick(['cancel', 'reject', 'requestChange', 'requestChange', 'accept'] as const)!;
          const changeable = inStatus('ACCEPTED', 'DELIVERED').filter((a) => !pendingChangeOf.has(a.approvalUuid));
          const cancelable = inStatus('ACCEPTED', 'PREPARED');
          const aimed = rng.chance(0.6)
            ? rng.pick(action === 'requestChange' ? changeable : action === 'cancel' ? cancelable : [])
            : undefined;
          const a = aimed ?? rng.pick(approvals);
          if (a) approvalAction(action, a);
        },
      ],
      [
        4,
        async () => {
          const a = rng.pick(approvals);
          if (!a) return;
          const approval = await checked(
            'getApproval',
            sdk.getApproval({ client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }),
          );
          if (approval) statusesSeen.add(approval.status);
          if (rng.chance(0.2))
            await checked(
              'getApprovalCardDetails',
              sdk.getApprovalCardDetails({
                client,
                path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid },
                query: { publicKey },
              }),
            );
        },
      ],
      [
        8,
        async () => {
          // A purchase on any card (business or Server2Server), approved or declined with a reason; a business card is
          // often one whose approval is DELIVERED, where the budget's own refusals (and holds) can happen.
          const delivered = rng.chance(0.5) ? rng.pick(inStatus('DELIVERED').map((a) => a.cardId)) : undefined;
          const cardId = rng.chance(0.6) ? (delivered ?? rng.pick([...cardCorporate.keys()])) : rng.pick(cards);
          if (!cardId) return;
          if (rng.chance(0.1)) controlled('lockCard', zCard, () => mock.cards.lock(cardId));
          const amount = 1 + rng.int(rng.chance(0.3) ? 2_000_000 : 20_000);
          const capture = rng.chance(0.4);
          const authorization = controlled('authorize', zAuthorization, () =>
            mock.cards.authorize(cardId, {
              amount,
              currency: rng.chance(0.9) ? 'EUR' : 'USD',
              merchant: `Shop ${rng.int(50)}`,
              capture,
            }),
          );
          if (rng.chance(0.5)) controlled('unlockCard', zCard, () => mock.cards.unlock(cardId));
          if (!authorization) return;
          statesSeen.add(authorization.state);
          if (authorization.status === 'DECLINED') {
            declines.add(authorization.declineReason!);
            return;
          }
          expect(authorization.state).toBe(capture ? 'CLEARED' : 'PENDING');
          // Some holds are left alone, so that holds expire on purpose.
          if (!capture && rng.chance(0.3)) leftToExpire.add(authorization.id);
          holds.set(authorization.id, {
            id: authorization.id,
            corporateUuid: cardCorporate.get(cardId) ?? null,
            balanceId: authorization.balanceId,
            state: authorization.state,
            authorized: amount,
            held: capture ? 0 : amount,
            captured: capture ? amount : 0,
            refunded: 0,
            expiresAt: mock.clock.now().getTime() + 7 * DAY * 1000,
          });
        },
      ],
      [
        7,
        async () => {
          // A step of a hold's life, by the test's own rules: what must be refused is, what succeeds moves the money it says.
          const action = rng.pick([
            'capture',
            'capture',
            'increment',
            'increment',
            'reverse',
            'reverse',
            'refund',
            'refund',
          ] as const)!;
          // Mostly aimed at a hold in the state the action needs (PENDING, or CLEARED for a refund), else at any.
          const candidates = [...holds.values()].filter((m) => !leftToExpire.has(m.id));
          const needed = action === 'refund' ? 'CLEARED' : 'PENDING';
          const model =
            (rng.chance(0.7) ? rng.pick(candidates.filter((m) => m.state === needed)) : undefined) ??
            rng.pick(candidates);
          if (!model) return;
          const refundable = model.captured - model.refunded;
          const base = action === 'refund' ? refundable : model.held;
          const amount = rng.chance(0.3)
            ? undefined
            : action === 'increment'
              ? 1 + rng.int(50_000)
              : Math.max(1, Math.round(base * (0.3 + rng.next() * 1.0)));
          const result = controlled(`authorization.${action}`, zAuthorization, () =>
            action === 'increment'
              ? mock.authorizations.increment(model.id, amount ?? 1)
              : mock.authorizations[action](model.id, amount),
          );
          const wanted = action === 'refund' ? 'CLEARED' : 'PENDING';
          if (action === 'capture' && ['PENDING', 'REVERSED', 'EXPIRED'].includes(model.state)) {
            // The network forces a capture above the hold + 15 % (integers: hold + ⌊hold × 15 / 100⌋), above what
            // remains, after a reversal or an expiry: it always clears, forced when one of those holds.
            const taken = amount ?? (model.state === 'PENDING' ? model.held : model.authorized);
            expect(result, `capture of ${taken} on a ${model.state} hold of ${model.held} clears`).toBeDefined();
            const last = result!.steps.at(-1)!;
            const must =
              model.state === 'REVERSED'
                ? 'AFTER_REVERSAL'
                : model.state === 'EXPIRED'
                  ? 'AFTER_EXPIRY'
                  : taken > model.held + Math.floor((model.held * 15) / 100)
                    ? 'ABOVE_TOLERANCE'
                    : undefined;
            if (must) expect({ kind: last.kind, forced: last.forced }).toEqual({ kind: 'forcedCapture', forced: must });
            else if (last.kind === 'forcedCapture') expect(last.forced).toBe('ABOVE_REMAINING');
            else expect(last.kind).toBe('capture');
            if (last.forced) forcedSeen.add(last.forced);
            Object.assign(model, { state: 'CLEARED', held: 0, captured: taken });
            statesSeen.add(result!.state);
            expect({ state: result!.state, held: result!.held, captured: result!.captured }).toEqual({
              state: 'CLEARED',
              held: 0,
              captured: taken,
            });
            return;
          }
          const taken = amount ?? (action === 'increment' ? 1 : base);
          const limit = base;
          if (model.state !== wanted || (action !== 'increment' && taken > limit)) {
            expect(
              result,
              `${action} of ${taken} on a ${model.state} hold of ${model.held} (refundable ${refundable}) is refused`,
            ).toBeUndefined();
            return;
          }
          if (!result) {
            expect.fail(`${action} of ${taken} refused on a ${model.state} hold of ${model.held}`);
            return;
          }
          statesSeen.add(result.state);
          if (action === 'capture') Object.assign(model, { state: 'CLEARED', held: 0, captured: taken });
          if (action === 'reverse')
            Object.assign(model, { state: taken === model.held ? 'REVERSED' : 'PENDING', held: model.held - taken });
          if (action === 'refund')
            Object.assign(model, {
              state: taken === refundable ? 'REFUNDED' : 'CLEARED',
              refunded: model.refunded + taken,
            });
          if (action === 'increment' && result.steps.at(-1)!.declineReason === null) {
            model.held += taken;
            model.authorized += taken;
          }
          expect(
            { state: result.state, held: result.held, captured: result.captured, refunded: result.refunded },
            `${action} of ${taken}`,
          ).toEqual({ state: model.state, held: model.held, captured: model.captured, refunded: model.refunded });
        },
      ],
      [
        3,
        async () => {
          // Lists read page by page, as a client iterates them.
          const user = rng.pick(users);
          if (user) {
            await walk('listCards', (q) => sdk.listCards({ client, query: { userId: user.id, ...q } }));
            await walk('listDepositVerifications', (q) =>
              sdk.listDepositVerifications({ client, query: { userId: user.id, ...q } }),
            );
          }
          const corporate = rng.pick(fixtures.corporates)!;
          await walk('listTopUps', (q) =>
            sdk.listTopUps({ client, path: { corporateUuid: corporate.corporateUuid }, query: q }),
          );
          const userUuid = rng.pick(businessUsers);
          if (userUuid)
            await walk('listUserApprovals', (q) =>
              sdk.listUserApprovals({ client, path: { corporateUuid: corporate.corporateUuid, userUuid }, query: q }),
            );
        },
      ],
      [
        1,
        async () => {
          // The network forces a capture far beyond the budget (a hotel's late charges): the approval is overspent.
          const model = rng.pick(
            [...holds.values()].filter(
              (m) =>
                m.corporateUuid !== null &&
                (m.state === 'EXPIRED' || (['PENDING', 'REVERSED'].includes(m.state) && !leftToExpire.has(m.id))),
            ),
          );
          if (!model) return;
          const taken = model.authorized * 2 + 50_000 + rng.int(200_000);
          const result = controlled('authorization.capture', zAuthorization, () =>
            mock.authorizations.capture(model.id, taken),
          );
          expect(result?.steps.at(-1)?.kind, 'a capture far beyond the budget is forced').toBe('forcedCapture');
          forcedSeen.add(result!.steps.at(-1)!.forced!);
          Object.assign(model, { state: 'CLEARED', held: 0, captured: taken });
        },
      ],
      [
        1,
        async () => {
          // A merchant's credit without a purchase (an unlinked refund), on a business or a Server2Server card.
          const cardId = rng.chance(0.5) ? rng.pick([...cardCorporate.keys()]) : rng.pick(cards);
          if (!cardId) return;
          const amount = 1 + rng.int(5_000);
          const result = controlled('cards.refund', zAuthorization, () =>
            mock.cards.refund(cardId, { amount, currency: 'EUR', merchant: 'Returns desk' }),
          );
          if (!result) return;
          expect({ state: result.state, refunded: result.refunded, kind: result.steps[0]!.kind }).toEqual({
            state: 'REFUNDED',
            refunded: amount,
            kind: 'credit',
          });
          const corporateUuid = cardCorporate.get(cardId);
          if (corporateUuid) credits.set(corporateUuid, credits.get(corporateUuid)! + amount);
          else merchantCredits.set(result.balanceId!, (merchantCredits.get(result.balanceId!) ?? 0) + amount);
        },
      ],
      [
        4,
        async () => {
          mock.clock.advance(rng.int(rng.chance(0.3) ? 4 * DAY : 6 * 3600));
          const now = mock.clock.now().getTime();
          for (const model of holds.values())
            if (model.state === 'PENDING' && model.expiresAt <= now)
              Object.assign(model, { state: 'EXPIRED', held: 0 });
        },
      ],
      [
        3,
        async () => {
          // Keys are kept 24 hours on the virtual clock: forget older ones (they would run again, as specified).
          const now = mock.clock.now().getTime();
          for (let i = replayable.length - 1; i >= 0; i--)
            if (now - replayable[i]!.at >= DAY * 1000) replayable.splice(i, 1);
          const entry = rng.pick(replayable);
          if (!entry) return;
          const again = await entry.call();
          expect(responseOf(again).status, `replay of ${entry.name}`).toBe(entry.first.status);
          expect(responseOf(again).headers.get('idempotent-replayed')).toBe('true');
          expect(again.data ?? again.error).toEqual(entry.first.body);
          replays++;
        },
      ],
    ];
    const totalWeight = steps.reduce((sum, [w]) => sum + w, 0);
    const step = () => {
      let roll = rng.int(totalWeight);
      for (const [weight, run] of steps) {
        if (roll < weight) return run();
        roll -= weight;
      }
      throw new Error('unreachable');
    };

    const checkCorporates = () => {
      for (const c of mock.fixtures().corporates) {
        expect(c.balance.amount, `${c.name} available`).toBeGreaterThanOrEqual(0);
        expect(
          c.balance.amount + c.reserved.amount + c.spent.amount,
          `${c.name}: funded + overdraft = available + reserved + spent`,
        ).toBe(c.funded.amount + c.overdraft.amount);
        expect(c.overdraft.amount === 0 || c.balance.amount === 0, `${c.name}: an overdraft only at 0 available`).toBe(
          true,
        );
        expect(c.funded.amount, `${c.name}: funded = seed + top-ups + merchant credits`).toBe(
          seeded.get(c.corporateUuid)! + topUps.get(c.corporateUuid)! + credits.get(c.corporateUuid)!,
        );
        const mine = [...holds.values()].filter((m) => m.corporateUuid === c.corporateUuid);
        expect(c.spent.amount, `${c.name}: spent = captured − refunded on its cards`).toBe(
          mine.reduce((sum, m) => sum + m.captured - m.refunded, 0),
        );
        expect(c.held.amount, `${c.name}: held = its pending holds`).toBe(mine.reduce((sum, m) => sum + m.held, 0));
        expect(c.held.amount, `${c.name}: holds are part of reserved`).toBeLessThanOrEqual(c.reserved.amount);
      }
    };
    const checkAll = async () => {
      checkCorporates();
      const { balances } = mock.snapshot();
      for (const user of users) {
        const balance = (await checked('listBalances', sdk.listBalances({ client, query: { userId: user.id } })))!
          .items[0]!;
        const entry = entryOf(user.balanceId);
        expect(balance.available, 'no balance below zero').toBeGreaterThanOrEqual(0);
        const onHold = [...holds.values()]
          .filter((m) => m.balanceId === user.balanceId)
          .reduce((sum, m) => sum + m.held + m.captured - m.refunded, 0);
        const overdraft = balances[user.balanceId]?.overdraft ?? 0;
        expect(overdraft === 0 || balance.available === 0, 'an overdraft only at 0 available').toBe(true);
        expect(
          balance.available - overdraft,
          'available − overdraft = credited + merchant credits − charged − held − (captured − refunded)',
        ).toBe(entry.credited + (merchantCredits.get(user.balanceId) ?? 0) - entry.charged - onHold);
      }
      const all = await walk('listDepositVerifications', (q) => sdk.listDepositVerifications({ client, query: q }), 25);
      expect(all.map((v) => [v.id, v.status])).toEqual([...verifications.entries()]);
      const creditedPerBalance = new Map<string, number>();
      for (const v of all) {
        expect(v.creditedAmount === null, `${v.id}: credited amount iff CREDITED`).toBe(v.status !== 'CREDITED');
        if (v.creditedAmount)
          creditedPerBalance.set(v.balanceId, (creditedPerBalance.get(v.balanceId) ?? 0) + v.creditedAmount.amount);
      }
      for (const [balanceId, amount] of creditedPerBalance)
        expect(amount, 'credited once').toBe(ledger.get(balanceId)!.credited);
      // Reservations are exactly budget - spent of the instances in force (ACCEPTED, PREPARED, DELIVERED).
      const reserved = new Map<string, number>();
      for (const corporate of fixtures.corporates) {
        for (const userUuid of businessUsers) {
          const list = await walk(
            'listUserApprovals',
            (q) =>
              sdk.listUserApprovals({ client, path: { corporateUuid: corporate.corporateUuid, userUuid }, query: q }),
            10,
          );
          for (const a of list) {
            statusesSeen.add(a.status);
            if (a.statusReason) reasonsSeen.add(a.statusReason);
            const live = ['ACCEPTED', 'PREPARED', 'DELIVERED'].includes(a.status);
            expect(
              a.remaining.amount,
              `${a.approvalUuid} ${a.status}: remaining = budget - spent - held (not below 0) while in force, else 0`,
            ).toBe(live ? Math.max(0, a.budget.amount - a.spent.amount - a.held.amount) : 0);
            expect(a.overspent.amount, `${a.approvalUuid}: overspent = how far spent + held exceed the budget`).toBe(
              Math.max(0, a.spent.amount + a.held.amount - a.budget.amount),
            );
            if (a.overspent.amount > 0) overspentSeen++;
            if (a.status === 'REAPPROVED' || a.status === 'CREATED' || a.status === 'REJECTED')
              expect(a.held.amount, `${a.approvalUuid} ${a.status} carries no hold`).toBe(0);
            expect(a.statusReason === null, `${a.approvalUuid}: a reason exactly when it ended`).toBe(
              live || a.status === 'CREATED',
            );
            // In force: budget − spent (its holds included); ended: only the holds it still carries.
            reserved.set(a.corporateUuid, (reserved.get(a.corporateUuid) ?? 0) + a.remaining.amount + a.held.amount);
            expect(a.card.generatedAt !== null || a.status !== 'DELIVERED', 'a DELIVERED card is generated').toBe(true);
            if (a.card.generatedAt === null) expect(a.card.last4, 'no number before generation').toBeNull();
          }
          const inForce = list.filter((a) => ['ACCEPTED', 'PREPARED', 'DELIVERED'].includes(a.status));
          expect(new Set(inForce.map((a) => a.card.id)).size, 'at most one instance in force per card').toBe(
            inForce.length,
          );
          const pending = list.filter((a) => a.status === 'CREATED');
          expect(
            new Set(pending.map((a) => a.previousApprovalUuid)).size,
            'at most one pending change per approval',
          ).toBe(pending.length);
        }
      }
      for (const c of mock.fixtures().corporates)
        expect(c.reserved.amount, `${c.name} reserved`).toBe(reserved.get(c.corporateUuid) ?? 0);
    };

    seedModel();
    await checkAll();
    for (let i = 1; i <= operations; i++) {
      await step();
      checkCorporates();
      if (i % CHECK_EVERY === 0) await checkAll();
    }
    await checkAll();
    unsubscribe();
    if (!everywhere) return;

    // The run means something only if it went everywhere: every approval status, and both outcomes of the main operations.
    expect([...statusesSeen].sort()).toEqual([...zApprovalStatus.options].sort());
    expect([...reasonsSeen].sort()).toEqual([
      'CANCELED_BY_CORPORATION',
      'CHANGED_APPROVAL_ENDED',
      'CHANGE_NOT_DECIDED',
      'NOT_DELIVERED_BY_VALID_TO',
      'REJECTED_BY_CORPORATION',
      'REPLACED',
      'VALIDITY_ENDED',
    ]);
    expect([...declines].sort()).toEqual([
      'APPROVAL_NOT_DELIVERED',
      'BUDGET_EXCEEDED',
      'CARD_LOCKED',
      'CARD_NOT_ACTIVE',
      'CURRENCY_MISMATCH',
      'INSUFFICIENT_FUNDS',
    ]);
    expect(pagesWalked).toBeGreaterThan(200);
    expect([...statesSeen].sort(), 'every state of an authorization').toEqual([
      'CLEARED',
      'DECLINED',
      'PENDING',
      'REFUNDED',
      'REVERSED',
    ]);
    expect(
      [...holds.values()].some((m) => m.state === 'EXPIRED'),
      'some holds expired',
    ).toBe(true);
    expect([...forcedSeen].sort(), 'captures forced for each reason a walk reaches').toEqual(
      expect.arrayContaining(['ABOVE_TOLERANCE', 'AFTER_EXPIRY', 'AFTER_REVERSAL']),
    );
    expect(overspentSeen, 'some approval was overspent').toBeGreaterThan(0);
    expect(outcomes.get('cards.refund')?.ok, 'merchant credits without a purchase').toBeGreaterThan(0);
    for (const action of ['increment', 'reverse', 'refund']) {
      expect(outcomes.get(`authorization.${action}`)?.ok, `${action} succeeded at least once`).toBeGreaterThan(0);
      expect(outcomes.get(`authorization.${action}`)?.refused, `${action} was refused at least once`).toBeGreaterThan(
        0,
      );
    }
    for (const name of [
      'createCard',
      'chargeDraft',
      'completeDraft',
      'createApproval',
      'increaseApprovalBudget',
      'approveDepositVerification',
      'incomingDeposit',
      'cancel',
      'accept',
    ]) {
      expect(outcomes.get(name)?.ok, `${name} succeeded at least once`).toBeGreaterThan(0);
      expect(outcomes.get(name)?.refused, `${name} was refused at least once`).toBeGreaterThan(0);
    }
    expect(replays).toBeGreaterThan(10);
  }
});
