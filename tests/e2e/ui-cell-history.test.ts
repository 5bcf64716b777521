/**
 * A cell's history as an analyst opens it, in Chromium against the embedded sandbox (issue 31): a
 * typed value, then the cell menu (right click) names the shortcut and opens the history, which
 * lists the typed value over the value the first pull brought from the service (with the service's
 * date); Alt+H opens it from the keyboard. The corner mark: on the pulled value, gone once typed,
 * back once imported. A value imported from a workbook: its entry's "Show the import" opens the
 * import's record with that cell highlighted; the Import dialog's "Recent imports" opens it too;
 * an export with "Add a Sources tab" names the import as the value's source. An import of hundreds
 * of cells: its record read a page at a time (Later cells, Earlier cells).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importCellsWindow } from '../../shared/history/import-record';
import type { AssetView } from '../../shared/sync/types';
import { gridCell, screenshot, useUiPage, workspaceProbe, type UiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe("a cell's history in the grid", () => {
  let ui: UiPage;
  let app: TestApp;
  let page: Page;
  let asset: AssetView;
  useUiPage('ui-cell-history', async (opened) => {
    ui = opened;
    ({ app, page } = ui);
    const assets = (await workspaceProbe(app).snapshot()).assets.filter((a) => a.serviceAssetId !== null);
    asset = assets[0] as AssetView;
  });

  /** The workbook at `book` imported through the Import dialog, which is left open on its result. */
  async function importBook(book: string, fileName: string) {
    // Run alone (-t), the page is not open yet.
    if (!(await page.getByTestId('exchange-button').isVisible())) {
      await page.goto(app.host.launchUrl);
      await page.getByTestId('exchange-button').waitFor();
      const guide = page.getByTestId('guide-dismiss');
      if (await guide.isVisible()) await guide.click();
    }
    await page.getByTestId('exchange-button').click();
    const exchange = page.getByTestId('exchange-dialog');
    await exchange.waitFor({ state: 'visible' });
    app.picker.next = book;
    await page.getByTestId('import-choose').click();
    await page.getByTestId('preview-file').filter({ hasText: fileName }).waitFor();
    await page.getByTestId('apply-import').click();
    await page.getByTestId('apply-result').waitFor();
    return exchange;
  }

  it('opens from the cell menu and Alt+H, each value with where it came from', async () => {
    await page.goto(app.host.launchUrl);
    const cell = gridCell(page, 'assets-grid', asset.localId, 'city');
    await cell.waitFor();
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    const before = String(asset.doc['city'] ?? '');
    const sourced = async () => /\bcell-sourced\b/.test((await cell.getAttribute('class')) ?? '');
    // A pulled value (its arrival wrote no history) is marked as not from the analyst's hand...
    if (before) await expect.poll(sourced).toBe(true);
    const name = gridCell(page, 'assets-grid', asset.localId, 'name');
    const nameSourced = async () => /\bcell-sourced\b/.test((await name.getAttribute('class')) ?? '');
    await expect.poll(nameSourced).toBe(true);
    // The bridge calls the page sends from now on, by name and arguments.
    await page.evaluate(`(() => {
      const calls = (window.__bridgeCalls = []);
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (typeof data === 'string') calls.push(JSON.parse(data));
        return send.call(this, data);
      };
    })()`);
    await cell.click();
    await page.keyboard.type('Haarlem');
    await page.keyboard.press('Enter');
    await expect.poll(() => workspaceProbe(app).valueAt(asset.localId, 'city')).toBe('Haarlem');
    // ...and a typed one is not.
    await expect.poll(sourced).toBe(false);
    // The rest of its row keeps its marks through the edit, without asking main again (a keypress
    // used to forget the row: drawn unmarked, asked for its hand cells 30 ms later, drawn again).
    await page.waitForTimeout(500);
    expect(await nameSourced()).toBe(true);
    const calls = (await page.evaluate('window.__bridgeCalls')) as Array<{ name: string; args: unknown }>;
    expect(calls.map((c) => c.name)).toContain('workspace.edit');
    const asked = calls.filter(
      (c) => c.name === 'workspace.handCells' && JSON.stringify(c.args).includes(asset.localId),
    );
    expect(asked).toEqual([]);

    await cell.click({ button: 'right' });
    const menu = page.getByTestId('cell-menu');
    await menu.waitFor();
    expect(await menu.textContent()).toContain('Alt+H');
    await screenshot(page, 'ui-cell-history-menu.png');
    await menu.getByRole('menuitem').click();
    const panel = page.getByTestId('cell-history');
    await panel.getByTestId('cell-history-entry').first().waitFor();
    const rows = panel.getByTestId('cell-history-entry');
    expect(await rows.count()).toBe(before ? 2 : 1);
    expect(await rows.nth(0).getAttribute('data-source')).toBe('typed');
    expect(await rows.nth(0).textContent()).toContain('Haarlem');
    if (before) {
      expect(await rows.nth(1).getAttribute('data-source')).toBe('service');
      // A pull's new asset: the service's updated_at it arrived with, though its arrival wrote no history.
      expect(await rows.nth(1).textContent()).toMatch(/from the service, updated \d{1,2} \w{3} \d{4}/);
    }
    expect(await panel.locator('h2').textContent()).toContain('City');
    await screenshot(page, 'ui-cell-history-panel.png');
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => panel.isVisible()).toBe(false);

    // From the keyboard: the focused cell's history.
    await cell.click();
    await page.keyboard.press('Alt+h');
    await panel.getByTestId('cell-history-entry').first().waitFor();
    expect(await panel.getByTestId('cell-history-entry').count()).toBe(before ? 2 : 1);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(ui.pageErrors).toEqual([]);
  });

  it("an imported value's entry shows the import (the file is gone), reachable from Recent imports too", async () => {
    // The workbook exported, the asset's city changed in it as an analyst would in Excel.
    const book = join(mkdtempSync(join(tmpdir(), 'asset-desk-ui-import-record-')), 'assets-2025.xlsx');
    app.picker.saveNext = book;
    await app.core.handlers['workbook.export']({ format: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(book);
    const sheet = wb.getWorksheet('Asset Characteristics');
    if (!sheet) throw new Error('no Asset Characteristics tab');
    const column = (sheet.getRow(1).values as unknown[]).indexOf('city');
    let row = 0;
    for (let r = 3; r <= sheet.rowCount; r++)
      if (sheet.getRow(r).getCell(1).value === asset.serviceAssetId) row = r;
    sheet.getRow(row).getCell(column).value = 'Zwolle';
    await wb.xlsx.writeFile(book);
    const place = `Asset Characteristics!${sheet.getColumn(column).letter}${row}`;
    const exchange = await importBook(book, 'assets-2025.xlsx');
    await page.getByTestId('exchange-close').click();
    await exchange.waitFor({ state: 'hidden' });
    await expect.poll(() => workspaceProbe(app).valueAt(asset.localId, 'city')).toBe('Zwolle');

    const cell = gridCell(page, 'assets-grid', asset.localId, 'city');
    // Imported: marked again as a value not from the analyst's hand.
    await expect.poll(async () => (await cell.getAttribute('class')) ?? '').toMatch(/\bcell-sourced\b/);
    await cell.click();
    await page.keyboard.press('Alt+h');
    const panel = page.getByTestId('cell-history');
    const newest = panel.getByTestId('cell-history-entry').first();
    await newest.waitFor();
    expect(await newest.getAttribute('data-source')).toBe('workbook');
    expect(await newest.textContent()).toContain(`from assets-2025.xlsx, ${place}`);
    await newest.getByTestId('cell-history-import').click();
    const record = page.getByTestId('import-record');
    await record.getByTestId('import-record-facts').waitFor();
    expect(await panel.isVisible()).toBe(false);
    expect(await record.locator('h2').textContent()).toBe('Workbook import from assets-2025.xlsx');
    expect(await record.getByTestId('import-record-facts').textContent()).toContain('1 changed');
    const marked = record.locator('tr[aria-current="true"]');
    expect(await marked.count()).toBe(1);
    expect(await marked.textContent()).toContain(place);
    expect(await marked.textContent()).toContain('Zwolle');
    await screenshot(page, 'ui-cell-history-import-record.png');
    await record.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => record.isVisible()).toBe(false);

    // The Import dialog's "Recent imports" opens the same record.
    await page.getByTestId('exchange-button').click();
    await exchange.waitFor({ state: 'visible' });
    await page.getByTestId('recent-imports').locator('summary').click();
    await page.getByTestId('recent-import').first().waitFor();
    await screenshot(page, 'ui-cell-history-recent-imports.png');
    await page.getByTestId('recent-import').first().click();
    await record.getByTestId('import-record-facts').waitFor();
    expect(await record.getByTestId('import-record-cell').count()).toBeGreaterThanOrEqual(1);
    expect(await record.locator('tr[aria-current="true"]').count()).toBe(0);
    await record.getByRole('button', { name: 'Close' }).click();

    // The export card's "Add a Sources tab" (off by default, an .xlsx's only): the imported city's row.
    const sourcesTab = page.getByTestId('export-sources-tab');
    expect(await sourcesTab.isChecked()).toBe(false);
    await page.getByTestId('export-format-csv').check();
    expect(await sourcesTab.isDisabled()).toBe(true);
    await page.getByTestId('export-format-xlsx').check();
    await sourcesTab.check();
    const withSources = join(dirname(book), 'with-sources.xlsx');
    app.picker.saveNext = withSources;
    await page.getByTestId('export-run').click();
    await page.getByTestId('export-result').waitFor();
    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(withSources);
    const sources = written.getWorksheet('Sources');
    if (!sources) throw new Error('no Sources tab');
    const lines: string[][] = [];
    sources.eachRow((line) => lines.push((line.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const city = lines.find((line) => line[4] === 'city' && line[5] === 'Zwolle');
    expect(city?.[6]).toBe(`from assets-2025.xlsx, ${place}`);
    await page.getByTestId('exchange-close').click();
    await exchange.waitFor({ state: 'hidden' });
    expect(ui.pageErrors).toEqual([]);
  });

  it("an import's record of hundreds of cells is read a page at a time: later cells, earlier cells", async () => {
    // Every energy figure of the workbook changed by one: an import of hundreds of cells.
    const book = join(mkdtempSync(join(tmpdir(), 'asset-desk-ui-import-pages-')), 'energy-2025.xlsx');
    app.picker.saveNext = book;
    await app.core.handlers['workbook.export']({ format: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(book);
    const energy = wb.getWorksheet('Energy');
    if (!energy) throw new Error('no Energy tab');
    const header = energy.getRow(1).values as unknown[];
    let changed = 0;
    for (let r = 3; r <= energy.rowCount; r++)
      header.forEach((name, column) => {
        const cell = energy.getRow(r).getCell(column);
        if (typeof name !== 'string' || !/^annual_data\[\d+\]\.en_/.test(name)) return;
        if (typeof cell.value !== 'number') return;
        cell.value += 1;
        changed++;
      });
    await wb.xlsx.writeFile(book);
    expect(changed).toBeGreaterThan(importCellsWindow);
    const exchange = await importBook(book, 'energy-2025.xlsx');
    // "Recent imports" reads the list as it opens (the test before left it open: closed first).
    const recent = page.getByTestId('recent-imports');
    if ((await recent.getAttribute('open')) !== null) await recent.locator('summary').click();
    await recent.locator('summary').click();
    await page.getByTestId('recent-import').filter({ hasText: 'energy-2025.xlsx' }).click();
    const record = page.getByTestId('import-record');
    await record.getByTestId('import-record-facts').waitFor();
    const status = record.locator('.hint[role="status"]');
    const cells = record.getByTestId('import-record-cell');
    await expect.poll(() => status.textContent()).toMatch(/^Cells 1–200 of [\d,]+ it changed:$/);
    expect(await cells.count()).toBe(importCellsWindow);
    const first = await cells.first().textContent();
    const earlier = record.getByRole('button', { name: 'Earlier cells' });
    const later = record.getByRole('button', { name: 'Later cells' });
    expect(await earlier.isDisabled()).toBe(true);
    await later.click();
    await expect.poll(() => status.textContent()).toMatch(/^Cells 201–\d+ of [\d,]+ it changed:$/);
    expect(await cells.first().textContent()).not.toBe(first);
    await screenshot(page, 'ui-cell-history-import-pages.png');
    await earlier.click();
    await expect.poll(() => status.textContent()).toMatch(/^Cells 1–200 of/);
    expect(await cells.first().textContent()).toBe(first);
    await record.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('exchange-close').click();
    await exchange.waitFor({ state: 'hidden' });
    expect(ui.pageErrors).toEqual([]);
  });
});
