import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserMockPage } from '../helpers/browser-mock-page';

// The browser mock (service worker) shows what it saw to the page: a page served by Vite starts
// `startBrowserMock`, makes SDK calls that the worker answers, and reads `requests()`, `events()` and `subscribe()`
// on what it got back, and on the global that `expose` names.

let served: Awaited<ReturnType<typeof browserMockPage>>;

beforeAll(async () => {
  served = await browserMockPage('observe');
});

afterAll(() => served?.close());

it('exposes the journal and the events of the service-worker mock to the page, live and by request id', async () => {
  const page = await served.open();

  const observed = await page.evaluate(() => (window as unknown as { __observed: Record<string, unknown> }).__observed);
  expect(observed.requests).toEqual([
    ['getUser', 404, 'NOT_FOUND'],
    ['createApproval', 201, null],
    ['createBusinessUser', 201, null],
  ]);
  expect(observed.byRequestId).toEqual([['getUser', 404, 'NOT_FOUND']]);
  expect(observed.authorization).toBe('[redacted]');
  expect(observed.approvalChanges).toEqual(['null→ACCEPTED', 'ACCEPTED→DELIVERED']);
  expect(observed.live).toEqual(
    expect.arrayContaining([
      'event user.registered',
      'request createBusinessUser 201',
      'event approval.statusChanged',
      'request getUser 404',
    ]),
  );
  // The same through the global that `expose` names, as the console or a devtools panel would read it.
  const fromGlobal = await page.evaluate((id) => {
    const g = (globalThis as unknown as { cardIssuingMock: { requests(f: object): { operationId: string }[] } })
      .cardIssuingMock;
    return g.requests({ requestId: id }).map((e) => e.operationId);
  }, observed.requestId as string);
  expect(fromGlobal).toEqual(['getUser']);
  await page.close();
});
