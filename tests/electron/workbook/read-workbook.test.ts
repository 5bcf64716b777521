import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { applyImport } from '../../../electron/workbook/apply-import';
import { WorkbookError } from '../../../electron/workbook/read-workbook';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import type { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { seededWorkspace, snapshot, tmpDir } from '../../../support/workbook-fixtures';

const stores: WorkspaceStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});
function workspace(synced = 3, local = 1): WorkspaceStore {
  const { store } = seededWorkspace(synced, local);
  stores.push(store);
  return store;
}

function col(ws: ExcelJS.Worksheet, key: string): number {
  const i = (ws.getRow(1).values as unknown[]).indexOf(key);
  if (i < 1) throw new Error(`no column ${key}`);
  return i;
}
function rowOf(ws: ExcelJS.Worksheet, id: number): ExcelJS.Row {
  for (let r = 3; r <= ws.rowCount; r++) if (ws.getRow(r).getCell(1).value === id) return ws.getRow(r);
  throw new Error(`no row ${id}`);
}

/** Exports the workspace, lets `edit` change the workbook, and saves it; returns the file. */
async function edited(store: WorkspaceStore, edit: (wb: ExcelJS.Workbook) => void): Promise<string> {
  const dir = tmpDir();
  const file = join(dir, 'edited.xlsx');
  await exportWorkspace(store, join(dir, 'original.xlsx'));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(dir, 'original.xlsx'));
  edit(wb);
  await wb.xlsx.writeFile(file);
  return file;
}
const tab = (wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet =>
  wb.getWorksheet(name) as ExcelJS.Worksheet;

/** Every bad input must leave the workspace exactly as it was. */
async function expectUntouched(store: WorkspaceStore, attempt: () => Promise<unknown>): Promise<void> {
  const before = snapshot(store);
  const journal = store.journalLength();
  await attempt();
  expect(snapshot(store)).toEqual(before);
  expect(store.journalLength()).toBe(journal);
}

async function refusal(promise: Promise<unknown>): Promise<WorkbookError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkbookError);
  return error as WorkbookError;
}

