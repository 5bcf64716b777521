/**
 * An import's record (issue 31: "jump to the import"), over a real workspace file: a workbook
 * exported, edited as an analyst would in Excel and imported; a readings CSV imported through the
 * meters' service. Each is recorded once, its cells' history entries name the record, and the
 * record shows what was applied, with the entry's cell highlighted, after a restart too.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { historyService } from '../../../electron/history/history-service';
import { applyImport, undoImport } from '../../../electron/workbook/apply-import';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { bridgeMethods } from '../../../shared/bridge/contract';
import { importCellsWindow } from '../../../shared/history/import-record';
import { sourceInWords } from '../../../shared/history/source-words';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { tempWorkspace } from '../../../support/sync-harness';
import { metersRig, towerDoc } from '../../support/meters-rig';

const tower = (name: string, en: number): AssetDoc => towerDoc([{ year: 2024, en_abs_wf: en }], name);

/** The workbook exported, `change` applied to its Energy tab's `en_abs_wf` cells, written back. */
async function editedBook(store: WorkspaceStore, dir: string, values: Map<string, number>) {
  const book = join(dir, 'assets-2025.xlsx');
  await exportWorkspace(store, book);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(book);
  const energy = wb.getWorksheet('Energy');
  if (!energy) throw new Error('no Energy tab');
  const header = energy.getRow(1).values as unknown[];
  const column = header.indexOf('annual_data[2024].en_abs_wf');
  const nameColumn = header.findIndex((v) => typeof v === 'string' && v === 'name');
  const cells = new Map<string, string>();
  for (let r = 3; r <= energy.rowCount; r++) {
    const name = energy.getRow(r).getCell(nameColumn).value;
    const value = typeof name === 'string' ? values.get(name) : undefined;
    if (value === undefined) continue;
    energy.getRow(r).getCell(column).value = value;
    cells.set(String(name), `Energy!${energy.getColumn(column).letter}${r}`);
  }
  await wb.xlsx.writeFile(book);
  return { book, cells };
}

