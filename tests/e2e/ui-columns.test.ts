/**
 * Columns as an analyst arranges them: one hidden from the chooser, a topic group collapsed from its
 * header, compact rows, all remembered for the workspace across a reload; headers wrap between words.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const document: { activeElement: unknown };

describe('columns: chooser, collapsible groups, density', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];

  useUiPage('ui-columns', (ui) => {
    ({ app, page, pageErrors } = ui);
  });

  const header = (grid: string, colId: string) =>
    page.locator(`[data-testid="${grid}"] .ag-header-cell[col-id="${colId}"]`);

  it('hides a column from the chooser and keeps it hidden after a reload', async () => {
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await header('assets-grid', 'lat').waitFor();
    const chooser = page.getByTestId('column-chooser-assets');
    await chooser.getByTestId('columns-button').click();
    await chooser.locator('input[data-col-id="lat"]').uncheck();
    await expect.poll(() => header('assets-grid', 'lat').count()).toBe(0);
    expect(await chooser.getByTestId('columns-button').textContent()).toContain('1 hidden');
    await screenshot(page, 'ui-column-chooser.png');
    await page.reload();
    await header('assets-grid', 'lng').waitFor();
    expect(await header('assets-grid', 'lat').count()).toBe(0);
  });

  it('closes the chooser on Escape and on a click outside, and leaves the asset names in sight', async () => {
    const chooser = page.getByTestId('column-chooser-assets');
    const list = chooser.getByTestId('column-list');
    await chooser.getByTestId('columns-button').click();
    await list.waitFor();
    // The names stay readable beside the open list: it starts right of the pinned name column.
    const names = await header('assets-grid', 'name').boundingBox();
    const box = await list.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(names!.x + names!.width - 0.5);
    await chooser.locator('input[data-col-id="lng"]').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => list.count()).toBe(0);
    // The keyboard is back on the button that opened it.
    expect(await chooser.getByTestId('columns-button').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await chooser.getByTestId('columns-button').click();
    await list.waitFor();
    await page.getByTestId('status-bar').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => list.count()).toBe(0);
  });

  it('finds a column of Annual data by its name and hides or shows a whole topic at once', async () => {
    await page.getByTestId('tab-annual').click();
    const chooser = page.getByTestId('column-chooser-annual');
    await chooser.getByTestId('columns-button').click();
    const list = chooser.getByTestId('column-list');
    await list.waitFor();
    const boxes = list.locator('input[data-col-id]');
    const all = await boxes.count();
    await list.getByTestId('column-search').fill('renewable');
    await expect.poll(() => boxes.count()).toBeLessThan(all);
    expect(await boxes.count()).toBeGreaterThan(0);
    for (const label of await list.locator('li:has(input[data-col-id])').allTextContents())
      expect(label.toLowerCase()).toContain('renewable');
    await list.getByTestId('column-search').fill('');
    await expect.poll(() => boxes.count()).toBe(all);

    // The grid draws only the columns in view: what it shows is read from the boxes and the count.
    const water = list.locator('[data-testid="topic-toggle"][data-topic="Water"]');
    const waterBoxes = list.locator('ul:has([data-topic="Water"]) input[data-col-id]');
    const waterCount = await waterBoxes.count();
    expect(waterCount).toBeGreaterThan(3);
    const checked = () =>
      waterBoxes.evaluateAll((boxes) => boxes.filter((b) => (b as { checked?: boolean }).checked).length);
    expect(await checked()).toBe(waterCount);
    await water.uncheck();
    await expect.poll(checked, { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => chooser.getByTestId('columns-button').textContent())
      .toContain(`${waterCount} hidden`);
    await water.check();
    await expect.poll(checked, { timeout: 10_000 }).toBe(waterCount);
    await screenshot(page, 'ui-column-chooser-annual.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => list.count()).toBe(0);
    await page.getByTestId('tab-assets').click();
  });

  it('collapses a topic group from its header and compacts the rows, both remembered', async () => {
    await page.getByTestId('tab-annual').click();
    const energyColumns = () =>
      page.locator('[data-testid="annual-grid"] .ag-header-cell[col-id^="en_"]').count();
    await expect.poll(energyColumns).toBeGreaterThan(5);
    const group = page
      .locator('[data-testid="annual-grid"] .ag-header-group-cell.group-topic-energy')
      .first();
    await group.locator('.ag-header-expand-icon-expanded').click();
    await expect.poll(energyColumns).toBe(1);
    const chooser = page.getByTestId('column-chooser-annual');
    await chooser.getByTestId('compact-rows').check();
    const rowHeight = () =>
      page
        .locator('[data-testid="annual-grid"] .ag-row[row-id]')
        .first()
        .evaluate((row) => Math.round(row.getBoundingClientRect().height));
    await expect.poll(rowHeight).toBe(22);
    await screenshot(page, 'ui-columns-collapsed-compact.png');
    await page.reload();
    await page.getByTestId('tab-annual').click();
    await expect.poll(energyColumns).toBe(1);
    await expect.poll(rowHeight).toBe(22);
    expect(pageErrors).toEqual([]);
  });
});
