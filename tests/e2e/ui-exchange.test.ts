/**
 * The Import / Export dialog as a new user meets it, in Debian's Chromium through the browser host
 * against the embedded sandbox: export the workspace to an XLSX, edit that workbook as one would in
 * Excel (two new values and one bad cell), read it back into a preview that lists the changes and the
 * problem with its reason, apply the valid rows, see them in the grids, undo the import; a file that
 * is not a workbook is refused with a clear message and changes nothing. Main's open and save dialogs
 * answer what `app.picker` says, as if the user had chosen that file.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import {
  gridCell,
  openUiPage,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const document: { activeElement: { getAttribute(name: string): string | null } | null };

const ANNUAL_YEAR = 2024;
const ANNUAL_FIELD = 'en_abs_wf';
const NEW_CITY = 'Zwolle';
const NEW_ANNUAL = 123_456;
const BAD_SIZE = 'about 12000';

describe('Import / Export dialog in Chromium', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let pageErrors: string[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'asset-desk-ui-exchange-'));
  const exported = join(folder, 'assets.xlsx');
  const edited = join(folder, 'assets-edited.xlsx');
  let first: AssetView;
  let second: AssetView;
  let originalCity: unknown;
  let originalAnnual: unknown;
  let originalSize: unknown;

  const probe = () => workspaceProbe(app);
  const snapshot = () => probe().snapshot();
  const valueAt = (localId: string, path: string) => probe().valueAt(localId, path);
  const annualPath = `annual_data/${ANNUAL_YEAR}/${ANNUAL_FIELD}`;
  const cell = (grid: string, rowId: string, colId: string) => gridCell(page, grid, rowId, colId);
  const dialog = () => page.getByTestId('exchange-dialog');
  const openDialog = async () => {
    await page.getByTestId('exchange-button').click();
    await dialog().waitFor({ state: 'visible' });
  };
  const closeDialog = async () => {
    await page.getByTestId('exchange-close').click();
    await dialog().waitFor({ state: 'hidden' });
  };

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page, pageErrors } = ui);
    const assets = (await snapshot()).assets;
    first = assets[0]!;
    second = assets[1]!;
    originalCity = await valueAt(first.localId, 'city');
    originalAnnual = await valueAt(first.localId, annualPath);
    originalSize = await valueAt(second.localId, 'size');
    // The edits below must be real changes, or the preview would have nothing to show.
    expect(typeof originalCity).toBe('string');
    expect(originalCity).not.toBe(NEW_CITY);
    expect(typeof originalAnnual).toBe('number');
    expect(originalAnnual).not.toBe(NEW_ANNUAL);
    expect(typeof originalSize).toBe('number');
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-exchange'));

  afterAll(() => ui?.close());

  it('exports the workspace to an XLSX the user names in the save dialog', async () => {
    await page.goto(app.host.launchUrl);
    await cell('assets-grid', first.localId, 'name').waitFor();
    await openDialog();
    // The dialog takes the keyboard: focus is inside it as soon as it opens.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).toBe(
      'export-format-xlsx',
    );
    expect(await page.getByTestId('export-format-xlsx').isChecked()).toBe(true);

    // Cancelling the save dialog writes nothing and says so.
    app.picker.saveNext = undefined;
    await page.getByTestId('export-run').click();
    await expect
      .poll(() => page.getByTestId('export-result').textContent())
      .toBe('Export cancelled: no file was written.');

    const total = (await snapshot()).assets.length;
    // CSV as well: one sheet, the same assets.
    const csv = join(folder, 'assets.csv');
    await page.getByTestId('export-format-csv').check();
    app.picker.saveNext = csv;
    await page.getByTestId('export-run').click();
    await expect
      .poll(() => page.getByTestId('export-result').textContent())
      .toBe(`Exported ${total} assets to assets.csv.`);
    expect(readFileSync(csv, 'utf8')).toContain(String(originalCity));

    await page.getByTestId('export-format-xlsx').check();
    app.picker.saveNext = exported;
    await page.getByTestId('export-run').click();
    await expect
      .poll(() => page.getByTestId('export-result').textContent())
      .toBe(`Exported ${total} assets to assets.xlsx.`);
    expect(existsSync(exported)).toBe(true);
    expect(statSync(exported).size).toBeGreaterThan(1_000);
    await screenshot(page, 'ui-export.png');

    // Escape closes it, as every dialog of the app.
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });

  it('previews an edited workbook: the changes, and the bad cell with its reason', async () => {
    const badCell = await editLikeExcel(exported, edited, {
      first: first.serviceAssetId!,
      second: second.serviceAssetId!,
    });

    await openDialog();
    app.picker.next = edited;
    await page.getByTestId('import-choose').click();
    const preview = page.getByTestId('preview');
    await preview.waitFor();
    expect(await page.getByTestId('preview-file').textContent()).toBe('assets-edited.xlsx');
    const total = (await snapshot()).assets.length;
    const count = (status: string) => page.getByTestId(`count-${status}`).getAttribute('data-count');
    expect(await count('changed')).toBe('1');
    expect(await count('rejected')).toBe('1');
    expect(await count('new')).toBe('0');
    expect(await count('unchanged')).toBe(String(total - 2));

    const changedRow = page.locator(
      `[data-testid="preview-row"][data-status="changed"][data-local-id="${first.localId}"]`,
    );
    const cityChange = changedRow.locator('[data-testid="preview-change"][data-path="city"]');
    expect(await cityChange.getByTestId('change-before').textContent()).toBe(originalCity);
    expect(await cityChange.getByTestId('change-after').textContent()).toBe(NEW_CITY);
    const annualChange = changedRow.locator(`[data-testid="preview-change"][data-path="${annualPath}"]`);
    expect(await annualChange.getByTestId('change-before').textContent()).toBe(String(originalAnnual));
    expect(await annualChange.getByTestId('change-after').textContent()).toBe(String(NEW_ANNUAL));
    expect(await annualChange.textContent()).toContain(
      `${ANNUAL_YEAR} · Energy consumption, whole building, fuel`,
    );
    expect(await changedRow.getByTestId('preview-change').count()).toBe(2);

    const rejectedRow = page.locator(
      `[data-testid="preview-row"][data-status="rejected"][data-local-id="${second.localId}"]`,
    );
    const problem = rejectedRow.locator(`[data-testid="preview-problem"][data-cell="${badCell}"]`);
    expect(await problem.getByTestId('problem-reason').textContent()).toBe(`"${BAD_SIZE}" is not a number`);
    expect(await problem.textContent()).toContain('Problem');
    // Unchanged assets are folded away until asked for.
    expect(await page.getByTestId('preview-row').count()).toBe(2);
    await page.getByTestId('show-unchanged').check();
    expect(await page.getByTestId('preview-row').count()).toBe(total);
    await page.getByTestId('show-unchanged').uncheck();

    // A rejected asset blocks the whole import until the user chooses to skip it.
    expect(await page.getByTestId('apply-blocked').textContent()).toContain('1 asset is rejected');
    expect(await page.getByTestId('apply-import').isDisabled()).toBe(true);
    await screenshot(page, 'ui-import-preview.png');
    // Reading the file changed nothing yet.
    expect(await valueAt(first.localId, 'city')).toBe(originalCity);
  });

  it('applies the valid rows; the grids show the new values', async () => {
    // By keyboard: Space ticks "only the valid rows", Tab reaches Apply, Enter presses it.
    const focusedTestId = () =>
      page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
    await page.getByTestId('apply-partial').focus();
    await page.keyboard.press('Space');
    expect(await page.getByTestId('apply-partial').isChecked()).toBe(true);
    expect(await page.getByTestId('apply-import').isEnabled()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedTestId()).toBe('apply-import');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('apply-result');
    await result.waitFor();
    // The Apply button went with the preview; focus goes to Undo, not to the page behind the dialog.
    await expect.poll(focusedTestId).toBe('undo-import');
    expect(await result.textContent()).toContain(
      'Imported assets-edited.xlsx: 0 assets created, 1 asset updated, 1 rejected asset skipped.',
    );
    expect(await page.getByTestId('preview').count()).toBe(0);

    expect(await valueAt(first.localId, 'city')).toBe(NEW_CITY);
    expect(await valueAt(first.localId, annualPath)).toBe(NEW_ANNUAL);
    // The rejected asset was skipped whole.
    expect(await valueAt(second.localId, 'size')).toBe(originalSize);
    await screenshot(page, 'ui-import-applied.png');

    await closeDialog();
    await expect.poll(() => cell('assets-grid', first.localId, 'city').textContent()).toBe(NEW_CITY);
    await page.getByTestId('tab-annual').click();
    await expect
      .poll(() => cell('annual-grid', `${first.localId}:${ANNUAL_YEAR}`, ANNUAL_FIELD).textContent())
      .toBe(String(NEW_ANNUAL));
    await screenshot(page, 'ui-import-applied-grid.png');
    expect(pageErrors).toEqual([]);
  });

  it('undoes the import: the old values come back', async () => {
    await openDialog();
    await page.getByTestId('undo-import').click();
    const undone = page.getByTestId('undo-result');
    await undone.waitFor();
    expect(await undone.textContent()).toBe('Import undone: 1 asset restored, 0 new assets removed.');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
      .toBe('undo-result');
    expect(await page.getByTestId('undo-import').count()).toBe(0);
    expect(await valueAt(first.localId, 'city')).toBe(originalCity);
    expect(await valueAt(first.localId, annualPath)).toBe(originalAnnual);
    await closeDialog();
    await expect
      .poll(() => cell('annual-grid', `${first.localId}:${ANNUAL_YEAR}`, ANNUAL_FIELD).textContent())
      .toBe(String(originalAnnual));
    await page.getByTestId('tab-assets').click();
    await expect.poll(() => cell('assets-grid', first.localId, 'city').textContent()).toBe(originalCity);
    expect(pageErrors).toEqual([]);
  });

  it('refuses a file that is not a workbook with a clear message and changes nothing', async () => {
    const bogus = join(folder, 'not-a-workbook.xlsx');
    writeFileSync(bogus, 'this is plain text, not a spreadsheet');
    const before = JSON.stringify((await snapshot()).assets);

    await openDialog();
    app.picker.next = bogus;
    await page.getByTestId('import-choose').click();
    const error = page.getByTestId('import-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'This file is neither an Excel workbook (.xlsx) nor a CSV file. Old .xls workbooks must be saved as .xlsx first.',
    );
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('import-file').textContent()).toContain('not-a-workbook.xlsx');
    expect(await page.getByTestId('preview').count()).toBe(0);
    expect(JSON.stringify((await snapshot()).assets)).toBe(before);
    // The refusal is the call's answer on the bridge's socket: the page logs nothing.
    expect(pageErrors).toEqual([]);
    await closeDialog();
  });

  it("gets the service's export with progress and previews it; a dead link is refused", async () => {
    await openDialog();
    await page.getByTestId('service-export-run').click();
    const preview = page.locator('[data-testid="preview"][data-source="service"]');
    await preview.waitFor({ timeout: 30_000 });
    const progress = page.getByTestId('service-progress');
    expect(await progress.getAttribute('data-phase')).toBe('done');
    expect(await progress.textContent()).toMatch(/^Downloaded in \d+ s\.$/);
    expect(await page.getByTestId('service-result').textContent()).toMatch(
      /^Received .+\.xlsx \(\d+(\.\d)? KB\); its preview is below\.$/,
    );
    expect(await page.getByTestId('count-rejected').getAttribute('data-count')).toBe('0');
    const total = (await snapshot()).assets.length;
    await page.getByTestId('show-unchanged').check();
    expect(await page.getByTestId('preview-row').count()).toBe(total);
    await screenshot(page, 'ui-service-export.png');
    expect(pageErrors).toEqual([]);

    // A link pasted after its 15 minutes (here: one the service never gave) says what to do.
    await page.getByTestId('link-url').fill(`${app.core.sandbox.baseUrl}/exports/gone.xlsx`);
    await page.getByTestId('link-url').press('Enter');
    const error = page.getByTestId('service-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('export links last 15 minutes. Request a new export.');
    expect(pageErrors).toEqual([]);
    await closeDialog();
  });
});

/**
 * What an analyst does in Excel: a new city and a new annual figure for one asset, and a floor area
 * typed as words for another. Columns are found by the workbook's hidden row of variable names (the
 * contract; a person reads the labels under it). Returns the bad cell as the preview names it.
 */
