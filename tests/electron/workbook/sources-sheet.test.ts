/**
 * The workbook's Sources tab (issue 31, item 4) over a real workspace file and a real book: a
 * pulled asset, one typed here, an imported value and a formula-like text; the tab lists the cells
 * not from the analyst's hand or with a history, in the history panel's words; it is off unless
 * asked for; a formula-like value stays text; and the book imports back unchanged.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import { dayInWords } from '../../../shared/history/source-words';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { applyImport } from '../../../electron/workbook/apply-import';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import { ZipParts } from '../../../electron/workbook/zip-parts';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';

const pulled = (id: number): Asset =>
  ({
    ...(newAsset(id) as unknown as Asset),
    service_asset_id: id,
    partners_id: 555_000_000 + id,
    city: 'Amsterdam',
    certifications: [],
    _outliers: [],
    updated_at: '2026-03-03T10:00:00Z',
  }) as Asset;

async function sourcesRows(book: string): Promise<string[][] | undefined> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(book);
  const sheet = wb.getWorksheet('Sources');
  if (!sheet) return undefined;
  const rows: string[][] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? '')));
  });
  return rows;
}

describe('the Sources tab', () => {
  it('lists each value not typed here, in the history words; off by default; formula-like text stays text', async () => {
    const { store } = tempWorkspace('sources-tab');
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-sources-'));
    store.transaction(() => new RemoteMerge(store).applyRemote(pulled(901)));
    const mine = store.step('add', () => store.createAsset({ ...newAsset(2), name: 'Mine' })).localId;
    store.step('edit', () => store.setValues([{ localId: mine, path: 'city', value: '=HYPERLINK("x")' }]));
    // An imported value: the pulled asset's city changed in the book.
    const first = join(dir, 'assets-2025.xlsx');
    await exportWorkspace(store, first);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(first);
    const characteristics = wb.getWorksheet('Asset Characteristics')!;
    const column = (characteristics.getRow(1).values as unknown[]).indexOf('city');
    let row = 0;
    for (let r = 3; r <= characteristics.rowCount; r++)
      if (characteristics.getRow(r).getCell(1).value === 901) row = r;
    characteristics.getRow(row).getCell(column).value = 'Delft';
    await wb.xlsx.writeFile(first);
    applyImport(store, await previewImportFile(store, first));
    const place = `Asset Characteristics!${characteristics.getColumn(column).letter}${row}`;

    // Off by default.
    expect(await sourcesRows(first)).toBeUndefined();
    const book = join(dir, 'with-sources.xlsx');
    await exportWorkspace(store, book, { sourcesTab: true });
    const rows = (await sourcesRows(book))!;
    expect(rows[0]).toEqual(['Partner ID', 'Asset', 'Tab', 'Field', 'Path', 'Value', 'Source', 'Time (UTC)']);
    const of = (name: string, path: string) => rows.find((r) => r[1] === name && r[4] === path);
    const name = String(pulled(901).name);
    expect(of(name, 'city')?.slice(0, 7)).toEqual([
      String(555_000_901),
      name,
      'Asset Characteristics',
      'City',
      'city',
      'Delft',
      `from assets-2025.xlsx, ${place}`,
    ]);
    expect(of(name, 'country')?.[6]).toBe(`from the service, updated ${dayInWords('2026-03-03')}`);
    expect(of(name, 'annual_data/2024/en_abs_wf')?.[2]).toBe('Energy');
    // Mine: only the cell with a history (typed over its first value), not the others typed with it.
    expect(rows.filter((r) => r[1] === 'Mine').map((r) => [r[4], r[5], r[6]])).toEqual([
      ['city', '=HYPERLINK("x")', 'typed'],
    ]);
    expect(of('Mine', 'city')?.[7]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Text that looks like a formula is written as text, never a formula.
    const zip = await ZipParts.open(book, 100_000_000);
    try {
      let xml = '';
      for (let n = 1; zip.has(`xl/worksheets/sheet${n}.xml`); n++) {
        const text = (await zip.text(`xl/worksheets/sheet${n}.xml`)) ?? '';
        if (text.includes('asset_desk:sources')) xml = text;
      }
      expect(xml).toContain('=HYPERLINK(&quot;x&quot;)');
      expect(xml).not.toContain('<f>');
    } finally {
      zip.close();
    }

    // Our reader skips the tab: the book imports back unchanged, with no word about it.
    const again = await previewImportFile(store, book);
    expect(again.counts).toEqual({ new: 0, changed: 0, unchanged: 2, rejected: 0 });
    expect(again.issues.filter((i) => /Sources/.test(i.sheet) || /Sources/.test(i.reason))).toEqual([]);
    expect(again.source.sheets).not.toContain('Sources');
    store.close();
  });
});
