/**
 * Meters in Chromium through the browser host (issue 32): a utility portal's readings CSV imported
 * from the Import dialog (preview with its duplicate flagged, "Apply valid rows"), the derived
 * annual cell drawn as derived with how it was made on hover, its history saying "from 1 meter"
 * with the way to the Meters tab on that asset, and Undo taking it all back; and the Readings grid
 * edited as the asset grids are (a Shift+arrow range copied and pasted, filled, replaced from the
 * find bar, cleared with Delete, each undone), the derived annual figure recomputed at each step.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app';
import {
  copyInPage,
  focusCell,
  gridCell,
  hoveredTooltip,
  pasteInPage,
  revealCell,
  screenshot,
  useUiPage,
  workspaceProbe,
} from '../support/ui-page';

/** Energy fields by space, electricity: the first one empty in the asset's row is the test's. */
const candidates = [
  ['tenant_tenant', 'en_abs_tc_te'],
  ['tenant_landlord', 'en_abs_lc_te'],
  ['common_areas', 'en_abs_lc_bce'],
  ['shared_services', 'en_abs_lc_bse'],
  ['whole_building', 'en_abs_we'],
] as const;

describe('meter readings, in Chromium', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'asset-desk-ui-meters-'));

  useUiPage(
    'ui-meters',
    (ui) => {
      ({ app, page, pageErrors } = ui);
    },
    { app: { browserFiles: true } },
  );

  const setup = async () => {
    const probe = workspaceProbe(app);
    const asset = (await probe.snapshot()).assets.find(
      (a) => a.partnersId !== null && Array.isArray(a.doc['annual_data']),
    )!;
    const row = (asset.doc['annual_data'] as Array<Record<string, unknown>>)[0]!;
    const year = Number(row['year']);
    const [space, field] =
      candidates.find(([, f]) => row[f] === undefined || row[f] === null) ?? candidates[0];
    const path = `annual_data/${year}/${field}`;
    // Two bills straddling the year's ends and one estimated in between, and the first bill again.
    // Hand-computed: 6,100 x 31/61 = 3,100 (Jan), 33,500 (Feb..Nov: 304 or 305 days, all inside),
    // 3,100 x 31/62 = 1,550 (Dec): 38,150 kWh.
    const febToNov = `${year}-02-01,${year}-11-30`;
    const csv = [
      'meter_id,meter_name,asset_partners_id,utility,space,area_served,start_date,end_date,quantity,unit,estimated',
      `UI-E1,Tenant power,${asset.partnersId},electricity,${space},500,${year - 1}-12-02,${year}-01-31,6100,kWh,no`,
      `UI-E1,Tenant power,${asset.partnersId},electricity,${space},500,${febToNov},33.5,MWh,yes`,
      `UI-E1,Tenant power,${asset.partnersId},electricity,${space},500,${year}-12-01,${year + 1}-01-31,3100,kWh,no`,
      `UI-E1,Tenant power,${asset.partnersId},electricity,${space},500,${year - 1}-12-02,${year}-01-31,6100,kWh,no`,
    ].join('\n');
    const file = join(folder, 'portal-readings.csv');
    writeFileSync(file, csv);
    return { probe, asset, row, year, field, path, file };
  };

  const importReadings = async (file: string) => {
    await page.getByTestId('exchange-button').click();
    await page.getByTestId('exchange-dialog').waitFor({ state: 'visible' });
    await page.setInputFiles('[data-testid="readings-file-input"]', file);
    await page.getByTestId('readings-preview').waitFor();
  };

  /**
   * The file's three readings applied on a fresh page, the Meters tab open on them. The tests before
   * leave their meter in the workspace: gone first, so the file's meter is new again.
   */
  const readingsOnMetersTab = async () => {
    const left = (await app.core.handlers['meters.list']({})).meters.map((m) => m.id);
    if (left.length > 0) await app.core.handlers['meters.delete']({ meterIds: left });
    const ready = await setup();
    const { probe, asset, path, file } = ready;
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await importReadings(file);
    await page.getByTestId('readings-apply').click();
    await page.getByTestId('readings-applied').waitFor();
    await page.getByTestId('exchange-close').click();
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(38_150);
    await page.getByTestId('tab-meters').click();
    const grid = page.locator('[data-testid="readings-grid"]');
    await expect.poll(() => grid.locator('.ag-row[row-id]').count()).toBe(3);
    // The start's pull done: its end reads the listing again, which would draw the rows anew under
    // a range being made.
    await page.getByTestId('status-last-sync').waitFor();
    return { ...ready, grid };
  };

  it('imports a readings CSV, shows the derived cell and its hover, and undoes', async () => {
    const { probe, asset, row, year, field, path, file } = await setup();
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('tab-annual').click();
    await importReadings(file);
    expect(await page.getByTestId('readings-counts').textContent()).toBe(
      '3 readings to add from 1 meter; 1 duplicate flagged, not added; 1 problem',
    );
    expect(await page.getByTestId('readings-problems').textContent()).toContain('Row 5: The same reading');
    await screenshot(page, 'ui-meters-preview.png');
    await page.getByTestId('readings-apply').click();
    await page.getByTestId('readings-applied').waitFor();
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(38_150);
    await page.getByTestId('exchange-close').click();

    // The derived cell in the annual grid, marked and explained on hover.
    const cell = gridCell(page, 'annual-grid', `${asset.localId}:${year}`, field);
    const showCell = () => revealCell(page, 'annual-grid', `${asset.localId}:${year}`, field);
    await showCell();
    await expect.poll(() => cell.getAttribute('class')).toContain('cell-derived');
    await expect
      .poll(() => hoveredTooltip(page, cell), { timeout: 30_000 })
      .toMatch(/From meters: 3 readings from 1 meter.*estimated.*\(meters UI-E1\)/);
    await screenshot(page, 'ui-meters-derived.png');

    // Its history (Alt+H) says it came from the meter, and jumps to the Meters tab on this asset.
    await cell.click();
    await page.keyboard.press('Alt+h');
    const history = page.getByTestId('cell-history');
    const derived = history.locator('[data-testid="cell-history-entry"][data-source="meters"]');
    await derived.waitFor();
    expect(await derived.textContent()).toContain('from 1 meter (3 readings)');
    await screenshot(page, 'ui-meters-history.png');
    await derived.getByTestId('cell-history-meters').click();
    await expect.poll(() => history.isVisible()).toBe(false);
    await page.getByTestId('meters-view').waitFor();
    expect(await page.getByTestId('tab-meters').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('meters-asset').inputValue()).toBe(asset.localId);
    const meterRows = page.locator('[data-testid="meters-grid"] .ag-row[row-id]');
    await expect.poll(() => meterRows.count()).toBe(1);
    expect(await meterRows.first().textContent()).toContain('Tenant power');
    await page.getByTestId('tab-annual').click();
    await showCell();

    // Undo: the readings, the meter and the derived figure go in one step.
    await page.getByTestId('undo').click();
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(row[field] ?? undefined);
    await expect.poll(() => cell.getAttribute('class')).not.toContain('cell-derived');
    expect((await app.core.handlers['meters.list']({})).readings).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('lists the readings in the Meters tab, where an edited reading moves the derived cell, undone by Ctrl+Z', async () => {
    const { probe, asset, path } = await readingsOnMetersTab();
    const meterRow = page.locator('[data-testid="meters-grid"] .ag-row[row-id]');
    await expect.poll(() => meterRow.count()).toBe(1);
    const listing = await app.core.handlers['meters.list']({});
    const estimated = listing.readings.find((r) => r.estimated)!;
    const quantity = page.locator(
      `[data-testid="readings-grid"] .ag-row[row-id="${estimated.id}"] [col-id="quantity"]`,
    );
    await quantity.dblclick();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('34');
    await page.keyboard.press('Enter');
    // 34 MWh now: 3,100 + 34,000 + 1,550
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(38_650);
    await expect.poll(async () => (await quantity.textContent())?.trim()).toBe('34');
    await screenshot(page, 'ui-meters-tab.png');
    // The readings' rules in the Problems panel too: the meter has no reading in the assessed year.
    await page.getByLabel('Show warnings').check();
    await expect
      .poll(() => page.getByTestId('meter-problems').textContent())
      .toContain('No reading of meter "Tenant power" covers');
    await page.getByLabel('Show warnings').uncheck();

    await page.locator('[data-testid="meters-view"] h3').first().click();
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(38_150);
    await expect.poll(async () => (await quantity.textContent())?.trim()).toBe('33.5');

    // The Portfolio view's figures from meters: 38,150 kWh, of which 33,500 estimated (87.8 %).
    await page.getByTestId('tab-portfolio').click();
    const table = page.getByTestId('portfolio-meters');
    await expect.poll(() => table.textContent()).toContain('38,150 kWh');
    expect(await table.textContent()).toContain('87.8 % ⚠');
    expect(pageErrors).toEqual([]);
  });

  it('fills down (Ctrl+D) and finds (Ctrl+F, Enter) in the Readings grid', async () => {
    const { grid } = await readingsOnMetersTab();

    // Find: "MWh" is the unit of the one estimated bill; Enter takes the grid's focus there.
    const estimated = (await app.core.handlers['meters.list']({})).readings.find((r) => r.estimated)!;
    await grid.locator('.ag-row[row-index="0"] [col-id="start"]').click();
    await page.keyboard.press('ControlOrMeta+F');
    const bar = page.getByTestId('readings-grid-find');
    const input = bar.getByTestId('find-input');
    await input.waitFor();
    await input.fill('mwh');
    // The first match from the focused cell, as the asset grids' find bar goes.
    await expect.poll(() => bar.getByTestId('find-count').textContent()).toBe('1 of 1');
    await input.press('Enter');
    await expect.poll(() => bar.getByTestId('find-count').textContent()).toBe('1 of 1');
    const focused = grid.locator('.ag-cell-focus');
    expect(await focused.getAttribute('col-id')).toBe('unit');
    expect(await focused.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id')).toBe(estimated.id);
    await input.press('Escape');
    await expect.poll(() => page.getByTestId('readings-grid-find').count()).toBe(0);

    // Fill down: the first row's "Estimated" into the second (the estimated bill), one undo step.
    const rowIds = await Promise.all(
      [0, 1].map((i) => grid.locator(`.ag-row[row-index="${i}"]`).first().getAttribute('row-id')),
    );
    const before = (await app.core.handlers['meters.list']({})).readings;
    const of = (id: string | null) => before.find((r) => r.id === id)!;
    expect(of(rowIds[0]!).estimated).not.toBe(of(rowIds[1]!).estimated);
    await grid.locator(`.ag-row[row-index="1"] [col-id="estimated"]`).click();
    await page.keyboard.press('ControlOrMeta+D');
    await expect
      .poll(
        async () =>
          (await app.core.handlers['meters.list']({})).readings.find((r) => r.id === rowIds[1])?.estimated,
      )
      .toBe(of(rowIds[0]!).estimated);
    await expect.poll(() => page.getByTestId('undo').getAttribute('title')).toMatch(/fill of 1 meter cell/);
    expect(pageErrors).toEqual([]);
  });

  it('edits the Readings grid as the asset grids: a Shift+arrow range copied and pasted, filled, replaced, cleared, and undone', async () => {
    const { probe, asset, path, year, field, grid } = await readingsOnMetersTab();

    // The readings by their place in the grid: the straddling bills and the estimated one.
    const ids = await Promise.all(
      [0, 1, 2].map(
        async (i) => (await grid.locator(`.ag-row[row-index="${i}"]`).first().getAttribute('row-id'))!,
      ),
    );
    const reading = async (id: string) =>
      (await app.core.handlers['meters.list']({})).readings.find((r) => r.id === id)!;
    const [first, second, third] = await Promise.all(ids.map(reading));
    expect([first!.start, second!.start, third!.start]).toEqual([
      `${year - 1}-12-02`,
      `${year}-02-01`,
      `${year}-12-01`,
    ]);
    const cell = (row: number, col: string) =>
      grid.locator(`.ag-row[row-index="${row}"] [col-id="${col}"]`).first();
    const undoTitle = () => page.getByTestId('undo').getAttribute('title');
    const status = page.getByTestId('status-range');

    // Shift+arrow: the first bill's quantity and unit, copied as Excel would take them.
    await focusCell(cell(0, 'quantity'));
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => status.textContent()).toMatch(/^2 cells · 1 numbers, sum 6,100/);
    expect(await cell(0, 'unit').getAttribute('class')).toContain('cell-in-range');
    expect(await copyInPage(page)).toBe('6100\tkWh');

    // Pasted over the estimated bill's quantity and unit: one step, and the annual figure follows.
    // 3,100 (January) + 6,100 (February..November, all inside) + 1,550 (December's half) = 10,750.
    await focusCell(cell(1, 'quantity'));
    await pasteInPage(page, '6100\tkWh');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(10_750);
    await expect.poll(undoTitle).toMatch(/paste of 2 meter cells/);
    await expect.poll(async () => (await cell(1, 'unit').textContent())?.trim()).toBe('kWh');

    // A pasted value that breaks a reading rule shows in its cell and below the grids, as typed ones
    // do; the figure it feeds is held back, so it stays. Undone.
    await focusCell(cell(2, 'quantity'));
    await pasteInPage(page, '-5');
    await expect.poll(() => cell(2, 'quantity').getAttribute('class')).toContain('cell-error');
    await expect.poll(() => page.getByTestId('meters-problems').textContent()).toContain('1 error');
    await expect
      .poll(() => page.getByTestId('meter-problems').textContent())
      .toContain('A negative quantity (-5)');
    expect(await probe.valueAt(asset.localId, path)).toBe(10_750);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => cell(2, 'quantity').getAttribute('class')).not.toContain('cell-error');

    // Fill down over a range: the first quantity into the two below, one step.
    // 3,100 + 6,100 + 6,100 x 31/62 = 12,250.
    await focusCell(cell(0, 'quantity'));
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => status.textContent()).toMatch(/^2 cells/);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => status.textContent()).toMatch(/^3 cells/);
    await page.keyboard.press('ControlOrMeta+D');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(12_250);
    expect((await reading(third!.id)).quantity).toBe(6_100);
    // The status bar's sum follows the written values: 3 x 6,100.
    await expect.poll(() => status.textContent()).toMatch(/^3 cells · 3 numbers, sum 18,300/);
    await expect.poll(undoTitle).toMatch(/fill of 2 meter cells/);

    // Replace (Ctrl+H): every 6100 of the quantity column becomes 12200, one step.
    // 12,200 x 31/61 = 6,200 + 12,200 + 12,200 x 31/62 = 6,100: 24,500.
    await page.keyboard.press('ControlOrMeta+H');
    const bar = page.getByTestId('readings-grid-find');
    await bar.getByTestId('find-input').fill('6100');
    await expect.poll(() => bar.getByTestId('find-count').textContent()).toMatch(/of 3$/);
    await bar.getByTestId('replace-input').fill('12200');
    await bar.getByTestId('replace-all').click();
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(24_500);
    await expect.poll(undoTitle).toMatch(/replace of 3 meter cells/);
    // The Source column is read-only: a replace there changes nothing and says so.
    await bar.getByTestId('find-input').fill('portal');
    // The search settles on a Source cell first (Replace all works in the current match's column).
    await expect.poll(() => bar.getByTestId('find-count').textContent()).toMatch(/of 3$/);
    await bar.getByTestId('replace-input').fill('x');
    await bar.getByTestId('replace-all').click();
    await expect
      .poll(() => page.getByText('Nothing replaced (3 cells read-only, skipped)').count())
      .toBeGreaterThan(0);
    await screenshot(page, 'ui-meters-replace.png');
    await bar.getByTestId('find-input').press('Escape');

    // Delete over the unit and estimated of two readings: "estimated" is cleared (no), a unit
    // can't be empty and stays, and the analyst is told.
    await focusCell(cell(0, 'unit'));
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => status.textContent()).toMatch(/^2 cells/);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => status.textContent()).toMatch(/^4 cells/);
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await reading(second!.id)).estimated).toBe(false);
    expect((await reading(second!.id)).unit).toBe('kWh');
    await expect.poll(undoTitle).toMatch(/clear of 2 meter cells/);
    await expect
      .poll(() => page.getByText("2 cells left as they were: they can't be empty.").count())
      .toBeGreaterThan(0);
    const mark = async () =>
      (await app.core.handlers['meters.derived']({ assetIds: [asset.localId] })).find(
        (m) => m.year === year && m.field === field,
      );
    await expect.poll(async () => (await mark())?.estimatedShare ?? 0).toBe(0);

    // Undo, step by step: the estimate, the replace, the fill, the paste.
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(async () => (await reading(second!.id)).estimated).toBe(true);
    await expect.poll(async () => (await mark())?.estimatedShare ?? 0).toBeGreaterThan(0);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(12_250);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(10_750);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => probe.valueAt(asset.localId, path)).toBe(38_150);
    await expect.poll(async () => (await cell(1, 'quantity').textContent())?.trim()).toBe('33.5');
    expect((await reading(second!.id)).unit).toBe('MWh');

    // The derived annual cell shows the figure made again, marked as derived.
    await page.getByTestId('tab-annual').click();
    const annual = await revealCell(page, 'annual-grid', `${asset.localId}:${year}`, field);
    await expect.poll(async () => (await annual.textContent())?.trim()).toBe('38150');
    expect(await annual.getAttribute('class')).toContain('cell-derived');
    expect(pageErrors).toEqual([]);
  });
});
