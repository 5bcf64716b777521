/**
 * Re-importing our own export after a sync (issue 30, item 1): an asset added here, exported while it
 * had no Asset ID, then synced, comes back from the same file (XLSX and CSV) onto itself, matched by
 * its Partner ID, not as a second asset; a blank-ID row named like a synced asset is a problem of the
 * preview, with its reason, not a duplicate the service refuses only after Apply.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { openUiPage, screenshot, screenshotIfFailed, type UiPage, workspaceProbe } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('re-import after a sync', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let added: AssetView;
  let synced: AssetView;
  const folder = mkdtempSync(join(tmpdir(), 'asset-desk-ui-reimport-'));
  const xlsx = join(folder, 'before-sync.xlsx');
  const csv = join(folder, 'before-sync.csv');
  const clash = join(folder, 'clash.xlsx');
  const byNameXlsx = join(folder, 'by-name.xlsx');
  const byNameCsv = join(folder, 'by-name.csv');
  const name = 'Leiden Depot';

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
    const probe = workspaceProbe(app);
    const { assets } = await probe.snapshot();
    synced = assets.find((a) => a.serviceAssetId !== null && a.status === 'clean')!;
    // A new asset like an existing one (its characteristics), under a name of its own.
    const fields: Record<string, string | number | boolean | null> = {};
    for (const [key, value] of Object.entries(synced.doc))
      if (
        key !== 'service_asset_id' &&
        key !== 'partners_id' &&
        (value === null || typeof value !== 'object')
      )
        fields[key] = value as string | number | boolean | null;
    fields['name'] = name;
    added = await app.core.handlers['workspace.createAsset']({ fields });
    // Exported while it has no Asset ID; then synced, which gives it one.
    app.picker.saveNext = xlsx;
    await app.core.handlers['workbook.export']({ format: 'xlsx' });
    app.picker.saveNext = csv;
    await app.core.handlers['workbook.export']({ format: 'csv' });
    await app.core.handlers['sync.run']({ mode: 'always' });
    added = (await probe.assetOf(added.localId))!;
    expect(added.serviceAssetId).not.toBeNull();

    // The same export with a hand-typed row (blank Asset ID) named like a synced asset.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx);
    const sheet = workbook.getWorksheet('Asset Characteristics')!;
    let nameColumn = 0;
    sheet.getRow(1).eachCell((c, column) => {
      if (c.value === 'name') nameColumn = column;
    });
    sheet.addRow([]).getCell(nameColumn).value = String(synced.doc['name']);
    await workbook.xlsx.writeFile(clash);

    // Hand-typed rows (blank Asset ID) naming a synced asset, with a city to change: XLSX and CSV.
    let cityColumn = 0;
    sheet.getRow(1).eachCell((c, column) => {
      if (c.value === 'city') cityColumn = column;
    });
    const last = sheet.getRow(sheet.rowCount);
    last.getCell(cityColumn).value = 'Matched by name (XLSX)';
    // Without the asset's own row (two rows of one asset on a tab are a problem of their own).
    let idColumn = 0;
    sheet.getRow(1).eachCell((c, column) => {
      if (c.value === 'gresb_asset_id') idColumn = column;
    });
    expect(idColumn).toBeGreaterThan(0);
    sheet.eachRow((r, at) => {
      if (r.getCell(idColumn).value === synced.serviceAssetId) sheet.spliceRows(at, 1);
    });
    await workbook.xlsx.writeFile(byNameXlsx);
    const lines = readFileSync(csv, 'utf8').split(/\r?\n/);
    const keys = lines[0]!.split(',');
    const cells = keys.map((key) =>
      key === 'name' ? String(synced.doc['name']) : key === 'city' ? 'Matched by name (CSV)' : '',
    );
    writeFileSync(byNameCsv, [lines[0], lines[1], cells.join(',')].join('\n') + '\n');
  }, 120_000);
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-reimport'));
  afterAll(() => ui?.close());

  const preview = async (file: string) => {
    await page.getByTestId('exchange-button').click();
    await page.getByTestId('exchange-dialog').waitFor({ state: 'visible' });
    app.picker.next = file;
    await page.getByTestId('import-choose').click();
    // The dialog keeps the last preview while the next file is read: wait for this file's.
    await page
      .locator('[data-testid="preview-file"]', {
        hasText: new RegExp(`^${basename(file).replace('.', '\\.')}$`),
      })
      .waitFor();
  };
  const count = (status: string) => page.getByTestId(`count-${status}`).getAttribute('data-count');
  const close = async () => {
    await page.getByTestId('exchange-close').click();
    await page.getByTestId('exchange-dialog').waitFor({ state: 'hidden' });
  };

  for (const format of ['xlsx', 'csv'] as const) {
    it(`the ${format.toUpperCase()} exported before the sync comes back onto the same assets`, async () => {
      if (format === 'xlsx') {
        await page.goto(app.host.launchUrl);
        const guide = page.getByTestId('guide-dismiss');
        if (await guide.isVisible()) await guide.click();
      }
      await preview(format === 'xlsx' ? xlsx : csv);
      expect(await count('new')).toBe('0');
      expect(await count('rejected')).toBe('0');
      await page.getByTestId('show-unchanged').check();
      // The added asset's row is that asset, matched by its Partner ID.
      const row = page.locator(`[data-testid="preview-row"][data-local-id="${added.localId}"]`);
      expect(await row.getAttribute('data-status')).toBe('unchanged');
      await screenshot(page, `ui-reimport-${format}.png`);
      await close();
    });
  }

  it('a blank-ID row named like a synced asset is a problem in the preview', async () => {
    const before = (await workspaceProbe(app).snapshot()).assets.length;
    await preview(clash);
    expect(await count('new')).toBe('0');
    expect(await count('rejected')).toBe('1');
    const problem = page.locator(
      '[data-testid="preview-row"][data-status="rejected"] [data-testid="problem-reason"]',
    );
    expect(await problem.textContent()).toContain(
      `An asset named "${String(synced.doc['name'])}" is already in the workspace (Asset ID ${synced.serviceAssetId})`,
    );
    expect(await page.getByTestId('apply-import').isDisabled()).toBe(true);
    await screenshot(page, 'ui-reimport-clash.png');
    await close();
    expect((await workspaceProbe(app).snapshot()).assets.length).toBe(before);
    expect(ui!.pageErrors).toEqual([]);
  });

  for (const format of ['xlsx', 'csv'] as const) {
    it(`matching by name is offered in one click, and then updates the named asset (${format.toUpperCase()})`, async () => {
      const before = (await workspaceProbe(app).snapshot()).assets.length;
      await preview(format === 'xlsx' ? byNameXlsx : byNameCsv);
      expect(await count('rejected')).toBe('1');
      const offer = page.getByTestId('name-match-offer');
      expect(await offer.textContent()).toBe('Match 1 row to existing assets by name');
      await offer.click();
      await page.getByTestId('name-match-undo').waitFor();
      expect(await count('rejected')).toBe('0');
      expect(await count('new')).toBe('0');
      expect(await count('changed')).toBe('1');
      const row = page.locator(`[data-testid="preview-row"][data-local-id="${synced.localId}"]`);
      expect(await row.getAttribute('data-status')).toBe('changed');
      await screenshot(page, `ui-reimport-by-name-${format}.png`);
      await page.getByTestId('apply-import').click();
      await page.getByTestId('apply-result').waitFor();
      await close();
      const after = await workspaceProbe(app).snapshot();
      expect(after.assets.length).toBe(before);
      expect(await workspaceProbe(app).valueAt(synced.localId, 'city')).toBe(
        `Matched by name (${format.toUpperCase()})`,
      );
      expect(ui!.pageErrors).toEqual([]);
    });
  }
});
