/**
 * The grid as an analyst works in it (issue "a grid analysts don't fight"): the Problems panel after
 * one mistyped floor area (one entry per asset and field, in the columns' words, the grid narrowed
 * to the assets with problems), dropdowns that take typing, an empty new certification row, the
 * cells behind an outlier marked, and one review behind the header's Sync for assets and responses.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pasteInPage, screenshot, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
interface PageElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
declare const document: {
  activeElement: PageElement | null;
  querySelector(selector: string): PageElement | null;
};

describe('the grid as an analyst works in it', () => {
  let app: TestApp;
  let page: Page;

  useUiPage('ui-grid-ux', (ui) => {
    ({ app, page } = ui);
  });

  it('groups the errors of one mistyped floor area and narrows the grid to the assets with problems', async () => {
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const target = assets.find((a) => a.status !== 'deleted' && Array.isArray(a.doc['annual_data']))!;
    // A floor area typed a thousand times too small: every floor-area field of every year is above it.
    await app.core.handlers['workspace.edit']({
      edits: [
        { localId: target.localId, path: 'size', value: Math.round(Number(target.doc['size']) / 1000) },
      ],
    });
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    const group = page.locator(`[data-testid="problem-asset"]:has([data-local-id="${target.localId}"])`);
    await group.waitFor();
    const entries = group.getByTestId('problem');
    const fields = await entries.count();
    const total = Number(/\((\d+)\)/.exec((await group.locator('h3').textContent()) ?? '')?.[1]);
    // Many errors, a few entries: one per field, its years listed once.
    expect(total).toBeGreaterThan(fields);
    const text = (await entries.first().textContent()) ?? '';
    expect(text).toMatch(/Must be less than or equal to Floor area/);
    expect(text).not.toMatch(/\bsize\b/);
    await screenshot(page, 'ui-problems-grouped.png');

    await page.getByTestId('problems-only').click();
    const banner = page.getByTestId('asset-filter');
    await banner.waitFor();
    const shown = Number(/Showing (\d+) assets/.exec((await banner.textContent()) ?? '')?.[1]);
    expect(shown).toBe(await page.getByTestId('problem-asset').count());
    expect(shown).toBeLessThan(assets.length);
    // The status bar counts what the grid shows, not only what the workspace holds.
    await expect
      .poll(() => page.getByTestId('status-shown').textContent())
      .toBe(`${shown} of ${assets.length} rows shown (filtered)`);
    await banner.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.getByTestId('status-shown').count()).toBe(0);
  });

  it('starts a new certification row empty, for the analyst to fill', async () => {
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const target = assets.find((a) => a.status !== 'deleted')!;
    const before = ((target.doc['certifications'] as unknown[] | undefined) ?? []).length;
    await page.getByTestId('tab-certifications').click();
    await page.getByTestId('entry-asset').selectOption(target.localId);
    await page.getByTestId('add-entry').click();
    const entries = async () => {
      const { assets: now } = await app.core.handlers['workspace.snapshot']({});
      return (
        (now.find((a) => a.localId === target.localId)?.doc['certifications'] as Record<string, unknown>[]) ??
        []
      );
    };
    await expect.poll(async () => (await entries()).length).toBe(before + 1);
    const added = (await entries()).at(-1)!;
    expect([added['certification_id'], added['level'], added['size'], added['year']]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // The keyboard is on the new row's first cell, ready for the scheme to be typed.
    const focused = () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="certifications-grid"] .ag-cell-focus');
        return el
          ? { row: el.closest('.ag-row')?.getAttribute('row-id') ?? '', col: el.getAttribute('col-id') }
          : null;
      });
    await expect
      .poll(focused)
      .toEqual({ row: `${target.localId}|new:${String(added['_key'])}`, col: 'certification_id' });
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('[data-testid="certifications-grid"]') !== null,
      ),
    ).toBe(true);
  });

  it('a dropdown cell takes typing by code or name, and refuses a value outside the list', async () => {
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const target = assets.find((a) => a.status !== 'deleted' && a.doc['country'] !== 'NL')!;
    const valueOf = async () =>
      (await app.core.handlers['workspace.snapshot']({})).assets.find((a) => a.localId === target.localId)
        ?.doc['country'];
    await page.getByTestId('tab-assets').click();
    const cell = page
      .locator(`[data-testid="assets-grid"] .ag-row[row-id="${target.localId}"] [col-id="country"]`)
      .first();
    await cell.click();
    await page.keyboard.type('neth');
    const editor = page.locator('.list-editor');
    await editor.waitFor();
    expect(await editor.locator('li').first().textContent()).toBe('Netherlands (NL)');
    await screenshot(page, 'ui-dropdown-typeahead.png');
    await page.keyboard.press('Enter');
    await expect.poll(valueOf).toBe('NL');
    await cell.click();
    await page.keyboard.type('Atlantis');
    await editor.locator('.list-editor-reason').waitFor();
    expect(await editor.locator('.list-editor-reason').textContent()).toMatch(/not in the list/);
    await page.keyboard.press('Enter');
    await expect.poll(valueOf).toBe('NL');
  });

  it('marks the cells behind an outlier in the annual grid', async () => {
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const flagged = assets.find((a) => a.status !== 'deleted' && a.outliers.some((o) => o.kpi === 'en'))!;
    const records = flagged.doc['annual_data'] as Record<string, unknown>[];
    const latest = String(
      records.reduce((best, rec) => (Number(rec['year']) > Number(best['year']) ? rec : best))['year'],
    );
    // From the Outliers tab, the year of the flagged KPI opens its cell in the annual grid.
    await page.getByTestId('tab-outliers').click();
    await page
      .locator('.outlier-item', { hasText: String(flagged.doc['name']) })
      .first()
      .click();
    await page.getByTestId('kpi-en').getByRole('button', { name: latest }).click();
    const cell = page
      .locator(
        `[data-testid="annual-grid"] .ag-row[row-id="${flagged.localId}:${latest}"] [col-id="en_abs_we"]`,
      )
      .first();
    await cell.waitFor();
    await expect.poll(() => cell.getAttribute('class')).toContain('cell-outlier');
    await screenshot(page, 'ui-outlier-cell.png');
  });

  it("the header's Sync shows everything pending, assets and responses, and sends both on Sync now", async () => {
    const [response] = await app.core.handlers['responses.list']({});
    await app.core.handlers['responses.setValue']({
      responseId: response!.id,
      variable: 'LE3_governance',
      value: 'Sent from the one review',
    });
    await page.getByTestId('sync-button').click();
    const review = page.getByTestId('review-responses');
    await expect
      .poll(() => review.textContent())
      .toContain('1 answer of the portfolio responses will be sent');
    await screenshot(page, 'ui-review-with-responses.png');
    await page.getByTestId('review-sync-now').click();
    await expect
      .poll(
        async () =>
          (await app.core.handlers['responses.list']({})).find((r) => r.id === response!.id)?.modified,
        {
          timeout: 30_000,
        },
      )
      .toBe(0);
  });

  it('selects a range of cells by Shift+arrows or Shift+click, sums it, and fills and clears it as one step', async () => {
    await page.getByTestId('tab-annual').click();
    // An asset with three years drawn on screen (the grid draws only the rows in view).
    const rowIds = await page
      .locator('[data-testid="annual-grid"] .ag-row[row-id]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id') ?? ''));
    const byAsset = new Map<string, number[]>();
    for (const id of rowIds) {
      const [localId, year] = id.split(':') as [string, string];
      byAsset.set(localId, [...new Set([...(byAsset.get(localId) ?? []), Number(year)])].sort());
    }
    const [targetId, years] = [...byAsset].find(([, ys]) => ys.length >= 3)!;
    const target = { localId: targetId };
    const [y0, y1, y2] = years as [number, number, number];
    const value = async (year: number, field: string) => {
      const { assets: now } = await app.core.handlers['workspace.snapshot']({});
      const doc = now.find((a) => a.localId === target.localId)!.doc;
      return (
        (doc['annual_data'] as Record<string, unknown>[]).find((r) => r['year'] === year)?.[field] ?? null
      );
    };
    const cellOf = (year: number, col: string) =>
      page
        .locator(`[data-testid="annual-grid"] .ag-row[row-id="${target.localId}:${year}"] [col-id="${col}"]`)
        .first();
    await cellOf(y0, 'en_abs_we').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    const status = page.getByTestId('status-range');
    await expect.poll(() => status.textContent()).toMatch(/^6 cells · \d+ numbers, sum /);
    expect(await cellOf(y1, 'en_abs_we').getAttribute('class')).toContain('cell-in-range');
    await screenshot(page, 'ui-range.png');
    // Fill down over the range: each column's top cell to the two below, as one undo step.
    const top = await value(y0, 'en_abs_we');
    await page.keyboard.press('Control+d');
    await expect.poll(() => value(y2, 'en_abs_we')).toBe(top);
    expect(await value(y1, 'en_abs_we')).toBe(top);
    await page.keyboard.press('Control+z');
    await expect.poll(() => value(y2, 'en_abs_we')).not.toBe(top);
    // Fill right: each row's left cell to the one beside it, the range still in place.
    const right = (await page.locator('[data-testid="annual-grid"] .ag-cell-focus').getAttribute('col-id'))!;
    const left = await value(y1, 'en_abs_we');
    await page.keyboard.press('Control+r');
    await expect.poll(() => value(y1, right)).toBe(left);
    await page.keyboard.press('Control+z');
    await expect.poll(() => value(y1, right)).not.toBe(left);
    // Shift+click spans a range too; Delete clears it.
    await cellOf(y1, 'en_abs_we').click();
    await cellOf(y2, 'en_abs_we').click({ modifiers: ['Shift'] });
    await expect.poll(() => status.textContent()).toMatch(/^2 cells/);
    // One value pasted over the range goes into each of its cells, as one undo step.
    await pasteInPage(page, '4321');
    await expect.poll(() => value(y2, 'en_abs_we')).toBe(4321);
    expect(await value(y1, 'en_abs_we')).toBe(4321);
    await page.keyboard.press('Control+z');
    await expect.poll(() => value(y2, 'en_abs_we')).not.toBe(4321);
    await page.keyboard.press('Delete');
    await expect.poll(() => value(y2, 'en_abs_we')).toBe(null);
    expect(await value(y1, 'en_abs_we')).toBe(null);
    expect(await value(y0, 'en_abs_we')).toBe(top);
    await page.keyboard.press('Control+z');
    await expect.poll(() => value(y2, 'en_abs_we')).not.toBe(null);
  });
});
