/**
 * Find and replace in a grid, by keyboard only, in Chromium against the embedded sandbox: Ctrl+F opens
 * the bar, typing finds across every displayed cell ("1 of 3"), Enter / Shift+Enter / F3 move the
 * grid's focus from match to match; "Replace all" in the focused column is one edit that Ctrl+Z undoes
 * in one step; read-only cells are skipped and counted; Escape hands the keyboard back to the grid.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { gridCell, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
interface PageElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  textContent: string | null;
}
declare const document: {
  activeElement: PageElement | null;
  querySelector(selector: string): PageElement | null;
};

describe('find and replace in a grid', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  let assets: AssetView[] = [];
  let city = '';
  let inCity: AssetView[] = [];

  const probe = () => workspaceProbe(app);
  const bar = () => page.getByTestId('assets-grid-find');
  const count = () => bar().getByTestId('find-count').textContent();
  /** The grid's focused cell: its row, column and text. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.querySelector('[data-testid="assets-grid"] .ag-cell-focus');
      const row = el?.closest('.ag-row');
      return el
        ? {
            row: row?.getAttribute('row-id') ?? null,
            col: el.getAttribute('col-id'),
            text: el.textContent ?? '',
          }
        : null;
    });
  const notices = () => page.locator('.notices').textContent();
  const active = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  /** Focuses a cell, opens the bar with Ctrl+F and finds `query` from there. */
  const openFind = async (localId: string, colId: string, query: string) => {
    await gridCell(page, 'assets-grid', localId, colId).click();
    await page.keyboard.press('Control+f');
    await expect.poll(active).toBe('find-input');
    await page.keyboard.type(query);
    // The search has settled on the first match from the focused cell: that cell.
    await expect.poll(count).toMatch(/^\d+ of \d+$/);
    await expect.poll(focused).toMatchObject({ row: localId, col: colId });
  };

  useUiPage('ui-find', async (ui) => {
    ({ app, page, pageErrors } = ui);
    assets = (await probe().snapshot()).assets;
    // A city several assets share, so the find has more than one match to step through.
    const byCity = new Map<string, AssetView[]>();
    for (const a of assets) {
      const c = String(a.doc['city'] ?? '');
      if (c) byCity.set(c, [...(byCity.get(c) ?? []), a]);
    }
    [city, inCity] = [...byCity.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
  });

  it('opens with Ctrl+F, counts the matches and moves the grid focus with Enter, Shift+Enter and F3', async () => {
    expect(inCity.length).toBeGreaterThan(1);
    await page.goto(app.host.launchUrl);
    const start = gridCell(page, 'assets-grid', assets[0]!.localId, 'name');
    await start.waitFor();
    await start.click();
    await page.keyboard.press('Control+f');
    await bar().waitFor();
    await expect.poll(active).toBe('find-input');
    // Typing goes to the find field: it has the keyboard.
    await page.keyboard.type(city.toUpperCase());
    await expect.poll(count).toMatch(/^\d+ of \d+$/);
    const total = Number((await count())!.split(' of ')[1]);
    expect(total).toBeGreaterThanOrEqual(inCity.length);
    const first = await focused();
    expect(first?.text.toLowerCase()).toContain(city.toLowerCase());
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('find-input');
    const at = Number((await count())!.split(' of ')[0]);
    await screenshot(page, 'ui-find-matches.png');

    await page.keyboard.press('Enter');
    const wrap = (n: number) => ((n - 1 + total) % total) + 1;
    await expect.poll(count).toBe(`${wrap(at + 1)} of ${total}`);
    const second = await focused();
    expect(second?.text.toLowerCase()).toContain(city.toLowerCase());
    expect(second).not.toEqual(first);
    await page.keyboard.press('Shift+Enter');
    await expect.poll(count).toBe(`${at} of ${total}`);
    expect(await focused()).toEqual(first);
    await page.keyboard.press('F3');
    await expect.poll(count).toBe(`${wrap(at + 1)} of ${total}`);
    await page.keyboard.press('Shift+F3');
    await expect.poll(count).toBe(`${at} of ${total}`);

    // A query nothing shows.
    await page.keyboard.press('Control+a');
    await page.keyboard.type('zz-no-such-text-zz');
    await expect.poll(count).toBe('No matches');

    // Escape closes the bar and the grid has the keyboard again.
    await page.keyboard.press('Escape');
    await expect.poll(() => bar().count()).toBe(0);
    expect(
      await page.evaluate(() => document.activeElement?.closest('[data-testid="assets-grid"]') !== null),
    ).toBe(true);
    // F3 from the grid opens the bar again at the next match of the query.
    await page.keyboard.press('Control+f');
    await expect.poll(active).toBe('find-input');
    await page.keyboard.type(city);
    await expect.poll(count).toMatch(/^\d+ of \d+$/);
    const from = await count();
    await page.keyboard.press('Escape');
    await expect.poll(() => bar().count()).toBe(0);
    await page.keyboard.press('F3');
    await bar().waitFor();
    await expect.poll(count).not.toBe(from);
    expect(await count()).toMatch(/^\d+ of \d+$/);
    expect((await focused())?.text.toLowerCase()).toContain(city.toLowerCase());
    await page.keyboard.press('Escape');
  });

  it('opens with Ctrl+H with the replace field focused, and Ctrl+H in the bar moves there', async () => {
    await gridCell(page, 'assets-grid', assets[0]!.localId, 'name').click();
    await page.keyboard.press('Control+h');
    await bar().waitFor();
    await expect.poll(active).toBe('replace-input');
    // Ctrl+F and Ctrl+H move between the bar's two fields.
    await page.keyboard.press('Control+f');
    await expect.poll(active).toBe('find-input');
    await page.keyboard.press('Control+h');
    await expect.poll(active).toBe('replace-input');
    await page.keyboard.press('Escape');
    await expect.poll(() => bar().count()).toBe(0);
  });

  it('replaces every match in the focused column as one undo step', async () => {
    const target = inCity[0]!;
    await openFind(target.localId, 'city', city);
    await expect.poll(count).toMatch(/^\d+ of \d+$/);
    // To the replace field and "Replace all" (scope: this column) by Tab, as a keyboard user goes.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'replace-input',
    );
    const replaced = `${city} Nord`;
    await page.keyboard.type(replaced);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'replace-all',
    );
    await page.keyboard.press('Enter');
    for (const a of inCity) await expect.poll(() => probe().valueAt(a.localId, 'city')).toBe(replaced);
    await expect.poll(notices).toContain(`Replaced ${inCity.length} cells`);
    await expect
      .poll(() => gridCell(page, 'assets-grid', target.localId, 'city').textContent())
      .toBe(replaced);
    // Other columns were not touched (the scope is the column).
    for (const a of assets)
      if (String(a.doc['city'] ?? '') !== city)
        expect(await probe().valueAt(a.localId, 'city')).toBe(a.doc['city'] ?? undefined);
    await screenshot(page, 'ui-find-replace-all.png');

    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    for (const a of inCity) await expect.poll(() => probe().valueAt(a.localId, 'city')).toBe(city);
    await expect.poll(notices).toContain(`Undone: replace of ${inCity.length} cells`);
  });

  it('replaces the current match, the matches in ticked rows, and skips read-only cells, counting them', async () => {
    const target = inCity[1]!;
    await openFind(target.localId, 'city', city);
    await bar().getByTestId('replace-input').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Elsewhere');
    // Enter in the replace field replaces the current match only.
    await page.keyboard.press('Enter');
    await expect.poll(() => probe().valueAt(target.localId, 'city')).toBe('Elsewhere');
    expect(await probe().valueAt(inCity[0]!.localId, 'city')).toBe(city);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect.poll(() => probe().valueAt(target.localId, 'city')).toBe(city);

    // "The selection": the ticked rows only.
    const tick = (localId: string, on: boolean) =>
      page
        .locator(`[data-testid="assets-grid"] .ag-row[row-id="${localId}"] input[type="checkbox"]`)
        .first()
        .setChecked(on);
    const [a, b, c, d] = inCity;
    await tick(a!.localId, true);
    await tick(b!.localId, true);
    await openFind(a!.localId, 'city', city);
    await bar().getByTestId('replace-scope').focus();
    await page.keyboard.press('ArrowDown');
    expect(await bar().getByTestId('replace-scope').inputValue()).toBe('selection');
    await bar().getByTestId('replace-input').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Picked');
    await bar().getByTestId('replace-all').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => probe().valueAt(a!.localId, 'city')).toBe('Picked');
    expect(await probe().valueAt(b!.localId, 'city')).toBe('Picked');
    expect(await probe().valueAt(c!.localId, 'city')).toBe(city);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect.poll(() => probe().valueAt(a!.localId, 'city')).toBe(city);
    expect(await probe().valueAt(b!.localId, 'city')).toBe(city);
    await tick(a!.localId, false);
    await tick(b!.localId, false);

    // A deleted asset's row takes no edits: its cell is skipped, and the message counts it.
    await gridCell(page, 'assets-grid', d!.localId, 'city').click();
    await page.getByTestId('delete-assets').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(async () => (await probe().assetOf(d!.localId))?.status).toBe('deleted');
    await openFind(c!.localId, 'city', city);
    await bar().getByTestId('replace-scope').selectOption('column');
    await bar().getByTestId('replace-input').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Moved');
    await bar().getByTestId('replace-all').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => probe().valueAt(c!.localId, 'city')).toBe('Moved');
    expect(await probe().valueAt(d!.localId, 'city')).toBe(city);
    await expect.poll(notices).toContain(`Replaced ${inCity.length - 1} cells (1 cell read-only, skipped)`);
    await screenshot(page, 'ui-find-read-only.png');
    expect(pageErrors).toEqual([]);
  });
});