describe('files that cannot be imported', () => {
  it('a non-XLSX file named .xlsx', async () => {
    const store = workspace();
    const file = join(tmpDir(), 'notes.xlsx');
    writeFileSync(file, 'name,city\nFoo,Bar\n');
    await expectUntouched(store, async () => {
      const e = await refusal(previewImportFile(store, file));
      expect(e.kind).toBe('not_xlsx');
      expect(e.message).toMatch(/neither an Excel workbook/);
    });
  });

  it('a truncated workbook', async () => {
    const store = workspace();
    const dir = tmpDir();
    const whole = join(dir, 'whole.xlsx');
    await exportWorkspace(store, whole);
    const bytes = readFileSync(whole);
    const cut = join(dir, 'cut.xlsx');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectUntouched(store, async () => {
      const e = await refusal(previewImportFile(store, cut));
      expect(e.kind).toBe('truncated');
      expect(e.message).toMatch(/incomplete/);
    });
  });

  it('a 50 MB workbook is refused by its size, before parsing', async () => {
    const store = workspace();
    const file = join(tmpDir(), 'huge.xlsx');
    const chunk = randomBytes(1024 * 1024);
    chunk.writeUInt32LE(0x04034b50, 0);
    writeFileSync(file, Buffer.concat(Array.from({ length: 50 }, () => chunk)));
    await expectUntouched(store, async () => {
      const started = Date.now();
      const e = await refusal(previewImportFile(store, file));
      expect(e.kind).toBe('too_large');
      expect(e.message).toMatch(/50\.0 MB.*40\.0 MB/);
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });

  it('a real, moderately large workbook streams through, and the size setting applies to it too', async () => {
    const store = workspace(400, 0);
    const file = join(tmpDir(), 'large.xlsx');
    await exportWorkspace(store, file);
    const size = statSync(file).size;
    const plan = await previewImportFile(store, file);
    expect(plan.counts.unchanged).toBe(400);
    await expectUntouched(store, async () => {
      const e = await refusal(previewImportFile(store, file, { maxBytes: size - 1 }));
      expect(e.kind).toBe('too_large');
    });
  });

  it('a ZIP that is not a workbook', async () => {
    const store = workspace();
    const file = join(tmpDir(), 'other.xlsx');
    // A valid, empty ZIP archive: just the end-of-central-directory record, after a stub entry.
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['just', 'notes']);
    await wb.xlsx.writeFile(file);
    await expectUntouched(store, async () => {
      const e = await refusal(previewImportFile(store, file));
      expect(e.kind).toBe('empty');
    });
  });
});

describe('rows and columns that are rejected', () => {
  it('wrong types in cells: each cell rejected with its reason; the apply refuses', async () => {
    const store = workspace();
    const file = await edited(store, (wb) => {
      const energy = tab(wb, 'Energy');
      rowOf(energy, 101).getCell(col(energy, 'annual_data[2024].en_abs_wf')).value = 'abc';
      rowOf(energy, 102).getCell(col(energy, 'annual_data[2024].en_abs_we')).value = '1.234,5';
      const reporting = tab(wb, 'Reporting Characteristics');
      rowOf(reporting, 101).getCell(col(reporting, 'annual_data[2024].tenant_ctrl')).value = 'maybe';
      rowOf(reporting, 102).getCell(col(reporting, 'annual_data[2024].ncmr_from')).value = '03/04/2024';
      rowOf(reporting, 103).getCell(col(reporting, 'annual_data[2024].ncmr_status')).value = 'Demolished';
      const chars = tab(wb, 'Asset Characteristics');
      rowOf(chars, 103).getCell(col(chars, 'construction_year')).value = 1999.5;
    });
    const plan = await previewImportFile(store, file);
    expect(plan.counts).toMatchObject({ rejected: 3, changed: 0 });
    expect(plan.canApply).toBe(false);
    const reasons = plan.rows.flatMap((r) =>
      r.errors.map((e) => `${e.sheet}!${e.cell} ${e.key}: ${e.reason}`),
    );
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Energy!\w+\d+ annual_data\[2024\]\.en_abs_wf: "abc" is not a number$/),
        expect.stringMatching(/en_abs_we: "1\.234,5" is ambiguous/),
        expect.stringMatching(/tenant_ctrl: "maybe" is not TRUE or FALSE/),
        expect.stringMatching(/ncmr_from: "03\/04\/2024" is ambiguous/),
        expect.stringMatching(/ncmr_status: "Demolished" is not one of Standing Investment/),
        expect.stringMatching(/construction_year: 1999\.5 is not a whole number/),
      ]),
    );
    await expectUntouched(store, async () => {
      expect(() => applyImport(store, plan)).toThrow(/Nothing was imported: 3 assets were rejected/);
    });
  });

  it('unknown columns are reported and block the import', async () => {
    const store = workspace();
    const file = await edited(store, (wb) => {
      const energy = tab(wb, 'Energy');
      const c = energy.columnCount + 1;
      energy.getRow(1).getCell(c).value = 'en_abs_moonshine';
      energy.getRow(2).getCell(c).value = 'Moonshine';
      energy.getRow(3).getCell(c).value = 5;
      const chars = tab(wb, 'Asset Characteristics');
      const d = chars.columnCount + 1;
      chars.getRow(2).getCell(d).value = 'My notes';
      rowOf(chars, 101).getCell(col(chars, 'city')).value = 'Delft';
    });
    const plan = await previewImportFile(store, file);
    expect(plan.issues.map((i) => `${i.sheet}: ${i.reason}`)).toEqual([
      expect.stringMatching(/^Asset Characteristics: Unknown column "My notes"/),
      expect.stringMatching(/^Energy: Unknown column "en_abs_moonshine" \("Moonshine"\)/),
    ]);
    expect(plan.counts.changed).toBe(1);
    expect(plan.canApply).toBe(false);
    await expectUntouched(store, async () => {
      expect(() => applyImport(store, plan)).toThrow(/2 column problems/);
    });
  });

  it('duplicate ids and ids of another entity are rejected', async () => {
    const store = workspace();
    const file = await edited(store, (wb) => {
      const chars = tab(wb, 'Asset Characteristics');
      chars.addRow(rowOf(chars, 102).values as ExcelJS.CellValue[]);
      rowOf(chars, 103).getCell(1).value = 987_654;
    });
    const plan = await previewImportFile(store, file);
    const rejected = plan.rows.filter((r) => r.status === 'rejected');
    expect(rejected.map((r) => r.serviceAssetId).sort()).toEqual([102, 987_654]);
    expect(rejected.find((r) => r.serviceAssetId === 102)?.errors[0]?.reason).toMatch(
      /Asset ID 102 appears twice on Asset Characteristics \(rows \d+ and \d+\)/,
    );
    expect(rejected.find((r) => r.serviceAssetId === 987_654)?.errors[0]?.reason).toMatch(
      /Asset ID 987654 is not in this workspace: it belongs to another entity/,
    );
    await expectUntouched(store, async () => {
      expect(() => applyImport(store, plan)).toThrow(/rejected/);
    });
  });

  it('with `partial`, the valid rows are applied and the rejected ones left out', async () => {
    const store = workspace();
    const file = await edited(store, (wb) => {
      const chars = tab(wb, 'Asset Characteristics');
      rowOf(chars, 101).getCell(col(chars, 'city')).value = 'Leiden';
      rowOf(chars, 102).getCell(col(chars, 'ownership')).value = 'lots';
    });
    const plan = await previewImportFile(store, file);
    const applied = applyImport(store, plan, { partial: true });
    expect(applied).toMatchObject({ updated: [expect.any(String)], skipped: 1 });
    expect(store.assetByServiceId(101)?.current?.city).toBe('Leiden');
    expect(store.assetByServiceId(102)?.current?.ownership).toBe(75.5);
  });

  it('a formula without a cached value and an error cell are rejected, not evaluated', async () => {
    const store = workspace();
    const file = await edited(store, (wb) => {
      const energy = tab(wb, 'Energy');
      rowOf(energy, 101).getCell(col(energy, 'annual_data[2024].en_abs_wf')).value = {
        formula: 'A1*2',
      } as ExcelJS.CellValue;
      rowOf(energy, 102).getCell(col(energy, 'annual_data[2024].en_abs_wf')).value = { error: '#DIV/0!' };
    });
    const plan = await previewImportFile(store, file);
    const reasons = plan.rows.flatMap((r) => r.errors.map((e) => e.reason));
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/formula without a saved result/),
        expect.stringMatching(/#DIV\/0!/),
      ]),
    );
  });
});