describe("an import's record", () => {
  it('a workbook import: recorded once, named by its entries, shown with the cell highlighted', async () => {
    const { store, file } = tempWorkspace('import-records');
    const names = ['Tower', 'Mill', 'Dock'];
    const ids = names.map(
      (name, i) => store.step('add', () => store.createAsset(tower(name, 10 + i))).localId,
    );
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-import-records-'));
    const first = await editedBook(
      store,
      dir,
      new Map([
        ['Tower', 100],
        ['Dock', 300],
      ]),
    );
    applyImport(store, await previewImportFile(store, first.book));
    // The same file name again, another import: its own record, its own source.
    const second = await editedBook(store, dir, new Map([['Mill', 222]]));
    applyImport(store, await previewImportFile(store, second.book));

    const history = historyService({ store: () => store }).handlers;
    const path = 'annual_data/2024/en_abs_wf';
    const [dockEntry] = await history['workspace.cellHistory']({ localId: ids[2]!, path });
    if (dockEntry?.source.kind !== 'workbook') throw new Error('no workbook entry');
    expect(sourceInWords(dockEntry.source)).toBe(`from assets-2025.xlsx, ${first.cells.get('Dock')}`);
    const importId = dockEntry.source.import;
    expect(importId).toBeTypeOf('number');
    const [millEntry] = await history['workspace.cellHistory']({ localId: ids[1]!, path });
    if (millEntry?.source.kind !== 'workbook') throw new Error('no workbook entry');
    expect(millEntry.source.import).not.toBe(importId);

    const recent = await history['workspace.recentImports']({});
    expect(recent.map((r) => [r.file, r.kind, r.updated, r.cells, r.step])).toEqual([
      ['assets-2025.xlsx', 'workbook', 1, 1, 'done'],
      ['assets-2025.xlsx', 'workbook', 2, 2, 'done'],
    ]);
    expect(recent[1]?.label).toBe('import of 2 assets from assets-2025.xlsx');
    expect(recent[1]?.sheets).toContain('Energy');

    const detail = await history['workspace.importRecord']({ importId: importId!, localId: ids[2]!, path });
    expect(detail.changes).toBe(2);
    expect(detail.rows.map((r) => [r.asset, r.place, r.value, r.previous])).toEqual([
      ['Tower', first.cells.get('Tower'), 100, 10],
      ['Dock', first.cells.get('Dock'), 300, 12],
    ]);
    expect(detail.highlighted).toBe(1);
    expect(detail.rows[1]?.field).toMatch(/energy/i);
    // Without a cell: from the start, nothing highlighted.
    expect((await history['workspace.importRecord']({ importId: importId! })).highlighted).toBeNull();

    // Undone by Ctrl+Z, or by the Import card's "Undo import": the record says so.
    store.undo();
    expect((await history['workspace.recentImports']({})).map((r) => r.step)).toEqual(['undone', 'done']);
    store.redo();
    undoImport(store);
    expect((await history['workspace.recentImports']({})).map((r) => r.step)).toEqual(['undone', 'done']);
    store.close();
    const reopened = WorkspaceStore.open(file);
    const again = historyService({ store: () => reopened }).handlers;
    const kept = await again['workspace.importRecord']({ importId: importId!, localId: ids[0]!, path });
    expect(kept.highlighted).toBe(0);
    expect(kept.file).toBe('assets-2025.xlsx');
    expect(() => again['workspace.importRecord']({ importId: 999 })).toThrow(/not recorded/);
    reopened.close();
  });

  it('a readings import: its meters, readings and the asset it created, recorded with their file', async () => {
    const {
      store,
      service: meters,
      pick,
    } = metersRig({
      workspace: 'import-records-readings',
      annual: [{ year: 2024, en_abs_wf: 1 }],
    });
    const text = [
      'Meter ID,Meter Name,Asset Name,Utility,Space,Area Served,Start Date,End Date,Quantity,Unit,Estimated',
      'E1,Main electricity,Tower,Electricity,Whole building,800,2024-01-01,2024-06-30,1000,kWh,A',
      'E1,Main electricity,Tower,Electricity,Whole building,800,2024-07-01,2024-12-31,1200,kWh,A',
      'E1,Main electricity,Tower,Electricity,Whole building,800,2024-07-01,2024-12-31,1200,kWh,A',
      'Z1,Gas,Nowhere,Fuels,Whole building,800,2024-01-01,2024-12-31,5,kWh,A',
    ].join('\r\n');
    const fileId = pick('readings.csv', text);
    const preview = await meters.handlers['meters.previewImport']({ fileId });
    await meters.handlers['meters.applyImport']({ planId: preview.planId, createAssets: true });

    const history = historyService({ store: () => store }).handlers;
    const [record] = await history['workspace.recentImports']({});
    expect(record).toMatchObject({
      file: 'readings.csv',
      kind: 'readings',
      created: 2,
      cells: 3,
      skipped: 1,
    });
    const nowhere = store.listAssets().find((a) => a.current?.name === 'Nowhere');
    if (!nowhere) throw new Error('the import did not create the asset');
    const [named] = await history['workspace.cellHistory']({ localId: nowhere.localId, path: 'name' });
    expect(named?.source).toEqual({ kind: 'csv', file: 'readings.csv', import: record!.importId });
    const detail = await history['workspace.importRecord']({ importId: record!.importId });
    expect(detail.added).toEqual({ asset: 1, meter: 2, reading: 3 });
    store.close();
  });

  it('pages through the cells of a big import, a window at a time, the asked cell highlighted in its page', async () => {
    const { store } = tempWorkspace('import-records-pages');
    const { localId } = store.step('add', () => store.createAsset(tower('Tower', 1)));
    const years = Array.from({ length: 450 }, (_, i) => 1600 + i);
    const recordId = store.step('import', () => {
      const { id, source } = store.imports.begin('workbook', 'big.xlsx');
      store.setValues(
        years.map((year, i) => ({ localId, path: `annual_data/${year}/en_abs_wf`, value: i })),
        source,
      );
      store.imports.finish(id, source, {
        kind: 'workbook',
        sheets: ['Energy'],
        created: 0,
        updated: 1,
        cells: years.length,
        skipped: 0,
        skippedWhat: 'assets rejected',
        label: 'import of 1 asset from big.xlsx',
      });
      return id;
    });
    const history = historyService({ store: () => store }).handlers;
    const page = (offset?: number, cell?: number) =>
      history['workspace.importRecord']({
        importId: recordId,
        ...(offset === undefined ? {} : { offset }),
        ...(cell === undefined ? {} : { localId, path: `annual_data/${years[cell]}/en_abs_wf` }),
      });
    const first = await page();
    expect([first.changes, first.offset, first.rows.length]).toEqual([450, 0, importCellsWindow]);
    const values: unknown[] = [];
    for (let offset = 0; offset < first.changes; offset += importCellsWindow)
      values.push(...(await page(offset)).rows.map((row) => row.value));
    // Every cell once, in the import's order.
    expect(values).toEqual(years.map((_, i) => i));
    // Past the end: the last cell.
    expect(await page(10_000)).toMatchObject({ offset: 449, rows: [{ value: 449 }] });
    // Around a cell: it is in its window, highlighted; a page without it highlights nothing.
    const around = await page(undefined, 300);
    expect(around.offset).toBe(280);
    expect(around.rows[around.highlighted!]?.value).toBe(300);
    expect((await page(200, 300)).highlighted).toBe(100);
    expect((await page(0, 300)).highlighted).toBeNull();
    // The bridge takes a whole offset from 0 only.
    const args = bridgeMethods['workspace.importRecord'].args;
    expect(args.safeParse({ importId: recordId, offset: 200 }).success).toBe(true);
    expect(args.safeParse({ importId: recordId, offset: -1 }).success).toBe(false);
    expect(args.safeParse({ importId: recordId, offset: 1.5 }).success).toBe(false);
    store.close();
  });
});
