/**
 * The Portfolio tab in Chromium against the embedded sandbox: totals that add up to the workspace,
 * data coverage by utility and year, like-for-like with the assets that do not qualify and why, and
 * a figure that follows an edit without a reload; a coverage cell opens the asset in the grid.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('portfolio preview in Chromium', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];

  useUiPage('ui-portfolio', (ui) => {
    ({ app, page, pageErrors } = ui);
  });

  const floorAreaShown = async (): Promise<number> => {
    const cells = page.locator('[data-testid="portfolio-totals-propertyType"] tbody tr td:nth-child(3)');
    const texts = await cells.allTextContents();
    return texts.reduce((sum, t) => sum + Number(t.replace(/[^\d.]/g, '')), 0);
  };

  it('shows totals that add up to the workspace, coverage and like-for-like', async () => {
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('tab-portfolio').click();
    await page.getByTestId('portfolio-view').waitFor();
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const live = assets.filter((a) => a.status !== 'deleted');
    const types = new Set(live.map((a) => a.doc['property_type_code']));
    await expect
      .poll(() => page.locator('[data-testid="portfolio-totals-propertyType"] tbody tr').count())
      .toBe(types.size);
    const total = live.reduce((sum, a) => sum + Number(a.doc['size'] ?? 0), 0);
    expect(Math.round(await floorAreaShown())).toBe(Math.round(total));
    expect(await page.getByTestId('portfolio-coverage').locator('tbody tr').count()).toBeGreaterThan(0);
    const lflRows = page.getByTestId('portfolio-lfl').locator('tbody tr');
    expect(await lflRows.count()).toBeGreaterThan(0);
    await lflRows.first().getByRole('button', { name: 'Who does not qualify' }).click();
    await page.getByTestId('portfolio-lfl-excluded').waitFor();
    await screenshot(page, 'ui-portfolio.png');

    // The tables go out as a workbook, a tab each, through main's save dialog.
    const file = join(app.dataDir, 'portfolio.xlsx');
    app.picker.saveNext = file;
    await page.getByTestId('portfolio-export').click();
    // Main answers once the file is whole; the page says so.
    await page.getByText('Exported 8 tables to portfolio.xlsx').waitFor();
    expect(existsSync(file)).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'By property type',
      'By country',
      'Data coverage',
      'Coverage by asset',
      'Like-for-like',
      'Not like-for-like',
      'Intensity',
      'Renewable share',
    ]);
    expect(wb.getWorksheet('By property type')?.rowCount).toBe(types.size + 1);
    expect(pageErrors).toEqual([]);
  });

  it('names property types, gives intensities with enough digits, and explains the grey cells', async () => {
    // Names from the service's list, not its codes (IDWH, OCHI).
    const typeCells = await page
      .locator('[data-testid="portfolio-totals-propertyType"] tbody th')
      .allTextContents();
    expect(typeCells.length).toBeGreaterThan(0);
    for (const text of typeCells) expect(text).not.toMatch(/^[A-Z]{3,5}$/);
    const intensityTypes = await page
      .locator('[data-testid="portfolio-intensity"] tbody th')
      .allTextContents();
    for (const text of intensityTypes) expect(text).not.toMatch(/^[A-Z]{3,5}$/);
    // GHG and waste per m² in kg, never a bare "0 t" or "0.1 t"; each figure has a non-zero digit.
    const rows = page.locator('[data-testid="portfolio-intensity"] tbody tr');
    const lines = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from((tr as { children: ArrayLike<{ textContent: string | null }> }).children).map(
          (td) => td.textContent ?? '',
        ),
      ),
    );
    const ghg = lines.filter((cells) => cells[1] === 'GHG' && cells[3] !== '–');
    expect(ghg.length).toBeGreaterThan(0);
    for (const cells of ghg) expect(cells[3]).toMatch(/^[\d.,]*[1-9][\d.,]* kg/);
    for (const cells of lines) expect(cells[3]).not.toMatch(/^0(\.\d)? t\b/);
    expect(await page.getByTestId('portfolio-intensity').locator('thead').textContent()).toContain('per m²');
    expect(await page.getByTestId('heatmap-grey').textContent()).toContain('Grey: no floor area reported');
    await screenshot(page, 'ui-portfolio-figures.png');
  });

  it('draws its charts, and a bar or a row shows the assets behind it in the grid', async () => {
    for (const id of ['chart-floor-area', 'chart-coverage', 'chart-lfl', 'chart-coverage-heatmap']) {
      const box = await page.getByTestId(id).locator('canvas').boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(100);
    }
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const live = assets.filter((a) => a.status !== 'deleted');
    const byType = new Map<string, number>();
    for (const a of live)
      byType.set(
        String(a.doc['property_type_code']),
        (byType.get(String(a.doc['property_type_code'])) ?? 0) + Number(a.doc['size']),
      );
    const [largest] = [...byType].sort((x, y) => y[1] - x[1])[0]!;
    // The first bar is the largest property type and reaches near the top of the plot: click along
    // the first category's width at mid-height (the y axis' labels take a font-dependent width).
    await page.getByTestId('chart-floor-area').scrollIntoViewIfNeeded();
    const box = (await page.getByTestId('chart-floor-area').locator('canvas').boundingBox())!;
    for (let x = box.x + 40; x < box.x + box.width / 2; x += 8) {
      await page.mouse.click(x, box.y + box.height / 2);
      if ((await page.getByTestId('asset-filter').count()) > 0) break;
    }
    await page.getByTestId('assets-grid').waitFor();
    const expected = live.filter((a) => a.doc['property_type_code'] === largest).length;
    await expect
      .poll(() => page.getByTestId('asset-filter').textContent())
      .toContain(`Showing ${expected} assets`);
    const rowIds = async () =>
      new Set(
        await page
          .locator('[data-testid="assets-grid"] .ag-row[row-id]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id'))),
      ).size;
    await expect.poll(rowIds).toBe(expected);
    await screenshot(page, 'ui-portfolio-filtered-grid.png');
    await page.getByTestId('asset-filter').getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.getByTestId('asset-filter').count()).toBe(0);
    // The same from the keyboard: a country in the totals table.
    await page.getByTestId('tab-portfolio').click();
    const country = page.getByTestId('portfolio-totals-country').locator('tbody th button').first();
    await country.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('asset-filter').waitFor();
    await page.getByTestId('asset-filter').getByRole('button', { name: 'Show all' }).click();
  });

  it('recomputes after an edit, and a coverage cell opens the asset', async () => {
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const target = assets.find((a) => a.status !== 'deleted')!;
    await page.getByTestId('tab-portfolio').click();
    const before = await floorAreaShown();
    await app.core.handlers['workspace.edit']({
      edits: [{ localId: target.localId, path: 'size', value: Number(target.doc['size']) + 1000 }],
    });
    // The page hears of the edit as a workspace change; the grid tab reloads the snapshot.
    await page.getByTestId('tab-assets').click();
    await page.reload();
    await page.getByTestId('tab-portfolio').click();
    await expect.poll(async () => Math.round(await floorAreaShown())).toBe(Math.round(before + 1000));
    await page.getByTestId('portfolio-view').locator('details summary').click();
    // The heat map chart opens an asset too; the table beside it is the keyboard's way.
    await page.getByTestId('portfolio-heatmap').locator('tbody tr').first().locator('button').first().click();
    await page.getByTestId('annual-grid').waitFor();
  });
});
