/**
 * The business (corporate cards) lifecycle of the interface document's section 3: a corporation tops up its balance
 * with crypto; an approval allocates a budget from it to a new card of a business user (ACCEPTED); the user finishes
 * registration (DELIVERED: the card is active and its details can be read); the budget is increased, which makes a
 * reapproval on the same card and leaves the old instance REAPPROVED; another approval, not yet started, is canceled
 * by the corporation (CANCELED, its budget released); and once validTo has passed on the virtual clock the approval
 * is FINISHED.
 *
 * Run alone: `npx tsx examples/business-lifecycle.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { generateCardKeyPair, type Approval } from 'card-issuing-sdk';
import { check, money, newRegistration, type Example } from './support/example';
import { runStandalone } from './support/run';

const DAY = 24 * 3600;
const at = (start: number, days: number) => new Date(start + days * DAY * 1000).toISOString();
const describe = (a: Approval) => `approval ${a.approvalUuid} ${a.status}, budget ${money(a.budget)}, card •••• ${a.card.last4} ${a.card.status}`;

/** The corporate approval lifecycle, from top-up to FINISHED. */
export const businessLifecycle: Example = {
  name: 'business-lifecycle',
  title: 'a corporate card: DELIVERED, budget increased (old instance REAPPROVED), another canceled, FINISHED after validTo',
  async run({ client, control, fixtures, progress }) {
    const corporate = fixtures.corporates[0];
    check(corporate !== undefined, 'the mock has no seeded corporate');
    const { corporateUuid } = corporate;
    const currency = corporate.balance.currency;

    // The corporate balance is funded by crypto sent to the corporate's deposit addresses.
    const addresses = await progress.step('listCorporateDepositAddresses', () => client.corporates.deposits.list(corporateUuid), (list) =>
      `${list.items.length} addresses: ${[...new Set(list.items.map((a) => `${a.type} on ${a.network}`))].join(', ')}`,
    );
    const usdc = addresses.items.find((a) => a.type === 'USDC');
    check(usdc !== undefined, `corporate ${corporateUuid} has no USDC address`);
    await progress.step(
      'incomingDeposit',
      () => control.incomingDeposit({ balanceId: corporate.balanceId, type: 'USDC', amount: '1000', network: usdc.network }),
      (result) => (result.kind === 'topUp' ? `1000 USDC: top-up of ${money(result.topUp.amount)}` : result.kind),
    );
    await progress.step('listTopUps', () => client.corporates.topUps.list(corporateUuid), (list) =>
      `${list.items.length} top-up(s); newest ${list.items.at(-1)?.status ?? 'none'}`,
    );

    const { firstName, lastName, email } = newRegistration('Grace', 'Hopper');
    const user = await progress.step(
      'createBusinessUser',
      () => client.corporates.users.create({ name: firstName, lastName, email, phone: '+12025550143' }),
      (u) => `user ${u.userUuid} ${u.registrationStatus}`,
    );

    // Dates on the mock's virtual clock, which is what moves approvals on.
    const start = Date.parse((await control.clock()).now);
    const approval = await progress.step(
      'createApproval',
      () => client.corporates.approvals.create(corporateUuid, { userUuid: user.userUuid, budget: { amount: 50_000, currency }, validFrom: at(start, 0), validTo: at(start, 30) }),
      describe,
    );
    check(approval.status === 'ACCEPTED', `a new approval is ${approval.status}, not ACCEPTED`);

    await progress.step('completeRegistration', () => control.completeRegistration(user.userUuid), (u) => `user ${u.registrationStatus}`);
    const delivered = await progress.step('getApproval', () => client.corporates.approvals.get(corporateUuid, approval.approvalUuid), describe);
    check(delivered.status === 'DELIVERED' && delivered.card.status === 'ACTIVE', `after registration the approval is ${delivered.status}, its card ${delivered.card.status}`);

    const keyPair = await generateCardKeyPair();
    const details = await progress.step('getApprovalCardDetails', () => client.corporates.approvals.getDetails(corporateUuid, approval.approvalUuid, { keyPair }), (d) =>
      `•••• •••• •••• ${d.pan.slice(-4)}, ${d.cardholderName}`,
    );

    // A budget change makes a new approval instance on the same card; the old one is REAPPROVED.
    const reapproval = await progress.step(
      'increaseApprovalBudget',
      () => client.corporates.approvals.increaseBudget(corporateUuid, approval.approvalUuid, { additionalBudget: { amount: 25_000, currency } }),
      (r) => `re${describe(r)}, replaces ${r.previousApprovalUuid}`,
    );
    const previous = await progress.step('getApproval/previous', () => client.corporates.approvals.get(corporateUuid, approval.approvalUuid), (a) =>
      `approval ${a.approvalUuid} ${a.status}, replaced by ${a.replacedByApprovalUuid}`,
    );
    check(previous.status === 'REAPPROVED' && previous.replacedByApprovalUuid === reapproval.approvalUuid, `the old instance is ${previous.status}, not REAPPROVED by the new one`);
    check(reapproval.status === 'DELIVERED' && reapproval.card.id === approval.card.id && reapproval.budget.amount === 75_000, 'the reapproval is not the DELIVERED 750.00 instance on the same card');
    const sameCard = await progress.step('getApprovalCardDetails/reapproval', () => client.corporates.approvals.getDetails(corporateUuid, reapproval.approvalUuid, { keyPair }), (d) =>
      `•••• ${d.pan.slice(-4)}: card data unchanged across the reapproval`,
    );
    check(sameCard.pan === details.pan, 'the card data changed with the reapproval');

    // Another approval for the same user, starting next week: PREPARED until then; the corporation cancels it.
    const other = await progress.step(
      'createApproval/nextWeek',
      () => client.corporates.approvals.create(corporateUuid, { userUuid: user.userUuid, budget: { amount: 20_000, currency }, validFrom: at(start, 7), validTo: at(start, 60) }),
      describe,
    );
    await progress.step('getApproval/nextWeek', () => client.corporates.approvals.get(corporateUuid, other.approvalUuid), describe);
    const reservedBefore = (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporateUuid)?.reserved.amount ?? 0;
    const canceled = await progress.step('cancelApproval', () => control.cancelApproval(corporateUuid, other.approvalUuid), describe);
    const reservedAfter = (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporateUuid)?.reserved.amount ?? 0;
    check(canceled.status === 'CANCELED', `the canceled approval is ${canceled.status}`);
    check(reservedBefore - reservedAfter === 20_000, `canceling released ${reservedBefore - reservedAfter}, not the 200.00 budget`);

    // Time passes beyond validTo: the delivered approval is FINISHED and its card closed.
    await progress.step('advanceClock', () => control.advanceClock(31 * DAY), (clock) => `virtual clock at ${clock.now}`);
    const finished = await progress.step('getApproval/reapproval', () => client.corporates.approvals.get(corporateUuid, reapproval.approvalUuid), describe);
    check(finished.status === 'FINISHED' && finished.card.status === 'CLOSED', `after validTo the approval is ${finished.status}, its card ${finished.card.status}`);
    await progress.step('listUserApprovals', () => client.corporates.approvals.listForUser(corporateUuid, user.userUuid), (list) =>
      list.items.map((a) => `${a.approvalUuid.slice(0, 8)} ${a.status}`).join(', '),
    );
  },
};

if (import.meta.main) await runStandalone(businessLifecycle);
