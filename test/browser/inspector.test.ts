import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CardIssuingError,
  createCardIssuingClient,
  generateCardKeyPair,
  type Approval,
  type CardIssuingClient,
} from 'card-issuing-sdk';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { launchChromium } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';

// The inspector page (`/__mock/ui`) of the standalone server, driven in Debian's Chromium through playwright-core: a
// business lifecycle created through the API and then moved on from the page alone, by clicking, with what the page
// shows checked after each step; the journal finding the exchange of a typed SDK error by its request id; keyboard
// use; a narrow window; and the bytes the page received checked for secrets (Chrome DevTools Protocol, every
// response body and every server-sent event).

const DAY_MS = 24 * 3600 * 1000;
const results = repoPath('test-results');
const shot = (name: string) => `${results}/inspector-${name}.png`;

let server: MockServer;
let browser: Browser;
let client: CardIssuingClient;
/** Every Authorization header the SDK sent (none may reach the page). */
const authorizations: string[] = [];

beforeAll(async () => {
  mkdirSync(results, { recursive: true });
  server = await startMockServer({ port: 0, seed: 'inspector-browser-test' });
  const fetchRecording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('authorization');
    if (header) authorizations.push(header);
    return fetch(request);
  };
  client = createCardIssuingClient({
    baseUrl: server.url,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    fetch: fetchRecording,
    retry: false,
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** What the page received: every response body and every server-sent event, as text, gathered through CDP. */
async function recordReceived(
  page: Page,
  context: BrowserContext,
): Promise<{ texts: string[]; urls: string[]; settle(): Promise<void> }> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const texts: string[] = [];
  const urls: string[] = [];
  const pending: Promise<unknown>[] = [];
  const urlOf = new Map<string, string>();
  cdp.on('Network.responseReceived', (e) => {
    urlOf.set(e.requestId, e.response.url);
    urls.push(e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    pending.push(
      cdp.send('Network.getResponseBody', { requestId: e.requestId }).then(
        (body) => texts.push(body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body),
        () => undefined, // a body Chromium no longer holds (a redirect, a cancelled stream)
      ),
    );
  });
  cdp.on('Network.eventSourceMessageReceived', (e) => texts.push(`${e.eventName} ${e.data}`));
  return { texts, urls, settle: () => Promise.all(pending).then(() => undefined) };
}

/** Waits until the page shows `selector` (the page updates live; nothing here sleeps). */
async function shows(page: Page, selector: string, timeout = 15_000): Promise<void> {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout });
}

/** The text of the page's status line after an action. */
async function noticeAfter(page: Page, click: () => Promise<void>): Promise<string> {
  const before = await page.locator('.notice[role="status"]').textContent();
  await click();
  await page.waitForFunction((prev) => {
    const el = document.querySelector('.notice[role="status"]');
    return el !== null && el.textContent !== '' && el.textContent !== prev;
  }, before);
  return (await page.locator('.notice[role="status"]').textContent()) ?? '';
}

describe('the inspector page at /__mock/ui', () => {
  let context: BrowserContext;
  let page: Page;
  let received: Awaited<ReturnType<typeof recordReceived>>;
  let shortApproval: Approval;
  let longApproval: Approval;
  let corporateUuid: string;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    received = await recordReceived(page, context);

    // Created through the API, as an integrator's app would: a business user, an approval ending in 2 days and
    // one ending in 30; a Server2Server user with an e-mail code in the outbox.
    const grace = await client.corporates.users.create({
      name: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.org',
      phone: '+12025550143',
    });
    corporateUuid = server.mock.fixtures().corporates[0]!.corporateUuid;
    const now = server.mock.clock.now().getTime();
    const approval = (days: number, amount: number) =>
      client.corporates.approvals.create(corporateUuid, {
        userUuid: grace.userUuid,
        budget: { amount, currency: 'EUR' },
        validFrom: new Date(now).toISOString(),
        validTo: new Date(now + days * DAY_MS).toISOString(),
      });
    shortApproval = await approval(2, 50_000);
    longApproval = await approval(30, 20_000);
    const ada = await client.s2s.users.create({
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    });
    await client.s2s.email.requestOtp(ada.id);

    await page.goto(`${server.url}/__mock/ui`);
    await shows(page, '[data-live="live"]');
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('shows the business state as the API left it: user PENDING, both approvals ACCEPTED, the budget reserved', async () => {
    await shows(page, `[data-approval="${shortApproval.approvalUuid}"][data-status="ACCEPTED"]`);
    await shows(page, `[data-approval="${longApproval.approvalUuid}"][data-status="ACCEPTED"]`);
    const row = page.locator('tr', { hasText: 'Grace Hopper' });
    await expect(row.locator('[data-status]').textContent()).resolves.toBe('PENDING');
    const acme = page.locator(`[data-corporate="${corporateUuid}"]`);
    await expect(acme.locator('[data-figure="reserved"]').textContent()).resolves.toBe('700.00 EUR');
    await expect(acme.locator('[data-figure="available"]').textContent()).resolves.toBe('999,300.00 EUR');
    // The card is there from creation, INACTIVE, and gets its number only when the approval is DELIVERED.
    const chain = page.locator(`[data-card="${shortApproval.card.id}"]`);
    await expect(chain.locator('.chain-head [data-status]').textContent()).resolves.toBe('INACTIVE');
    await expect(chain.locator('.chain-head').textContent()).resolves.toContain('not generated yet');
    await page.screenshot({ path: shot('1-created-1280x800') });
  });

  it('completes the registration by clicking: both approvals DELIVERED, the cards ACTIVE, the history says when', async () => {
    const notice = await noticeAfter(page, () =>
      page.getByRole('button', { name: 'Complete registration of Grace Hopper' }).click(),
    );
    expect(notice).toBe('Grace Hopper finished registration');
    await shows(page, `[data-approval="${shortApproval.approvalUuid}"][data-status="DELIVERED"]`);
    await shows(page, `[data-approval="${longApproval.approvalUuid}"][data-status="DELIVERED"]`);
    await shows(page, `[data-card="${shortApproval.card.id}"] .chain-head [data-status="ACTIVE"]`);
    // Generated now: the page shows the last four digits the API shows, never more.
    const { card } = await client.corporates.approvals.get(corporateUuid, shortApproval.approvalUuid);
    expect(card.last4).toMatch(/^\d{4}$/);
    await expect(page.locator(`[data-card="${shortApproval.card.id}"] .chain-head`).textContent()).resolves.toContain(
      `•••• ${card.last4}`,
    );
    const history = await page.locator(`[data-approval="${shortApproval.approvalUuid}"] .history`).textContent();
    expect(history).toMatch(/ACCEPTED.*\(createApproval\).*DELIVERED.*\(registrationCompleted\)/);
    await expect(page.locator('tr', { hasText: 'Grace Hopper' }).locator('[data-status]').textContent()).resolves.toBe(
      'COMPLETED',
    );
    // The page's own action is in the journal, under its control name.
    await shows(page, '.rows [data-operation="mock.users.complete-registration"]');
    await page.screenshot({ path: shot('2-registered-1280x800') });
  });

  it('advances the clock past validTo by clicking: the short approval FINISHED, its card CLOSED, its budget released', async () => {
    const before = Date.parse((await page.locator('[data-clock]').getAttribute('data-clock'))!);
    await noticeAfter(page, () => page.getByRole('button', { name: '+3 days' }).click());
    await shows(page, `[data-approval="${shortApproval.approvalUuid}"][data-status="FINISHED"]`);
    await shows(page, `[data-card="${shortApproval.card.id}"] .chain-head [data-status="CLOSED"]`);
    await expect(
      page.locator(`[data-approval="${longApproval.approvalUuid}"]`).getAttribute('data-status'),
    ).resolves.toBe('DELIVERED');
    const after = Date.parse((await page.locator('[data-clock]').getAttribute('data-clock'))!);
    expect(after - before).toBeGreaterThanOrEqual(3 * DAY_MS);
    // What the move made due, in words, and the ledger with the short approval's budget back.
    const became = page.getByRole('list', { name: 'Became due at the last move' });
    await expect(became.textContent()).resolves.toContain(
      `Approval ${shortApproval.approvalUuid.slice(0, 8)}: DELIVERED → FINISHED (time)`,
    );
    const acme = page.locator(`[data-corporate="${corporateUuid}"]`);
    await expect(acme.locator('[data-figure="reserved"]').textContent()).resolves.toBe('200.00 EUR');
    await page.screenshot({ path: shot('3-finished-1280x800') });
  });

  it('requests a change and accepts it by clicking: a new instance DELIVERED on the same card, the old one REAPPROVED', async () => {
    const instance = page.locator(`[data-approval="${longApproval.approvalUuid}"]`);
    await instance.getByLabel('Additional budget (EUR)').fill('50.00');
    await noticeAfter(page, () => instance.getByRole('button', { name: 'Request change' }).click());
    const chain = page.locator(`[data-card="${longApproval.card.id}"]`);
    await shows(page, `[data-card="${longApproval.card.id}"] .instance[data-status="CREATED"]`);
    const created = chain.locator('.instance[data-status="CREATED"]');
    const changeUuid = (await created.getAttribute('data-approval'))!;
    await expect(created.locator('.budget').textContent()).resolves.toBe('250.00 EUR');

    const notice = await noticeAfter(page, () =>
      created.getByRole('button', { name: `Accept approval ${changeUuid.slice(0, 8)}` }).click(),
    );
    expect(notice).toMatch(/^Accept change/);
    await shows(page, `[data-approval="${changeUuid}"][data-status="DELIVERED"]`);
    await shows(page, `[data-approval="${longApproval.approvalUuid}"][data-status="REAPPROVED"]`);
    await expect(page.locator(`[data-approval="${changeUuid}"] .history`).textContent()).resolves.toMatch(
      /CREATED.*DELIVERED/,
    );
    await page.screenshot({ path: shot('4-change-accepted-1280x800') });
  });

  it('declines a purchase over the remaining budget by clicking, and says why', async () => {
    const chain = page.locator(`[data-card="${longApproval.card.id}"]`);
    await chain.getByLabel('Amount (EUR)').fill('999.00');
    await chain.getByLabel('Merchant', { exact: true }).fill('Overpriced Gadgets');
    const notice = await noticeAfter(page, () => chain.getByRole('button', { name: 'Authorize purchase' }).click());
    // The accepted change raised the budget to 250.00 EUR: 999.00 is over what remains.
    expect(notice).toMatch(/: DECLINED \(BUDGET_EXCEEDED\)$/);
    await shows(page, `[data-card="${longApproval.card.id}"] [data-purchase="declined"]`);
    await expect(chain.locator('[data-purchase="declined"]').textContent()).resolves.toMatch(
      /999\.00 EUR at Overpriced Gadgets — BUDGET_EXCEEDED/,
    );
    await chain.locator('.purchases').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('5-purchase-declined-1280x800') });
    // One within the budget is approved, and the ledger shows it spent.
    await chain.getByLabel('Amount (EUR)').fill('40.00');
    await chain.getByLabel('Merchant', { exact: true }).fill('Coffee Corner');
    expect(await noticeAfter(page, () => chain.getByRole('button', { name: 'Authorize purchase' }).click())).toMatch(
      /: APPROVED$/,
    );
    await shows(page, `[data-card="${longApproval.card.id}"] [data-purchase="approved"]`);
    const acme = page.locator(`[data-corporate="${corporateUuid}"]`);
    await page.waitForFunction(
      (uuid) => document.querySelector(`[data-corporate="${uuid}"] [data-figure="spent"]`)?.textContent === '40.00 EUR',
      corporateUuid,
    );
    await expect(acme.locator('[data-figure="reserved"]').textContent()).resolves.toBe('210.00 EUR');
  });

  it('walks a purchase through its life by clicking: held, incremented, partly captured, refunded; another reversed, another expired', async () => {
    const chain = page.locator(`[data-card="${longApproval.card.id}"]`);
    const live = chain.locator('.instance[data-status="DELIVERED"]');
    const figure = (name: string) => live.locator(`[data-figure="${name}"]`).textContent();
    /** Waits until the live instance shows spent, held and remaining as given (the page updates live). */
    const showsFigures = (spent: string, held: string, remaining: string) =>
      page.waitForFunction(
        ([card, want]) => {
          const el = document.querySelector(`[data-card="${card}"] .instance[data-status="DELIVERED"]`);
          const f = (n: string) => el?.querySelector(`[data-figure="${n}"]`)?.textContent;
          return `${f('spent')} ${f('held')} ${f('remaining')}` === want;
        },
        [longApproval.card.id, `${spent} ${held} ${remaining}`] as const,
      );
    // Budget 250.00 with 40.00 spent: a hold of 60.00 lowers remaining at once.
    await showsFigures('40.00 EUR', '0.00 EUR', '210.00 EUR');
    const hold = async (amount: string, merchant: string) => {
      await chain.getByLabel('Amount (EUR)').fill(amount);
      await chain.getByLabel('Merchant', { exact: true }).fill(merchant);
      await chain.getByLabel('Hold only (capture later)').check();
      expect(await noticeAfter(page, () => chain.getByRole('button', { name: 'Authorize purchase' }).click())).toMatch(
        /: APPROVED, held$/,
      );
      await shows(page, `[data-card="${longApproval.card.id}"] [data-state="PENDING"]:has-text("${merchant}")`);
      return chain.locator(`[data-state="PENDING"]:has-text("${merchant}")`);
    };
    const purchase = await hold('60.00', 'Grand Hotel');
    const id = (await purchase.getAttribute('data-authorization'))!;
    const row = chain.locator(`[data-authorization="${id}"]`);
    await showsFigures('40.00 EUR', '60.00 EUR', '150.00 EUR');
    await page.screenshot({ path: shot('5a-purchase-held-1280x800') });

    // An incremental authorization raises the hold.
    await row.getByLabel('Step (EUR)').fill('15.00');
    expect(await noticeAfter(page, () => row.getByRole('button', { name: /^Increment/ }).click())).toMatch(
      /^Increment purchase at Grand Hotel .*: PENDING$/,
    );
    await showsFigures('40.00 EUR', '75.00 EUR', '135.00 EUR');
    await expect(row.locator('[data-figure="authorized"]').textContent()).resolves.toBe('75.00 EUR');
    // Captured for less than the hold: 50.00 spent, the 25.00 left of the hold back in remaining.
    await row.getByLabel('Step (EUR)').fill('50.00');
    expect(await noticeAfter(page, () => row.getByRole('button', { name: /^Capture/ }).click())).toMatch(/: CLEARED$/);
    await shows(page, `[data-authorization="${id}"][data-state="CLEARED"]`);
    await showsFigures('90.00 EUR', '0.00 EUR', '160.00 EUR');
    // Refunded in part: spent goes down, remaining up; the ledger with it.
    await row.getByLabel('Step (EUR)').fill('20.00');
    expect(await noticeAfter(page, () => row.getByRole('button', { name: /^Refund/ }).click())).toMatch(/: CLEARED$/);
    await showsFigures('70.00 EUR', '0.00 EUR', '180.00 EUR');
    await expect(row.locator('[data-figure="refunded"]').textContent()).resolves.toBe('20.00 EUR');
    await page.waitForFunction(
      (uuid) => document.querySelector(`[data-corporate="${uuid}"] [data-figure="spent"]`)?.textContent === '70.00 EUR',
      corporateUuid,
    );

    // Another hold, reversed whole; a third expires 7 days on.
    const reversed = await hold('30.00', 'Car Hire');
    const reversedId = (await reversed.getAttribute('data-authorization'))!;
    await showsFigures('70.00 EUR', '30.00 EUR', '150.00 EUR');
    await noticeAfter(page, () =>
      chain
        .locator(`[data-authorization="${reversedId}"]`)
        .getByRole('button', { name: /^Reverse/ })
        .click(),
    );
    await shows(page, `[data-authorization="${reversedId}"][data-state="REVERSED"]`);
    const expiring = await hold('12.00', 'Fuel Stop');
    const expiringId = (await expiring.getAttribute('data-authorization'))!;
    await showsFigures('70.00 EUR', '12.00 EUR', '168.00 EUR');
    await expect(page.locator('section[aria-label="Virtual clock"] ul.due').textContent()).resolves.toContain(
      'card hold at Fuel Stop expires',
    );
    await chain.locator('.purchases').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('5b-purchase-steps-1280x800') });
    const clock = page.getByRole('form', { name: 'Advance the clock by seconds' });
    await clock.getByLabel('Seconds').fill(String(7 * 86_400));
    expect(await noticeAfter(page, () => clock.getByRole('button', { name: 'Advance' }).click())).toBe(
      'Clock moved 7 d',
    );
    await shows(page, `[data-authorization="${expiringId}"][data-state="EXPIRED"]`);
    await expect(page.getByRole('list', { name: 'Became due at the last move' }).textContent()).resolves.toContain(
      'Purchase at Fuel Stop expired 12.00 EUR: PENDING → EXPIRED',
    );
    await showsFigures('70.00 EUR', '0.00 EUR', '180.00 EUR');
    expect(await figure('remaining')).toBe('180.00 EUR');
    // What the page showed is what the SDK reads.
    const approval = await client.corporates.approvals.get(corporateUuid, (await live.getAttribute('data-approval'))!);
    expect({ spent: approval.spent.amount, held: approval.held.amount, remaining: approval.remaining.amount }).toEqual({
      spent: 7_000,
      held: 0,
      remaining: 18_000,
    });
    await chain.locator('.purchases').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('5c-purchase-expired-1280x800') });
  });

  it('finds the exchange of a typed SDK error by the request id the error carries', async () => {
    const keyPair = await generateCardKeyPair();
    const error = await client.corporates.approvals
      .getDetails(corporateUuid, shortApproval.approvalUuid, { keyPair })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    if (!(error instanceof CardIssuingError)) throw new Error(`expected a typed SDK error, got ${String(error)}`);
    expect(error.status).toBe(409);
    const requestId = error.requestId!;
    await page.getByLabel('Request id').fill(requestId);
    // The journal narrows to that one exchange.
    await page.waitForFunction((id) => {
      const rows = document.querySelectorAll('.rows li button');
      return rows.length === 1 && rows[0]!.getAttribute('data-request-id') === id;
    }, requestId);
    await page.locator(`.rows [data-request-id="${requestId}"]`).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.locator('[data-fact="operation"]').textContent()).resolves.toBe('getApprovalCardDetails');
    await expect(dialog.locator('[data-fact="status"]').textContent()).resolves.toBe('409');
    await expect(dialog.locator('[data-fact="code"]').textContent()).resolves.toBe(error.code);
    await expect(dialog.locator('[data-fact="requestId"]').textContent()).resolves.toBe(requestId);
    await shows(page, 'dialog .message-part pre');
    const requestPart = await dialog.getByRole('region', { name: 'Request' }).textContent();
    expect(requestPart).toContain('authorization[redacted]');
    await page.screenshot({ path: shot('6-journal-request-id-1280x800') });

    // Keyboard: Escape closes it and gives focus back to the row that opened it; Enter on the row, pressed at once
    // (before the closed dialog's close event has run), opens it again, and it stays open.
    const reopened = async () => {
      await dialog.waitFor();
      await shows(page, 'dialog .message-part pre');
      await expect(dialog.isVisible()).resolves.toBe(true);
      await expect(page.evaluate(() => document.activeElement?.closest('dialog') !== null)).resolves.toBe(true);
    };
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await reopened();
    // The same within one task, so the close event surely comes after the row's activation: the dialog closes as
    // Escape closes it (focus back on the row), and the focused row is activated as Enter activates it.
    await page.evaluate(() => {
      document.querySelector('dialog')!.close();
      (document.activeElement as HTMLElement).click();
    });
    await reopened();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-request-id'))).resolves.toBe(requestId);
    // The same exchange through a link: /__mock/ui#request=<id> opens it.
    const linked = await context.newPage();
    await linked.goto(`${server.url}/__mock/ui#request=${requestId}`);
    await linked.getByRole('dialog').locator(`[data-fact="requestId"]:text-is("${requestId}")`).waitFor();
    await linked.close();
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  it('is usable from the keyboard: tabs move with the arrow keys, the OTP copies with one key press', async () => {
    await page.getByRole('tab', { name: /^Business/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: /^Outbox/ }).getAttribute('aria-selected')).resolves.toBe('true');
    const code = server.mock.outbox().at(-1)!.code!;
    const copy = page.getByRole('button', { name: `Copy code ${code}` });
    await copy.focus();
    await page.keyboard.press('Enter');
    await page.locator('.otp button', { hasText: 'Copied' }).waitFor();
    await page.screenshot({ path: shot('7-outbox-1280x800') });
    await page.getByRole('tab', { name: /^Outbox/ }).focus();
    await page.keyboard.press('Home');
    await expect(page.getByRole('tab', { name: /^Business/ }).getAttribute('aria-selected')).resolves.toBe('true');
  });

  it('does every other action by clicking: KYC, a deposit, a fault, lock and unlock, reject and cancel a change', async () => {
    const tab = (name: RegExp) => page.getByRole('tab', { name }).click();
    // KYC of the Server2Server user.
    await tab(/^Server2Server/);
    expect(
      await noticeAfter(page, () => page.getByRole('button', { name: 'KYC passed for Ada Lovelace' }).click()),
    ).toBe('KYC passed for Ada Lovelace');
    await shows(page, 'tr:has-text("Ada Lovelace") [data-status="PASSED"]');
    // A deposit to the corporate's address: a top-up that raises what it is funded with.
    await tab(/^Deposits/);
    const form = page.getByRole('form', { name: 'Incoming deposit' });
    await form.getByLabel('To balance').selectOption({ label: 'Acme Logistics GmbH (corporate, top-up)' });
    await form.getByLabel('Type').selectOption('USDC');
    await form.getByLabel('Amount').fill('100');
    expect(await noticeAfter(page, () => form.getByRole('button', { name: 'Send deposit' }).click())).toBe(
      '100 USDC arrived',
    );
    await shows(page, 'section[aria-label="Corporate top-ups"] li:has-text("92.00 EUR")');
    // A fault: the next GET of a user answers 503, which the SDK sees and the journal shows.
    await tab(/^Faults/);
    const faults = page.getByRole('form', { name: 'Inject a fault' });
    await faults.getByLabel('Method').selectOption('GET');
    await faults.getByLabel(/^Path/).fill('/s2s/users/*');
    await faults.getByLabel(/^Status/).fill('503');
    await noticeAfter(page, () => faults.getByRole('button', { name: 'Inject fault' }).click());
    await shows(page, 'section[aria-label="Active faults"] li:has-text("status 503")');
    const adaId = Object.values(server.mock.snapshot().users)[0]!.id;
    const failure = await client.s2s.users.get(adaId).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(CardIssuingError);
    expect((failure as CardIssuingError).status).toBe(503);
    await shows(page, '.rows [data-operation="getUser"]:has-text("503")');
    await page.locator('section[aria-label="Active faults"] li').waitFor({ state: 'detached' });
    // Faults with a code and Retry-After are listed, removed one by one, and cleared.
    await faults.getByLabel(/^Operation/).fill('getUser');
    await faults.getByLabel(/^Code/).fill('SERVICE_UNAVAILABLE');
    await faults.getByLabel(/^Retry-After/).fill('30');
    await faults.getByLabel(/^Times/).fill('2');
    await noticeAfter(page, () => faults.getByRole('button', { name: 'Inject fault' }).click());
    await faults.getByRole('button', { name: 'Inject fault' }).click(); // the same notice again
    await expect.poll(() => server.mock.faults.list().length).toBe(2);
    await shows(
      page,
      'section[aria-label="Active faults"] li:has-text("getUser: status 503 SERVICE_UNAVAILABLE, Retry-After 30")',
    );
    const [first, second] = server.mock.faults.list();
    await noticeAfter(page, () => page.getByRole('button', { name: `Remove ${first!.id}` }).click());
    expect(server.mock.faults.list().map((f) => f.id)).toEqual([second!.id]);
    await noticeAfter(page, () => page.getByRole('button', { name: 'Clear all faults' }).click());
    expect(server.mock.faults.list()).toEqual([]);
    // An override: the page lists it as GET /__mock/overrides does, marks its answers in the journal, removes it.
    const set = await fetch(`${server.url}/__mock/overrides`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'getUser', status: 404 }),
    });
    const override = (await set.json()) as { id: string };
    expect(server.mock.overrides.list().map((o) => o.id)).toEqual([override.id]);
    await shows(page, 'section[aria-label="Overrides"] li:has-text("getUser answers 404, until removed")');
    await expect(client.s2s.users.get(adaId)).rejects.toMatchObject({ status: 404 });
    await shows(page, `.rows [data-override="${override.id}"]`);
    expect(server.mock.requests({ overridden: true })[0]).toMatchObject({
      operationId: 'getUser',
      override: override.id,
    });
    await page.screenshot({ path: shot('9-faults-overrides-1280x800') });
    await noticeAfter(page, () => page.getByRole('button', { name: `Remove ${override.id}` }).click());
    expect(server.mock.overrides.list()).toEqual([]);
    await page.locator('section[aria-label="Overrides"] li').waitFor({ state: 'detached' });
    // Lock and unlock the live card; reject one change request and cancel another.
    await tab(/^Business/);
    const chain = page.locator(`[data-card="${longApproval.card.id}"]`);
    await noticeAfter(page, () => chain.getByRole('button', { name: /^Lock card/ }).click());
    await shows(page, `[data-card="${longApproval.card.id}"] .chain-head [data-status="LOCKED"]`);
    await noticeAfter(page, () => chain.getByRole('button', { name: /^Unlock card/ }).click());
    await shows(page, `[data-card="${longApproval.card.id}"] .chain-head [data-status="ACTIVE"]`);
    for (const [action, status] of [
      ['Reject', 'REJECTED'],
      ['Cancel', 'CANCELED'],
    ] as const) {
      const live = chain.locator('.instance[data-status="DELIVERED"]');
      await noticeAfter(page, () => live.getByRole('button', { name: 'Request change' }).click());
      await shows(page, `[data-card="${longApproval.card.id}"] .instance[data-status="CREATED"]`);
      const created = chain.locator('.instance[data-status="CREATED"]');
      const uuid = (await created.getAttribute('data-approval'))!;
      await noticeAfter(page, () =>
        created.getByRole('button', { name: `${action} approval ${uuid.slice(0, 8)}` }).click(),
      );
      await shows(page, `[data-approval="${uuid}"][data-status="${status}"]`);
    }
  });

  it('is readable at 390×844: one column, nothing wider than the window', async () => {
    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const mobile = await narrow.newPage();
    try {
      await mobile.goto(`${server.url}/__mock/ui`);
      await shows(mobile, '[data-live="live"]');
      await shows(mobile, `[data-card="${longApproval.card.id}"]`);
      const width = await mobile.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await mobile.screenshot({ path: shot('8-business-390x844') });
      await mobile.screenshot({ path: shot('9-business-390x844-full'), fullPage: true });
      await mobile.getByRole('link', { name: 'Skip to the request journal' }).focus();
      await mobile.keyboard.press('Enter');
      await mobile.locator('#journal').scrollIntoViewIfNeeded();
      await mobile.screenshot({ path: shot('10-journal-390x844') });
    } finally {
      await narrow.close();
    }
  });

  it('never received a secret: no api secret, Authorization header or card number in any byte the page got', async () => {
    await received.settle();
    expect(received.texts.length).toBeGreaterThan(20);
    expect(received.urls.some((u) => u.endsWith('/__mock/events/stream'))).toBe(true);
    expect(received.texts.some((t) => t.startsWith('event '))).toBe(true);
    const everything = received.texts.join('\n');
    const pans = Object.values(server.mock.snapshot().cards)
      .map((c) => c.pan)
      .filter((p): p is string => p !== null);
    expect(pans.length).toBeGreaterThanOrEqual(2);
    for (const pan of pans) {
      expect(everything).not.toContain(pan);
      expect(everything).toContain(pan.slice(-4)); // the last four are shown: the check is not vacuous
    }
    expect(everything).not.toContain('test_secret');
    expect(everything).not.toContain('HMAC-SHA256');
    expect(authorizations.length).toBeGreaterThan(5);
    for (const header of authorizations) expect(everything).not.toContain(header.split(':')[1]); // the signature
    // The page never fetched the raw state (it has the PANs); the snapshot is only ever a download, to disk.
    expect(received.urls.some((u) => new URL(u).pathname === '/__mock/state')).toBe(false);
  });

  it('downloads a snapshot and restores it, by clicking', async () => {
    const statusBefore = await page
      .locator(`[data-approval="${longApproval.approvalUuid}"]`)
      .getAttribute('data-status');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download snapshot' }).click(),
    ]);
    const file = await download.path();
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { approvals: Record<string, unknown> };
    expect(Object.keys(snapshot.approvals)).toContain(longApproval.approvalUuid);
    rmSync(`${results}/inspector-snapshot.json`, { force: true });
    await download.saveAs(`${results}/inspector-snapshot.json`);

    const reset = await noticeAfter(page, async () => {
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Reset this tenant to its seeded state' }).click();
    });
    expect(reset).toBe('Tenant reset');
    await page.locator(`[data-approval="${longApproval.approvalUuid}"]`).waitFor({ state: 'detached' });

    const restored = await noticeAfter(page, () =>
      page.getByLabel('Snapshot file to restore').setInputFiles(`${results}/inspector-snapshot.json`),
    );
    expect(restored).toBe('Restored inspector-snapshot.json');
    await shows(page, `[data-approval="${longApproval.approvalUuid}"][data-status="${statusBefore}"]`);
  });
});
