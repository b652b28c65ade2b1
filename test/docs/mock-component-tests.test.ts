/**
 * docs/mock.md's component tests, run as written: the blocks below are the page's blocks (its setup and each test,
 * the last test checks that the page still says the same), with the one-line setup `card-issuing-mock/vitest` as the
 * package builds it: each test starts from a fresh mock state.
 */
import { describe } from 'vitest';
import { codeBlockOf, ownBlock } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

// ---- setup block start
import { expect, test } from 'vitest'; // Jest: its globals, nothing to import
import { createCardIssuingClient } from 'card-issuing-sdk';
import { mock } from 'card-issuing-mock/vitest'; // Jest: 'card-issuing-mock/jest'

const client = createCardIssuingClient({
  baseUrl: 'https://api.example.test',
  apiKey: 'test_key',
  apiSecret: 'test_secret',
});
// ---- setup block end

// ---- delivered block start
test('shows what is left of the budget', async () => {
  const { approval, corporateUuid } = mock.given.approval({ status: 'DELIVERED', budget: 50_000, spent: 12_000 });
  const shown = await client.corporates.approvals.get(corporateUuid, approval.approvalUuid); // what the component loads
  expect(shown.remaining).toEqual({ amount: 38_000, currency: 'EUR' });
});
// ---- delivered block end

// ---- declined block start
test('a purchase over what is left is declined', async () => {
  const { card, corporateUuid, approval } = mock.given.approval({ status: 'DELIVERED', budget: 10_000, spent: 9_500 });
  const purchase = mock.cards.authorize(card.id, { amount: 1_000, currency: 'EUR', merchant: 'Coffee Corner' });
  expect(purchase.declineReason).toBe('BUDGET_EXCEEDED');
  expect((await client.corporates.approvals.get(corporateUuid, approval.approvalUuid)).spent.amount).toBe(9_500);
});
// ---- declined block end

// ---- expires block start
test('an approval never delivered expires at its validTo', async () => {
  const validTo = new Date(mock.clock.now().getTime() + 86_400_000).toISOString();
  const { approval, corporateUuid } = mock.given.approval({ status: 'ACCEPTED', validTo });
  mock.clock.advance(2 * 86_400); // two days later
  const shown = await client.corporates.approvals.get(corporateUuid, approval.approvalUuid);
  expect([shown.status, shown.statusReason]).toEqual(['EXPIRED', 'NOT_DELIVERED_BY_VALID_TO']);
});
// ---- expires block end

describe('docs/mock.md', () => {
  const page = repoPath('docs/mock.md');
  const sections: [string, string][] = [
    ['setup', 'Component tests: any state in three lines'],
    ['delivered', 'A delivered approval with a budget'],
    ['declined', 'A purchase declined over budget'],
    ['expires', 'An approval that expires'],
  ];
  for (const [marker, heading] of sections)
    test(`shows the ${marker} block above under "${heading}", each set up in at most three lines`, () => {
      const here = ownBlock(import.meta.url, marker);
      expect(here).toBeDefined();
      expect(codeBlockOf(page, heading)).toBe(here);
    });
});
