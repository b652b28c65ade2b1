/**
 * The business (corporate cards) lifecycle of the interface document's section 3: a corporation tops up its balance
 * with crypto; an approval allocates a budget from it to a new card of a business user (ACCEPTED, the card not yet
 * generated); the user finishes registration (DELIVERED: the card is generated, active, and its details can be
 * read); the budget is increased, which makes a reapproval on the same card and leaves the old instance REAPPROVED;
 * the card buys something (approved) and tries to buy more than is left (declined, BUDGET_EXCEEDED); the user asks
 * for a change (more budget and a new PIN) and the corporation accepts it, so it takes over and the reapproval is
 * REAPPROVED in turn; another approval, not yet started, is canceled by the corporation (CANCELED, its budget
 * released); once validTo has passed on the virtual clock the approval is FINISHED, releasing only what was not
 * spent; and the user's approvals are listed page by page.
 *
 * Run alone: `npx tsx examples/business-lifecycle.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { type Approval, type CardKeyPair, generateCardKeyPair } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, type Example, type ExampleContext, money } from './support/example';
import { runStandalone } from './support/run';

const DAY = 24 * 3600;
const at = (start: number, days: number) => new Date(start + days * DAY * 1000).toISOString();
const describe = (a: Approval) =>
  `approval ${a.approvalUuid} ${a.status}, budget ${money(a.budget)}, spent ${money(a.spent)}, card ${a.card.last4 === null ? '(not generated)' : `•••• ${a.card.last4}`} ${a.card.status}`;

/** The corporate approval lifecycle, from top-up to FINISHED. */
export const businessLifecycle: Example = {
  name: 'business-lifecycle',
  title:
    'a corporate card: DELIVERED, budget increased, purchases approved and declined, a change accepted, another canceled, FINISHED, listed page by page',
  async run(context) {
    const corporate = context.fixtures.corporates[0];
    check(corporate !== undefined, 'the mock has no seeded corporate');
    const flow: Flow = {
      ...context,
      corporate,
      corporateUuid: corporate.corporateUuid,
      currency: corporate.balance.currency,
    };

    await topUpCorporateBalance(flow);
    const user = await createBusinessUser(flow);
    // Dates on the mock's virtual clock, which is what moves approvals on.
    const start = Date.parse((await flow.control.clock()).now);
    const approval = await approveNewCard(flow, user.userUuid, start);
    const { keyPair, pan } = await deliverOnRegistration(flow, user.userUuid, approval);
    const reapproval = await increaseBudget(flow, approval, keyPair, pan);
    await spendFromBudget(flow, approval, reapproval);
    const accepted = await acceptUserChange(flow, reapproval);
    await cancelNextWeeksApproval(flow, user.userUuid, start);
    await finishAfterValidTo(flow, accepted);
    await listUserApprovals(flow, user.userUuid);
  },
};

/** What every step of the flow works with: the example's context and the corporate whose cards it issues. */
type Flow = ExampleContext & {
  corporate: Corporate;
  corporateUuid: string;
  currency: Corporate['balance']['currency'];
};
type Corporate = ExampleContext['fixtures']['corporates'][number];

/** The corporate balance is funded by crypto sent to the corporate's deposit addresses. */
async function topUpCorporateBalance({ client, control, progress, corporate, corporateUuid }: Flow): Promise<void> {
  const addresses = await progress.step(
    'listCorporateDepositAddresses',
    () => client.corporates.deposits.list(corporateUuid),
    (list) =>
      `${list.items.length} addresses: ${[...new Set(list.items.map((a) => `${a.type} on ${a.network}`))].join(', ')}`,
  );
  const usdc = addresses.items.find((a) => a.type === 'USDC');
  check(usdc !== undefined, `corporate ${corporateUuid} has no USDC address`);
  await progress.step(
    'incomingDeposit',
    () =>
      control.incomingDeposit({
        balanceId: corporate.balanceId,
        type: 'USDC',
        amount: '1000',
        network: usdc.network,
      }),
    (result) => (result.kind === 'topUp' ? `1000 USDC: top-up of ${money(result.topUp.amount)}` : result.kind),
  );
  await progress.step(
    'listTopUps',
    () => client.corporates.topUps.list(corporateUuid),
    (list) => `${list.items.length} top-up(s); newest ${list.items.at(-1)?.status ?? 'none'}`,
  );
}

/** A business user, registration PENDING until the user finishes it. */
async function createBusinessUser({ client, progress }: Flow) {
  const { firstName, lastName, email } = newRegistration('Grace', 'Hopper');
  return progress.step(
    'createBusinessUser',
    () => client.corporates.users.create({ name: firstName, lastName, email, phone: '+12025550143' }),
    (u) => `user ${u.userUuid} ${u.registrationStatus}`,
  );
}

