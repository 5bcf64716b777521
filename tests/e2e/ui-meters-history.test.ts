/**
 * A Meters tab cell's history in Chromium, opened as an asset cell's is: Alt+H on a reading's
 * quantity typed over in the grid (the value typed, and the one it was given when the reading was
 * added), the cell menu on a meter's name; a column that is no field of a meter or a reading (a
 * reading's meter id is, its source is not) opens none.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app';
import { focusCell, screenshot, useUiPage, workspaceProbe } from '../support/ui-page';

describe("a Meters tab cell's history, in Chromium", () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];

  useUiPage('ui-meters-history', (ui) => {
    ({ app, page, pageErrors } = ui);
  });

  beforeAll(async () => {
    const [asset] = (await workspaceProbe(app).snapshot()).assets;
    await app.core.handlers['meters.saveMeters']({
      meters: [
        {
          id: 'MH-E1',
          name: 'Main power',
          assetId: asset!.localId,
          utility: 'electricity',
          space: 'whole_building',
          areaServed: 1_000,
          unit: 'kWh',
          energyContent: null,
        },
      ],
    });
    await app.core.handlers['meters.addReadings']({
      readings: [
        {
          meterId: 'MH-E1',
          start: '2024-01-01',
          end: '2024-01-31',
          quantity: 110,
          unit: 'kWh',
          estimated: false,
        },
      ],
    });
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('status-last-sync').waitFor();
    await page.getByTestId('tab-meters').click();
  });

  const panel = () => page.getByTestId('cell-history');
  const entries = () => panel().getByTestId('cell-history-entry');

  it('Alt+H on a reading cell typed over: the value typed, and the one the reading was added with', async () => {
    const grid = page.locator('[data-testid="readings-grid"]');
    const quantity = grid.locator('.ag-row[row-index="0"] [col-id="quantity"]').first();
    await focusCell(quantity);
    await page.keyboard.type('150');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await app.core.handlers['meters.list']({})).readings[0]?.quantity)
      .toBe(150);

    await focusCell(quantity);
    await page.keyboard.press('Alt+h');
    await entries().first().waitFor();
    expect(await panel().locator('h2').textContent()).toBe(
      'History of MH-E1 reading, 2024-01-01 to 2024-01-31 · Quantity',
    );
    const rows = await entries().evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      ['150', '110', 'typed'],
      ['110', '(empty)', 'typed'],
    ]);
    await screenshot(page, 'ui-meters-history-reading.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().isVisible()).toBe(false);

    // The Source column is no field of a reading the history keeps: Alt+H opens nothing there.
    await focusCell(grid.locator('.ag-row[row-index="0"] [col-id="source"]').first());
    await page.keyboard.press('Alt+h');
    await page.waitForTimeout(200);
    expect(await panel().isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it("the cell menu on a meter's name: its history", async () => {
    const name = page.locator('[data-testid="meters-grid"] .ag-row[row-id="MH-E1"] [col-id="name"]').first();
    await name.click({ button: 'right' });
    const menu = page.getByTestId('cell-menu');
    await menu.waitFor();
    expect(await menu.textContent()).toContain('Alt+H');
    await menu.getByRole('menuitem').click();
    await entries().first().waitFor();
    expect(await panel().locator('h2').textContent()).toBe('History of Meter Main power · Name');
    expect(await entries().count()).toBe(1);
    expect(await entries().first().getAttribute('data-source')).toBe('typed');
    expect(await entries().first().textContent()).toContain('Main power');
    await panel().getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => panel().isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
