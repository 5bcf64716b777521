/**
 * A Shift+arrow pressed at once after the click that focused a cell makes a range, in a meters grid
 * and in an asset grid (they share the editing of `renderer/src/editing/`). Pressed as a test can
 * (no pause), then with the page's zero-delay timers held while the click and the key are handled:
 * the order a quiet machine gives, where the key is handled before AG Grid delivers the click's own
 * callbacks (`support/held-timers.ts`), which once undid the range.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app';
import { holdTimers, releaseTimers } from '../support/held-timers';
import { revealCell, useUiPage, workspaceProbe } from '../support/ui-page';

// What runs in the page (this tsconfig has no DOM library).
declare const requestAnimationFrame: (callback: () => void) => number;

/** Two frames drawn: what the page does after the last event has been done. */
const drawn = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

const inRange = async (cell: Locator) => (await cell.getAttribute('class'))?.includes('cell-in-range');

describe('a Shift+arrow at once after a click makes a range', () => {
  let app: TestApp;
  let page: Page;
  let assetIds: string[] = [];

  useUiPage('ui-range-after-click', (ui) => {
    ({ app, page } = ui);
  });

  beforeAll(async () => {
    const { assets } = await workspaceProbe(app).snapshot();
    assetIds = assets.filter((a) => a.status !== 'deleted').map((a) => a.localId);
    await app.core.handlers['meters.saveMeters']({
      meters: [
        {
          id: 'RC-E1',
          name: 'Main power',
          assetId: assetIds[0]!,
          utility: 'electricity',
          space: 'whole_building',
          areaServed: 1_000,
          unit: 'kWh',
          energyContent: null,
        },
      ],
    });
    const reading = (start: string, end: string, quantity: number) => ({
      meterId: 'RC-E1',
      start,
      end,
      quantity,
      unit: 'kWh',
      estimated: false,
    });
    await app.core.handlers['meters.addReadings']({
      readings: [
        reading('2024-01-01', '2024-01-31', 110),
        reading('2024-02-01', '2024-02-29', 220),
        reading('2024-03-01', '2024-03-31', 330),
      ],
    });
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    // The start's pull done: its end reads the rows again.
    await page.getByTestId('status-last-sync').waitFor();
  });

  /** What the status bar says of the range, "no range" when it shows none. */
  const rangeStatus = async () => {
    const status = page.getByTestId('status-range');
    return (await status.count()) === 0 ? 'no range' : await status.textContent();
  };

  /** Clicks `cell` and at once presses Shift+ArrowRight; held: the page's zero-delay timers wait meanwhile. */
  const clickThenShiftRight = async (cell: Locator, held: boolean) => {
    await cell.scrollIntoViewIfNeeded();
    if (held) await holdTimers(page);
    await cell.click();
    await page.keyboard.press('Shift+ArrowRight');
    // The click's callbacks were held back, so they come after the key, as on a quiet machine.
    if (held) expect(await releaseTimers(page)).toBeGreaterThan(0);
    await drawn(page);
  };

  it('in the Readings grid', async () => {
    await page.getByTestId('tab-meters').click();
    const grid = page.locator('[data-testid="readings-grid"]');
    await expect.poll(() => grid.locator('.ag-row[row-id]').count()).toBe(3);
    const cell = (row: number, col: string) =>
      grid.locator(`.ag-row[row-index="${row}"] [col-id="${col}"]`).first();
    const quantityOf = async (row: number) => Number((await cell(row, 'quantity').textContent())?.trim());

    await clickThenShiftRight(cell(0, 'quantity'), false);
    expect(await rangeStatus()).toBe(`2 cells · 1 numbers, sum ${await quantityOf(0)}`);
    expect([await inRange(cell(0, 'quantity')), await inRange(cell(0, 'unit'))]).toEqual([true, true]);

    await clickThenShiftRight(cell(1, 'quantity'), true);
    expect(await rangeStatus()).toBe(`2 cells · 1 numbers, sum ${await quantityOf(1)}`);
    expect([await inRange(cell(1, 'quantity')), await inRange(cell(1, 'unit'))]).toEqual([true, true]);
    expect(await inRange(cell(0, 'quantity'))).toBe(false);
    // The range is where the grid's focus is: a second Shift+arrow grows it from there.
    await page.keyboard.press('Shift+ArrowRight');
    await drawn(page);
    expect(await rangeStatus()).toMatch(/^3 cells/);
    expect(await inRange(cell(1, 'estimated'))).toBe(true);

    // A Shift+click at once after a click spans from that click, the grid's callbacks held too.
    await holdTimers(page);
    await cell(2, 'quantity').click();
    await cell(2, 'estimated').click({ modifiers: ['Shift'] });
    expect(await releaseTimers(page)).toBeGreaterThan(0);
    await drawn(page);
    expect(await rangeStatus()).toBe(`3 cells · 1 numbers, sum ${await quantityOf(2)}`);
    expect(await inRange(cell(1, 'quantity'))).toBe(false);
  });

  it('in the Assets grid', async () => {
    await page.getByTestId('tab-assets').click();
    const first = await revealCell(page, 'assets-grid', assetIds[0]!, 'name');
    const second = await revealCell(page, 'assets-grid', assetIds[1]!, 'name');

    await clickThenShiftRight(first, false);
    expect(await rangeStatus()).toMatch(/^2 cells/);
    expect(await inRange(first)).toBe(true);

    await clickThenShiftRight(second, true);
    expect(await rangeStatus()).toMatch(/^2 cells/);
    expect([await inRange(second), await inRange(first)]).toEqual([true, false]);
  });
});
