/**
 * The last row of a grid is seen whole (issue 30, item 4), at 1440x900 and at 1024x640: the asset
 * just added, a find target on the last row, the last row reached from the keyboard, in the assets
 * and the annual grids. Before, it lay half under the horizontal scrollbar's strip.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('the last row in view', () => {
  let app: TestApp;
  let page: Page;

  useUiPage('ui-last-row', (ui) => {
    ({ app, page } = ui);
  });

  /**
   * The row's box lies inside what the grid shows of its body: above the bottom of the body's
   * viewport and above the horizontal scrollbar's strip where that strip takes room.
   */
  const seenWhole = async (grid: string, row: Locator) => {
    await row.waitFor();
    // Let the grid finish its scroll (it moves rows on the next frame).
    await page.waitForTimeout(200);
    const rowBox = (await row.boundingBox())!;
    const bottom = await page.getByTestId(grid).evaluate((el) => {
      const body = el.querySelector('.ag-grid-viewport')!.getBoundingClientRect();
      // The horizontal scrollbar's strip hides what lies under it where it is painted.
      const strip = el.querySelector('.ag-body-horizontal-scroll');
      const stripBox = strip?.getBoundingClientRect();
      const painted = [strip, ...(strip ? [...strip.children] : [])].some(
        (part) => part && !/rgba\(0, 0, 0, 0\)|transparent/.test(getComputedStyle(part).backgroundColor),
      );
      const stripTop = stripBox && stripBox.height > 0 && painted ? stripBox.top : Infinity;
      const host = el.getBoundingClientRect();
      return Math.min(body.bottom, stripTop, host.bottom, window.innerHeight);
    });
    return { rowBottom: rowBox.y + rowBox.height, bottom, top: rowBox.y };
  };
  const expectWhole = async (grid: string, row: Locator, what: string) => {
    const m = await seenWhole(grid, row);
    expect(
      m.rowBottom,
      `${what}: row bottom ${m.rowBottom} under the grid's edge ${m.bottom}`,
    ).toBeLessThanOrEqual(m.bottom + 0.5);
  };

  for (const [width, height] of [
    [1440, 900],
    [1024, 640],
  ] as const) {
    it(`at ${width}x${height}: the asset just added, the last row by keyboard, a find target there`, async () => {
      await page.setViewportSize({ width, height });
      await page.goto(app.host.launchUrl);
      await page.getByTestId('assets-grid').waitFor();
      const guide = page.getByTestId('guide-dismiss');
      if (await guide.isVisible()) await guide.click();

      // The asset just added: the grid scrolls to it at the bottom.
      const before = (await app.core.handlers['workspace.snapshot']({})).assets.map((a) => a.localId);
      await page.getByTestId('add-asset').click();
      let added = '';
      await expect
        .poll(async () => {
          const now = (await app.core.handlers['workspace.snapshot']({})).assets;
          added = now.find((a) => !before.includes(a.localId))?.localId ?? '';
          return added;
        })
        .not.toBe('');
      const addedRow = page.locator(`[data-testid="assets-grid"] .ag-row[row-id="${added}"]`).first();
      await expectWhole('assets-grid', addedRow, 'the asset just added');
      await screenshot(page, `ui-last-row-added-${width}x${height}.png`);
      // The cursor is on its name: the analyst names it.
      await page.keyboard.type(`Schiedam Depot ${width}`);
      await page.keyboard.press('Enter');
      await expect
        .poll(
          async () =>
            (await app.core.handlers['workspace.snapshot']({})).assets.find((a) => a.localId === added)?.doc[
              'name'
            ],
        )
        .toBe(`Schiedam Depot ${width}`);

      // The last row reached from the keyboard (Ctrl+End goes to the last row of the grid).
      const firstName = page
        .locator('[data-testid="assets-grid"] .ag-row[row-index="0"] [col-id="name"]')
        .first();
      await page.evaluate(
        'document.querySelector(\'[data-testid="assets-grid"] .ag-grid-viewport\').scrollTop = 0',
      );
      await firstName.click();
      await page.keyboard.press('Control+ArrowDown');
      const lastIndex = (await app.core.handlers['workspace.snapshot']({})).assets.length - 1;
      const lastRow = page.locator(`[data-testid="assets-grid"] .ag-row[row-index="${lastIndex}"]`).first();
      await expectWhole('assets-grid', lastRow, 'the last row by keyboard');

      // A find target on the last row: the name of the asset there, found from the top.
      const lastName = ((await lastRow.locator('[col-id="name"]').first().textContent()) ?? '').trim();
      await page.keyboard.press('Escape');
      await page.evaluate(
        'document.querySelector(\'[data-testid="assets-grid"] .ag-grid-viewport\').scrollTop = 0',
      );
      await firstName.click();
      await page.keyboard.press('Control+f');
      await page.getByTestId('find-input').fill(lastName);
      await page.getByTestId('find-input').press('Enter');
      await expect.poll(() => page.getByTestId('find-count').textContent()).toMatch(/^\d+ of \d+$/);
      await expectWhole('assets-grid', lastRow, 'a find target on the last row');
      await screenshot(page, `ui-last-row-find-${width}x${height}.png`);
      await page.getByTestId('find-close').click();
    });
  }
});

// What the measure runs in the page (this tsconfig has no DOM library).
declare const window: { innerHeight: number };
declare const getComputedStyle: (el: unknown) => { backgroundColor: string };