async function editLikeExcel(
  from: string,
  to: string,
  ids: { first: number; second: number },
): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(from);
  const sheet = (name: string) => {
    const ws = workbook.getWorksheet(name);
    if (!ws) throw new Error(`no ${name} tab`);
    return ws;
  };
  const columnOf = (ws: ExcelJS.Worksheet, key: string): number => {
    let found = 0;
    ws.getRow(1).eachCell((c, column) => {
      if (c.value === key) found = column;
    });
    if (!found) throw new Error(`no column ${key} on ${ws.name}`);
    return found;
  };
  const rowOf = (ws: ExcelJS.Worksheet, serviceAssetId: number): ExcelJS.Row => {
    for (let r = 3; r <= ws.rowCount; r++)
      if (ws.getRow(r).getCell(1).value === serviceAssetId) return ws.getRow(r);
    throw new Error(`asset ${serviceAssetId} not on ${ws.name}`);
  };

  const characteristics = sheet('Asset Characteristics');
  rowOf(characteristics, ids.first).getCell(columnOf(characteristics, 'city')).value = NEW_CITY;
  const bad = rowOf(characteristics, ids.second).getCell(columnOf(characteristics, 'size'));
  bad.value = BAD_SIZE;
  const energy = sheet('Energy');
  rowOf(energy, ids.first).getCell(columnOf(energy, `annual_data[${ANNUAL_YEAR}].${ANNUAL_FIELD}`)).value =
    NEW_ANNUAL;
  await workbook.xlsx.writeFile(to);
  return `Asset Characteristics!${bad.address}`;
}