describe('CSV', () => {
  it('reads semicolon CSV with labels only, thousands separators and apostrophe-protected text', async () => {
    const store = workspace(1, 0);
    const file = join(tmpDir(), 'hand.csv');
    writeFileSync(
      file,
      [
        'Asset ID;Asset name;City;Floor area (m²);Energy consumption, whole building, fuel (kWh) 2024;Owned for the entire period 2024',
        `101;Remote 0;'=Gouda;"1,250";"60,000.5";no`,
        `;New One;Delft;900;;TRUE`,
      ].join('\r\n'),
    );
    const plan = await previewImportFile(store, file);
    expect(plan.issues).toEqual([]);
    const changed = plan.rows.find((r) => r.serviceAssetId === 101);
    expect(changed?.changes.map((c) => [c.path, c.after])).toEqual([
      ['annual_data/2024/en_abs_wf', 60_000.5],
      ['annual_data/2024/owned_entire_period', false],
      ['city', '=Gouda'],
      ['size', 1250],
    ]);
    expect(plan.rows.find((r) => r.status === 'new')?.doc).toMatchObject({
      name: 'New One',
      city: 'Delft',
      size: 900,
      annual_data: [{ year: 2024, owned_entire_period: true }],
    });
  });

  it('writes formula-like text with a protecting apostrophe', async () => {
    const store = workspace(2, 1);
    const file = join(tmpDir(), 'out.csv');
    await exportWorkspace(store, file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).toContain(`'+SUM(A1:A9)`);
    expect(text).not.toMatch(/,=HYPERLINK/);
  });
});