/** An approval allocates a budget to a new card of the user: ACCEPTED, the card not yet generated. */
async function approveNewCard({ client, progress, corporateUuid, currency }: Flow, userUuid: string, start: number) {
  const approval = await progress.step(
    'createApproval',
    () =>
      client.corporates.approvals.create(corporateUuid, {
        userUuid: userUuid,
        budget: { amount: 50_000, currency },
        validFrom: at(start, 0),
        validTo: at(start, 30),
      }),
    describe,
  );
  check(approval.status === 'ACCEPTED', `a new approval is ${approval.status}, not ACCEPTED`);
  return approval;
}

/** Once the user finishes registration the approval is DELIVERED: the card is generated, active and readable. */
async function deliverOnRegistration(
  { client, control, progress, corporateUuid }: Flow,
  userUuid: string,
  approval: Approval,
): Promise<{ keyPair: CardKeyPair; pan: string }> {
  await progress.step(
    'completeRegistration',
    () => control.completeRegistration(userUuid),
    (u) => `user ${u.registrationStatus}`,
  );
  const delivered = await progress.step(
    'getApproval',
    () => client.corporates.approvals.get(corporateUuid, approval.approvalUuid),
    describe,
  );
  check(
    delivered.status === 'DELIVERED' && delivered.card.status === 'ACTIVE',
    `after registration the approval is ${delivered.status}, its card ${delivered.card.status}`,
  );

  const keyPair = await generateCardKeyPair();
  const details = await progress.step(
    'getApprovalCardDetails',
    () => client.corporates.approvals.getDetails(corporateUuid, approval.approvalUuid, { keyPair }),
    (d) => `•••• •••• •••• ${d.pan.slice(-4)}, ${d.cardholderName}`,
  );
  return { keyPair, pan: details.pan };
}

/** A budget change makes a new approval instance on the same card; the old one is REAPPROVED. */
async function increaseBudget(
  { client, progress, corporateUuid, currency }: Flow,
  approval: Approval,
  keyPair: CardKeyPair,
  pan: string,
): Promise<Approval> {
  const reapproval = await progress.step(
    'increaseApprovalBudget',
    () =>
      client.corporates.approvals.increaseBudget(corporateUuid, approval.approvalUuid, {
        additionalBudget: { amount: 25_000, currency },
      }),
    (r) => `re${describe(r)}, replaces ${r.previousApprovalUuid}`,
  );
  const previous = await progress.step(
    'getApproval/previous',
    () => client.corporates.approvals.get(corporateUuid, approval.approvalUuid),
    (a) => `approval ${a.approvalUuid} ${a.status}, replaced by ${a.replacedByApprovalUuid}`,
  );
  check(
    previous.status === 'REAPPROVED' && previous.replacedByApprovalUuid === reapproval.approvalUuid,
    `the old instance is ${previous.status}, not REAPPROVED by the new one`,
  );
  check(
    reapproval.status === 'DELIVERED' && reapproval.card.id === approval.card.id && reapproval.budget.amount === 75_000,
    'the reapproval is not the DELIVERED 750.00 instance on the same card',
  );
  const sameCard = await progress.step(
    'getApprovalCardDetails/reapproval',
    () => client.corporates.approvals.getDetails(corporateUuid, reapproval.approvalUuid, { keyPair }),
    (d) => `•••• ${d.pan.slice(-4)}: card data unchanged across the reapproval`,
  );
  check(sameCard.pan === pan, 'the card data changed with the reapproval');
  return reapproval;
}

/** The card spends from the approval's budget: a purchase within what is left is approved, one above it declined. */
async function spendFromBudget(
  { client, control, progress, corporateUuid, currency }: Flow,
  approval: Approval,
  reapproval: Approval,
): Promise<void> {
  const purchase = await progress.step(
    'authorize',
    () => control.authorize(approval.card.id, { amount: 12_000, currency, merchant: 'Hotel Adlon' }),
    (a) => `${money(a.amount)} at ${a.merchant}: ${a.status}`,
  );
  check(purchase.status === 'APPROVED', `a purchase within the budget was ${purchase.status}`);
  const declined = await progress.step(
    'authorize/overBudget',
    () => control.authorize(approval.card.id, { amount: 70_000, currency, merchant: 'Car Rental' }),
    (a) => `${money(a.amount)} at ${a.merchant}: ${a.status} ${a.declineReason}`,
  );
  check(
    declined.status === 'DECLINED' && declined.declineReason === 'BUDGET_EXCEEDED',
    `a purchase above the remaining budget was ${declined.status} ${declined.declineReason}`,
  );
  const spending = await progress.step(
    'getApproval/spent',
    () => client.corporates.approvals.get(corporateUuid, reapproval.approvalUuid),
    (a) => `spent ${money(a.spent)}, remaining ${money(a.remaining)}`,
  );
  check(
    spending.spent.amount === 12_000 && spending.remaining.amount === 63_000,
    'spent and remaining do not reflect the purchase',
  );
}

