import axe from 'axe-core';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { examples } from '../../examples/run-all';
import { createMockControl } from 'card-issuing-mock/control';
import { Progress } from '../../examples/support/example';
import { launchChromium } from '../helpers/chromium';
import { repoPath } from '../helpers/spec';

// The inspector page as a person (and a screen reader, and Playwright) meets it: every flow of the interface document
// run against the server so that every tab has rows, then on each tab axe-core (the page's accessibility checker,
// injected into the page) with WCAG 2.x A/AA rules and label-in-name (2.5.3), and every control found by its visible
// label through Playwright's role and label queries, the way a test of an app drives the page.

const results = repoPath('test-results');
const axeSource = axe.source;
const TABS = ['Business', 'Server2Server', 'Deposits', 'Outbox', 'Events', 'Faults'];

let server: MockServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(results, { recursive: true });
  server = await startMockServer({ port: 0, seed: 'inspector-a11y' });
  const client = createCardIssuingClient({ baseUrl: server.url, apiKey: 'test_key', apiSecret: 'test_secret' });
  const control = createMockControl({ baseUrl: server.url });
  const fixtures = await control.fixtures();
  for (const example of examples)
    await example.run({ client, control, fixtures, progress: new Progress(example.name, () => undefined) });
  // A purchase held on a business card (its steps form) and a fault waiting (the faults list).
  const approval = server.mock.snapshot().approvals;
  const delivered = Object.values(approval).find((a) => a.status === 'DELIVERED');
  if (delivered)
    await control.authorize(delivered.cardId, {
      amount: 1_000,
      currency: 'EUR',
      merchant: 'Grand Hotel',
      capture: false,
    });
  server.mock.faults.inject({ method: 'GET', path: '/s2s/users/*', status: 503, times: 1 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/__mock/ui`);
  await page.locator('[data-live="live"]').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface AxeResult {
  violations: {
    id: string;
    impact: string | null;
    help: string;
    nodes: { target: string[]; failureSummary?: string }[];
  }[];
}

/** axe-core on the whole page (the tab's panel, the clock and the journal), WCAG 2.x A and AA plus label-in-name. */
async function runAxe(target: Page): Promise<AxeResult['violations']> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await target.evaluate(axeSource);
  const result = await target.evaluate(
    () =>
      (globalThis as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResult> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        rules: { 'label-content-name-mismatch': { enabled: true } },
      }) as Promise<AxeResult>,
  );
  return result.violations;
}

/**
 * What a person would see as broken: a table wider than its box (a column cut off behind a scroll bar), a header
 * word split over two lines, a purchase's steps run on after its figures ("… EURStep (EUR)").
 */
function glitches(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const found: string[] = [];
    const shown = (el: Element) => (el as HTMLElement).offsetParent !== null;
    for (const wrap of document.querySelectorAll('.table-wrap')) {
      if (shown(wrap) && wrap.scrollWidth > wrap.clientWidth + 1)
        found.push(
          `table cut off: ${wrap.scrollWidth}px in ${wrap.clientWidth}px (${wrap.closest('section')?.ariaLabel})`,
        );
    }
    for (const th of document.querySelectorAll('th')) {
      // Narrow, a table's head is only for screen readers (each cell says its column): a 1px box, not read on screen.
      if (!shown(th) || (th.closest('thead')?.getBoundingClientRect().width ?? 2) <= 1) continue;
      const text = th.firstChild;
      if (!(text instanceof Text)) continue;
      for (const match of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) found.push(`header word broken: "${match[0]}"`);
      }
    }
    for (const form of document.querySelectorAll('.purchase-steps')) {
      const before = form.previousElementSibling;
      if (shown(form) && before && form.getBoundingClientRect().top < before.getBoundingClientRect().bottom - 1)
        found.push(`purchase steps run on after "${before.textContent?.slice(-20)}"`);
    }
    return found;
  });
}

describe('the inspector page, tab by tab', () => {
  for (const tab of TABS) {
    it(`${tab}: axe-core finds no serious or critical violation`, async () => {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      await page.locator('[role="tabpanel"] section').first().waitFor();
      await page.screenshot({ path: `${results}/inspector-a11y-${tab.toLowerCase()}-1280x800.png`, fullPage: true });
      const violations = await runAxe(page);
      const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        grave.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });

    it(`${tab}: Playwright finds every control by its visible label`, async () => {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      // Every visible button, link and form control, tagged so that the query's answer can be matched to it.
      const controls = await page.evaluate(() => {
        const found: { probe: string; kind: 'button' | 'link' | 'tab' | 'field'; text: string }[] = [];
        const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
        document.querySelectorAll('button, a[href], input:not([type="file"]), select').forEach((el, i) => {
          if (!visible(el)) return;
          el.setAttribute('data-probe', String(i));
          const tag = el.tagName.toLowerCase();
          if (tag === 'button' || tag === 'a') {
            // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (layout-aware) is the point.
            const text = (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
            const kind = el.getAttribute('role') === 'tab' ? 'tab' : tag === 'a' ? 'link' : 'button';
            found.push({ probe: String(i), kind, text });
          } else {
            // The visible label: the field's caption, or the text of the label that wraps a checkbox.
            const label = el.closest('label');
            const caption = (label?.querySelector(':scope > span') ?? label) as HTMLElement | null;
            // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (layout-aware) is the point.
            const text = caption?.innerText.trim() ?? '';
            found.push({ probe: String(i), kind: 'field', text });
          }
        });
        return found;
      });
      expect(controls.length).toBeGreaterThan(5);
      const missed: string[] = [];
      for (const control of controls) {
        const self = page.locator(`[data-probe="${control.probe}"]`);
        const byLabel =
          control.kind === 'field'
            ? page.getByLabel(control.text, { exact: false })
            : page.getByRole(control.kind, { name: control.text });
        if (control.text === '' || (await byLabel.and(self).count()) !== 1)
          missed.push(`${control.kind} "${control.text}"`);
      }
      expect(missed).toEqual([]);
    });
  }

  it('lays the page out whole at 1280×800 and 390×844: no column cut off, no header broken mid-word, no text run together', async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await narrow.goto(`${server.url}/__mock/ui`);
    await narrow.locator('[data-live="live"]').waitFor();
    for (const target of [page, narrow]) {
      for (const tab of TABS) {
        await target.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        await target.locator('[role="tabpanel"] section').first().waitFor();
        expect(await glitches(target), `${tab} at ${target.viewportSize()?.width}px`).toEqual([]);
      }
    }
    // The exchange dialog's header table: names whole, values wrapped.
    for (const target of [page, narrow]) {
      await target.locator('.rows li button').first().click();
      await target.locator('dialog .headers th').first().waitFor();
      expect(await glitches(target), `dialog at ${target.viewportSize()?.width}px`).toEqual([]);
      await target.keyboard.press('Escape');
    }
    await narrow.close();
  });

  it('moves the clock by the button a person reads: "+30 days"', async () => {
    const before = Date.parse((await page.locator('[data-clock]').getAttribute('data-clock'))!);
    await page.getByRole('button', { name: '+30 days' }).click();
    await page.waitForFunction(
      (b) => Date.parse(document.querySelector('[data-clock]')!.getAttribute('data-clock')!) - b >= 30 * 86_400_000,
      before,
    );
  });
});
