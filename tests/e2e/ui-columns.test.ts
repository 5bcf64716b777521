/**
 * Columns as an analyst arranges them: one hidden from the chooser, a topic group collapsed from its
 * header, compact rows, all remembered for the workspace across a reload; headers wrap between words.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openUiPage, screenshot, screenshotIfFailed, type UiPage } from '../support/ui-page';
import type { TestApp } from '../support/test-app';

describe('columns: chooser, collapsible groups, density', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page, pageErrors } = ui);
  });
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-columns'));
  afterAll(() => ui?.close());

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