/**
 * The user asks for a change (more budget, a new PIN); the corporation accepts it: it takes over the card, the
 * reservation and what was spent, and the instance it changes is REAPPROVED.
 */
async function acceptUserChange(
  { client, control, progress, corporateUuid, currency }: Flow,
  reapproval: Approval,
): Promise<Approval> {
  const change = await progress.step(
    'requestChange',
    () =>
      control.requestChange(corporateUuid, reapproval.approvalUuid, {
        additionalBudget: { amount: 25_000, currency },
        pinUpdate: true,
      }),
    (c) =>
      `change ${c.approvalUuid} ${c.status}: +${money(c.change!.additionalBudget)}${c.change!.pinUpdate ? ', new PIN' : ''}, expires ${c.expiresAt}`,
  );
  const accepted = await progress.step(
    'acceptChange',
    () => control.acceptChange(corporateUuid, change.approvalUuid),
    describe,
  );
  check(
    accepted.status === 'DELIVERED' && accepted.budget.amount === 100_000 && accepted.remaining.amount === 88_000,
    `the accepted change is ${accepted.status}, remaining ${accepted.remaining.amount}`,
  );
  const replaced = await progress.step(
    'getApproval/replaced',
    () => client.corporates.approvals.get(corporateUuid, reapproval.approvalUuid),
    (a) => `approval ${a.approvalUuid} ${a.status} (${a.statusReason}), replaced by ${a.replacedByApprovalUuid}`,
  );
  check(
    replaced.status === 'REAPPROVED' && replaced.replacedByApprovalUuid === accepted.approvalUuid,
    `the changed instance is ${replaced.status}`,
  );
  return accepted;
}

/** Another approval for the same user, starting next week: PREPARED until then; the corporation cancels it. */
async function cancelNextWeeksApproval(
  { client, control, progress, corporateUuid, currency }: Flow,
  userUuid: string,
  start: number,
): Promise<void> {
  const other = await progress.step(
    'createApproval/nextWeek',
    () =>
      client.corporates.approvals.create(corporateUuid, {
        userUuid: userUuid,
        budget: { amount: 20_000, currency },
        validFrom: at(start, 7),
        validTo: at(start, 60),
      }),
    describe,
  );
  await progress.step(
    'getApproval/nextWeek',
    () => client.corporates.approvals.get(corporateUuid, other.approvalUuid),
    describe,
  );
  const reservedBefore =
    (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporateUuid)?.reserved.amount ?? 0;
  const canceled = await progress.step(
    'cancelApproval',
    () => control.cancelApproval(corporateUuid, other.approvalUuid),
    describe,
  );
  const reservedAfter =
    (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporateUuid)?.reserved.amount ?? 0;
  check(canceled.status === 'CANCELED', `the canceled approval is ${canceled.status}`);
  check(
    reservedBefore - reservedAfter === 20_000,
    `canceling released ${reservedBefore - reservedAfter}, not the 200.00 budget`,
  );
}

/** Time passes beyond validTo: the delivered approval is FINISHED, its card closed, what was not spent released. */
async function finishAfterValidTo(
  { client, control, progress, corporateUuid }: Flow,
  accepted: Approval,
): Promise<void> {
  await progress.step(
    'advanceClock',
    () => control.advanceClock(31 * DAY),
    (clock) => `virtual clock at ${clock.now}`,
  );
  const finished = await progress.step(
    'getApproval/accepted',
    () => client.corporates.approvals.get(corporateUuid, accepted.approvalUuid),
    describe,
  );
  check(
    finished.status === 'FINISHED' && finished.card.status === 'CLOSED',
    `after validTo the approval is ${finished.status}, its card ${finished.card.status}`,
  );
}

/** The user's approvals, then the same list paged: three approvals a page, each next page fetched when reached. */
async function listUserApprovals({ client, progress, corporateUuid }: Flow, userUuid: string): Promise<void> {
  await progress.step(
    'listUserApprovals',
    () => client.corporates.approvals.listForUser(corporateUuid, userUuid),
    (list) => list.items.map((a) => `${a.approvalUuid.slice(0, 8)} ${a.status}`).join(', '),
  );

  const pages = await progress.step(
    'listUserApprovals/pages',
    async () => {
      const sizes: string[] = [];
      const first = await client.corporates.approvals.listForUser(corporateUuid, userUuid, { limit: 3 });
      for await (const page of first.iterPages()) sizes.push(`[${page.items.map((a) => a.status).join(', ')}]`);
      return sizes;
    },
    (sizes) => `${sizes.length} pages of at most 3: ${sizes.join(' ')}`,
  );
  check(pages.length === 2, `4 approvals came in ${pages.length} pages of at most 3, not 2`);
}

if (import.meta.main) await runStandalone(businessLifecycle);
