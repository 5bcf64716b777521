import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { applyImport, ImportError, lastImport, undoImport } from '../../../electron/workbook/apply-import';
import type { ImportPlan } from '../../../electron/workbook/import-plan';
import type { PlanRow } from '../../../electron/workbook/plan-row';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import type { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { readReference } from '../../../electron/workspace/reference-lists';
import { seededWorkspace, snapshot, tmpDir } from '../../../support/workbook-fixtures';

const stores: WorkspaceStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});
function workspace(synced = 4, local = 3): WorkspaceStore {
  const { store } = seededWorkspace(synced, local);
  stores.push(store);
  return store;
}

/** Column number (1-based) of a variable in a tab's hidden names row. */
function col(ws: ExcelJS.Worksheet, key: string): number {
  const values = ws.getRow(1).values as unknown[];
  const i = values.indexOf(key);
  if (i < 1) throw new Error(`no column ${key} on ${ws.name}`);
  return i;
}
function rowOf(ws: ExcelJS.Worksheet, id: number): ExcelJS.Row {
  for (let r = 3; r <= ws.rowCount; r++) if (ws.getRow(r).getCell(1).value === id) return ws.getRow(r);
  throw new Error(`no row for ${id} on ${ws.name}`);
}
const sheet = (wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet => {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no tab ${name}`);
  return ws;
};
const byName = (plan: ImportPlan, name: string): PlanRow | undefined =>
  plan.rows.find((r) => r.name === name);

describe('workbook round trip', () => {
  it('workspace -> XLSX -> import gives the same workspace (synced and unsent assets, all types)', async () => {
    const store = workspace();
    const file = join(tmpDir(), 'assets.xlsx');
    const exported = await exportWorkspace(store, file);
    expect(exported).toMatchObject({ assets: 7, years: [2023, 2024] });
    const plan = await previewImportFile(store, file);
    expect(plan.issues).toEqual([]);
    expect(plan.counts).toEqual({ new: 0, changed: 0, unchanged: 7, rejected: 0 });
    expect(plan.canApply).toBe(false);
    expect(() => applyImport(store, plan)).toThrow(/Nothing to import/);
  });

  it('workspace -> CSV -> import gives the same workspace', async () => {
    const store = workspace();
    const file = join(tmpDir(), 'assets.csv');
    await exportWorkspace(store, file);
    const plan = await previewImportFile(store, file);
    expect(plan.issues).toEqual([]);
    expect(plan.counts).toEqual({ new: 0, changed: 0, unchanged: 7, rejected: 0 });
  });

  it("names the id gresb_asset_id in the hidden row and the CSV header, as the service's own spreadsheet does; a file naming it service_asset_id imports the same", async () => {
    const store = workspace(2, 1);
    const xlsx = join(tmpDir(), 'ids.xlsx');
    await exportWorkspace(store, xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    for (const ws of wb.worksheets.filter((w) => w.name !== 'Lists')) {
      expect(ws.getRow(1).getCell(1).value).toBe('gresb_asset_id');
      expect(JSON.stringify(ws.getRow(1).values)).not.toContain('service_asset_id');
    }
    const csv = join(tmpDir(), 'ids.csv');
    await exportWorkspace(store, csv);
    const text = await readFile(csv, 'utf8');
    expect(
      text
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0]
        ?.split(',')[0],
    ).toBe('gresb_asset_id');
    // Files written before (our spec's name), edited: matched by id all the same.
    const older = join(tmpDir(), 'older.csv');
    await writeFile(
      older,
      text.replace('gresb_asset_id', 'service_asset_id').replace('Remote 0', 'Remote zero'),
    );
    const plan = await previewImportFile(store, older);
    expect(plan.issues).toEqual([]);
    expect(plan.counts).toEqual({ new: 0, changed: 1, unchanged: 2, rejected: 0 });
    const chars = sheet(wb, 'Asset Characteristics');
    chars.getRow(1).getCell(1).value = 'service_asset_id';
    rowOf(chars, 101).getCell(col(chars, 'city')).value = 'Haarlem';
    const olderBook = join(tmpDir(), 'older.xlsx');
    await wb.xlsx.writeFile(olderBook);
    const bookPlan = await previewImportFile(store, olderBook);
    expect(bookPlan.issues).toEqual([]);
    expect(bookPlan.counts).toMatchObject({ changed: 1, rejected: 0 });
  });

  it('writes typed cells, hidden names, frozen header, dropdowns, and formula-like text as text', async () => {
    const store = workspace(2, 1);
    const file = join(tmpDir(), 'typed.xlsx');
    await exportWorkspace(store, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const chars = sheet(wb, 'Asset Characteristics');
    expect(chars.getRow(1).hidden).toBe(true);
    expect(chars.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    const first = rowOf(chars, 101);
    expect(first.getCell(col(chars, 'ownership')).value).toBe(75.5);
    expect(first.getCell(col(chars, 'ownership_from')).value).toEqual(new Date('2019-04-01T00:00:00Z'));
    const evil = rowOf(chars, 102).getCell(col(chars, 'address'));
    expect(evil.type).toBe(ExcelJS.ValueType.String);
    expect(evil.value).toBe('=HYPERLINK("http://evil.example","click")');
    expect(evil.numFmt).toBe('@');
    const reporting = sheet(wb, 'Reporting Characteristics');
    const tenant = col(reporting, 'annual_data[2024].tenant_ctrl');
    expect(rowOf(reporting, 101).getCell(tenant).value).toBe(false);
    const dv = (
      reporting as unknown as { dataValidations: { model: Record<string, { formulae: string[] }> } }
    ).dataValidations.model;
    const letter = reporting.getColumn(tenant).letter;
    const tenantRule = Object.entries(dv).find(([ref]) => ref.startsWith(`${letter}3`));
    expect(tenantRule?.[1].formulae).toEqual(['"TRUE,FALSE"']);
    const status = reporting.getColumn(col(reporting, 'annual_data[2024].ncmr_status')).letter;
    expect(Object.keys(dv).some((ref) => ref.startsWith(`${status}3`))).toBe(true);
    expect(
      sheet(wb, 'Energy')
        .getRow(2)
        .getCell(col(sheet(wb, 'Energy'), 'annual_data[2024].en_abs_wf')).value,
    ).toBe('Energy consumption, whole building, fuel (kWh) 2024');
  });

  it("offers the service's lists with their labels: a Lists tab behind the property-type, country, certification and rating dropdowns", async () => {
    const store = workspace(2, 1);
    const shipped = readReference(undefined);
    store.saveReference('reference', {
      ...shipped,
      certifications: shipped.certifications.slice(0, 2),
      energyRatings: shipped.energyRatings.slice(0, 1),
      propertyTypes: [
        { value: 'HTL', label: 'Hotel' },
        { value: 'OCHI', label: 'Office: Corporate: High-Rise Office' },
      ],
      countries: [
        { value: 'NL', label: 'Netherlands' },
        { value: 'BE', label: 'Belgium' },
      ],
      sources: {
        certifications: 'service',
        energyRatings: 'service',
        propertyTypes: 'service',
        countries: 'service',
      },
    });
    const file = join(tmpDir(), 'lists.xlsx');
    await exportWorkspace(store, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const lists = sheet(wb, 'Lists');
    expect(lists.getRow(1).values).toEqual([undefined, 'asset_desk:lists']);
    expect(lists.getRow(1).hidden).toBe(true);
    const c0 = shipped.certifications[0]!;
    const c1 = shipped.certifications[1]!;
    const r0 = shipped.energyRatings[0]!;
    // Certifications and ratings by id beside their name: the dropdowns offer the names.
    expect(lists.getRow(3).values).toEqual([
      undefined,
      'HTL',
      'Hotel',
      undefined,
      'NL',
      'Netherlands',
      undefined,
      String(c0.id),
      c0.name,
      undefined,
      String(r0.id),
      r0.name,
    ]);
    expect(lists.getRow(4).values).toEqual([
      undefined,
      'OCHI',
      'Office: Corporate: High-Rise Office',
      undefined,
      'BE',
      'Belgium',
      undefined,
      String(c1.id),
      c1.name,
    ]);
    const chars = sheet(wb, 'Asset Characteristics');
    const dv = (chars as unknown as { dataValidations: { model: Record<string, { formulae: string[] }> } })
      .dataValidations.model;
    const rule = (field: string) =>
      Object.entries(dv).find(([ref]) =>
        ref.startsWith(`${chars.getColumn(col(chars, field)).letter}3`),
      )?.[1];
    expect(rule('property_type_code')?.formulae).toEqual(['Lists!$A$3:$A$4']);
    expect(rule('country')?.formulae).toEqual(['Lists!$D$3:$D$4']);
    const ruleOn = (tab: string, key: string) => {
      const ws = sheet(wb, tab);
      const model = (ws as unknown as { dataValidations: { model: Record<string, { formulae: string[] }> } })
        .dataValidations.model;
      return Object.entries(model).find(([ref]) =>
        ref.startsWith(`${ws.getColumn(col(ws, key)).letter}3`),
      )?.[1];
    };
    expect(ruleOn('Building Certifications', 'certifications[0].certification_id')?.formulae).toEqual([
      'Lists!$H$3:$H$4',
    ]);
    expect(ruleOn('Energy Ratings', 'energy_ratings[0].energy_rating_id')?.formulae).toEqual([
      'Lists!$K$3:$K$3',
    ]);
    // The Lists tab is reference data: an import of the same file reads it as nothing to report.
    const plan = await previewImportFile(store, file);
    expect(plan.issues).toEqual([]);
  });
});

describe('certification and rating schemes by name', () => {
  it('are written by name, read back to their id (an id still accepted), and an unknown name is a problem of its cell', async () => {
    const store = workspace();
    const schemes = readReference(undefined).certifications;
    const name = (id: number) => schemes.find((s) => s.id === id)!.name;
    const dir = tmpDir();
    const file = join(dir, 'schemes.xlsx');
    await exportWorkspace(store, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const certs = sheet(wb, 'Building Certifications');
    const scheme = col(certs, 'certifications[0].certification_id');
    // The fixture's synced assets hold scheme 3: the cell reads its name, not "3".
    expect(rowOf(certs, 101).getCell(scheme).value).toBe(name(3));

    const other = schemes.find((s) => s.id !== 3 && !/^\d+$/.test(s.name))!;
    const third = schemes.find((s) => s.id !== 3 && s.id !== other.id)!;
    // Another scheme by name (in other case), one by id as an older export wrote it, one unknown.
    rowOf(certs, 101).getCell(scheme).value = `  ${other.name.toUpperCase()} `;
    rowOf(certs, 102).getCell(scheme).value = third.id;
    rowOf(certs, 103).getCell(scheme).value = 'No Such Scheme';
    const edited = join(dir, 'schemes-edited.xlsx');
    await wb.xlsx.writeFile(edited);

    const plan = await previewImportFile(store, edited);
    expect(plan.issues).toEqual([]);
    const rowOfAsset = (id: number) => plan.rows.find((r) => r.serviceAssetId === id)!;
    expect(rowOfAsset(101).changes).toEqual([
      expect.objectContaining({ path: 'certifications/id:300/certification_id', before: 3, after: other.id }),
    ]);
    expect(rowOfAsset(102).changes).toEqual([
      expect.objectContaining({ path: 'certifications/id:301/certification_id', before: 3, after: third.id }),
    ]);
    const rejected = rowOfAsset(103);
    expect(rejected.status).toBe('rejected');
    const letter = certs.getColumn(scheme).letter;
    expect(rejected.errors).toEqual([
      expect.objectContaining({
        sheet: 'Building Certifications',
        cell: `${letter}${rowOf(certs, 103).number}`,
        value: 'No Such Scheme',
        reason: expect.stringContaining('"No Such Scheme" is not a certification scheme'),
      }),
    ]);
  });
});

describe('a workbook edited in place', () => {
  it('imports to exactly the expected changes; applied as one change and undone as one', async () => {
    const store = workspace();
    const dir = tmpDir();
    const original = join(dir, 'original.xlsx');
    await exportWorkspace(store, original);
    const before = snapshot(store);
    const journal = store.journalLength();

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(original);
    const chars = sheet(wb, 'Asset Characteristics');
    const energy = sheet(wb, 'Energy');
    const reporting = sheet(wb, 'Reporting Characteristics');
    // A changed value on a topic tab and one on the characteristics tab.
    rowOf(energy, 101).getCell(col(energy, 'annual_data[2024].en_abs_wf')).value = 99_999;
    rowOf(chars, 102).getCell(col(chars, 'city')).value = 'Rotterdam';
    // A column moved: swap two Energy columns wholesale (names, labels, values).
    const a = col(energy, 'annual_data[2023].en_abs_wd');
    const b = col(energy, 'annual_data[2024].en_tot_we');
    for (let r = 1; r <= energy.rowCount; r++) {
      const row = energy.getRow(r);
      const x = row.getCell(a).value;
      row.getCell(a).value = row.getCell(b).value;
      row.getCell(b).value = x;
    }
    // A new asset, typed by hand: text numbers with thousands separators, text and serial dates, a formula.
    const added = chars.addRow([]);
    added.getCell(col(chars, 'name')).value = 'Brand New';
    added.getCell(col(chars, 'country')).value = 'BE';
    added.getCell(col(chars, 'state_province')).value = 'Brussels';
    added.getCell(col(chars, 'city')).value = 'Brussels';
    added.getCell(col(chars, 'ownership')).value = '100';
    added.getCell(col(chars, 'size')).value = '12,345.5';
    added.getCell(col(chars, 'ownership_from')).value = '2021-02-03';
    const addedEnergy = energy.addRow([]);
    addedEnergy.getCell(col(energy, 'name')).value = 'Brand New';
    addedEnergy.getCell(col(energy, 'annual_data[2024].en_abs_wf')).value = {
      formula: '2121*2',
      result: 4242,
    };
    const addedReporting = reporting.addRow([]);
    addedReporting.getCell(col(reporting, 'name')).value = 'Brand New';
    addedReporting.getCell(col(reporting, 'annual_data[2024].ncmr_from')).value = 45_352; // 2024-03-01
    addedReporting.getCell(col(reporting, 'annual_data[2024].ncmr_to')).value = '31.12.2024';
    addedReporting.getCell(col(reporting, 'annual_data[2024].tenant_ctrl')).value = 'yes';
    const edited = join(dir, 'edited.xlsx');
    await wb.xlsx.writeFile(edited);

    const plan = await previewImportFile(store, edited);
    expect(plan.issues).toEqual([]);
    expect(plan.counts).toEqual({ new: 1, changed: 2, unchanged: 5, rejected: 0 });
    expect(byName(plan, 'Remote 0')?.changes).toEqual([
      {
        path: 'annual_data/2024/en_abs_wf',
        before: 50_000,
        after: 99_999,
        cell: expect.stringMatching(/^Energy!/),
      },
    ]);
    expect(byName(plan, 'Remote 1')?.changes.map((c) => [c.path, c.before, c.after])).toEqual([
      ['city', 'Amsterdam', 'Rotterdam'],
    ]);
    const fresh = byName(plan, 'Brand New');
    expect(fresh?.status).toBe('new');
    expect(fresh?.doc).toMatchObject({
      name: 'Brand New',
      ownership: 100,
      size: 12_345.5,
      ownership_from: '2021-02-03',
      annual_data: [
        { year: 2024, en_abs_wf: 4242, ncmr_from: '2024-03-01', ncmr_to: '2024-12-31', tenant_ctrl: true },
      ],
    });
    expect(store.journalLength()).toBe(journal); // a preview changes nothing

    const applied = applyImport(store, plan);
    expect(applied.created).toHaveLength(1);
    expect(applied.updated).toHaveLength(2);
    expect(
      store.assetByServiceId(101)?.current?.annual_data?.find((e) => e.year === 2024)?.['en_abs_wf'],
    ).toBe(99_999);
    expect(lastImport(store)).toMatchObject({ importId: plan.id, created: 1, updated: 2 });
    // Importing the same file again finds nothing more to do.
    expect((await previewImportFile(store, edited)).counts).toEqual({
      new: 0,
      changed: 0,
      unchanged: 8,
      rejected: 0,
    });

    // The import is one step of the workspace's history too: Ctrl+Z takes all of it back at once.
    const afterImport = snapshot(store);
    expect(store.historyState().undo).toBe('import of 3 assets from edited.xlsx');
    expect(store.undo()?.label).toBe('import of 3 assets from edited.xlsx');
    expect(snapshot(store)).toEqual(before);
    store.redo();
    expect(snapshot(store)).toEqual(afterImport);

    expect(undoImport(store, plan.id)).toEqual({ removed: 1, restored: 2 });
    expect(snapshot(store)).toEqual(before);
    expect(lastImport(store)).toBeUndefined();
    expect(() => undoImport(store)).toThrow(ImportError);
  });

  it('refuses to apply a stale preview and to undo over later edits', async () => {
    const store = workspace(2, 0);
    const dir = tmpDir();
    const file = join(dir, 'a.xlsx');
    await exportWorkspace(store, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const chars = sheet(wb, 'Asset Characteristics');
    rowOf(chars, 101).getCell(col(chars, 'city')).value = 'Utrecht';
    await wb.xlsx.writeFile(file);

    const plan = await previewImportFile(store, file);
    const id = store.assetByServiceId(101)?.localId ?? '';
    store.setValue(id, 'address', 'moved');
    expect(() => applyImport(store, plan)).toThrow(expect.objectContaining({ kind: 'stale' }));

    const again = await previewImportFile(store, file);
    applyImport(store, again);
    store.setValue(id, 'address', 'edited after the import');
    const held = snapshot(store);
    expect(() => undoImport(store)).toThrow(expect.objectContaining({ kind: 'undo_conflict' }));
    expect(snapshot(store)).toEqual(held);
  });
});
