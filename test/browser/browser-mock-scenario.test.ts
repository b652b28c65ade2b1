import { afterAll, beforeAll, expect, it } from 'vitest';
import { zApprovalStatus } from '../../sdk/generated/zod.gen';
import { browserMockPage } from '../helpers/browser-mock-page';

// The browser mock (service worker) started with a scenario: the page's SDK calls, answered by the worker, read an
// approval in every status; a builder on the page's mock and one over HTTP through the worker add more.

let served: Awaited<ReturnType<typeof browserMockPage>>;
beforeAll(async () => {
  served = await browserMockPage('scenario');
});
afterAll(() => served?.close());

it('startBrowserMock({ scenario }) starts with the world; given builders work in process and over HTTP', async () => {
  const page = await served.open();
  const seen = await page.evaluate(() => (window as unknown as { __scenario: Record<string, unknown> }).__scenario);
  expect(seen).toEqual({
    statuses: [...zApprovalStatus.options].sort(),
    finished: 'FINISHED',
    expired: 'EXPIRED',
  });
  await page.close();
});
