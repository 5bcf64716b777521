/**
 * One cell's life through every way a value arrives, over real SQLite and HTTP to the sandbox: a
 * pull brings it, the analyst types and pastes, a workbook import changes it, a pull brings
 * another analyst's value, undo takes the import back; then its history, after a restart too.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport } from '../../../electron/workbook/apply-import';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { exportAuditLog, historyService } from '../../../electron/history/history-service';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import { syncResponses } from '../../../electron/responses/responses-sync';
import { seedResponses } from '../../../sandbox/seed-responses';
import { dayInWords, sourceInWords } from '../../../shared/history/source-words';
import { assessmentYear, startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { readFile } from 'node:fs/promises';

describe("a cell's history", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    seedResponses(h.server.store, h.entityId, assessmentYear);
  });
  afterAll(() => h?.close());

  it('typed → paste → workbook import → pull → undo, newest first with each source, kept across a restart', async () => {
    const year = assessmentYear - 1;
    const path = `annual_data/${year}/en_abs_wf`;
    // Another analyst makes the asset; mine arrives by a pull.
    const theirs = tempWorkspace('theirs').store;
    const them = makeEngine(theirs, makeClient(h.baseUrl, h.token), h.entityId).engine;
    const made = theirs.createAsset(newAsset(Math.floor(Math.random() * 1e6), 1));
    await them.sync();
    const { store: mine, file } = tempWorkspace('mine');
    const me = makeEngine(mine, makeClient(h.baseUrl, h.token), h.entityId).engine;
    await me.pull();
    const serviceId = theirs.asset(made.localId)?.serviceAssetId;
    const localId = mine.listAssets().find((r) => r.serviceAssetId === serviceId)?.localId;
    if (!localId || !serviceId) throw new Error('the pull did not bring the asset');
    const pulled = mine.asset(localId)?.current?.annual_data?.[0]?.['en_abs_wf'];

    mine.step('edit of 1 cell', () => mine.setValues([{ localId, path, value: 111 }], { kind: 'typed' }));
    mine.step('paste of 1 cell', () => mine.setValues([{ localId, path, value: 222 }], { kind: 'paste' }));

    // The workbook: exported, the cell changed as an analyst would in Excel, imported.
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-flow-'));
    const book = join(dir, 'assets-2025.xlsx');
    await exportWorkspace(mine, book);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(book);
    const energy = wb.getWorksheet('Energy');
    if (!energy) throw new Error('no Energy tab');
    const column = (energy.getRow(1).values as unknown[]).indexOf(`annual_data[${year}].en_abs_wf`);
    let rowNumber = 0;
    for (let r = 3; r <= energy.rowCount; r++)
      if (energy.getRow(r).getCell(1).value === serviceId) rowNumber = r;
    energy.getRow(rowNumber).getCell(column).value = 333;
    await wb.xlsx.writeFile(book);
    const plan = await previewImportFile(mine, book);
    applyImport(mine, plan);
    const cell = `Energy!${energy.getColumn(column).letter}${rowNumber}`;

    // Sent; then the other analyst's value comes back by a pull.
    await me.sync();
    await them.pull();
    theirs.setValues([{ localId: made.localId, path, value: 444 }]);
    await them.sync();
    await me.pull();
    expect(mine.asset(localId)?.current?.annual_data?.[0]?.['en_abs_wf']).toBe(444);

    expect(mine.undo()?.label).toMatch(/^import of 1 asset/);
    expect(mine.asset(localId)?.current?.annual_data?.[0]?.['en_abs_wf']).toBe(222);

    mine.close();
    const reopened = WorkspaceStore.open(file);
    const entries = reopened.cells.entries({ kind: 'asset', id: localId }, path, 222);
    expect(entries.map((e) => [e.value, e.previous, e.source.kind])).toEqual([
      [222, 444, 'undo'],
      [444, 333, 'service'],
      [333, 222, 'workbook'],
      [222, 111, 'paste'],
      [111, pulled, 'typed'],
      [pulled, null, 'service'],
    ]);
    expect(entries[2]?.source).toEqual({
      kind: 'workbook',
      file: 'assets-2025.xlsx',
      sheet: 'Energy',
      cell: cell.split('!')[1],
      import: expect.any(Number),
    });
    expect(sourceInWords(entries[2]!.source)).toBe(`from assets-2025.xlsx, ${cell}`);
    // The other analyst's value, pulled: the service's `updated_at` for the asset, to its day.
    const listedAt = (await makeClient(h.baseUrl, h.token).getAsset(h.entityId, serviceId)).updated_at;
    if (!listedAt) throw new Error('the service gave no updated_at');
    const day = new Date(listedAt).toISOString().slice(0, 10);
    expect(entries[1]?.source).toEqual({ kind: 'service', updatedAt: day });
    expect(sourceInWords(entries[1]!.source)).toBe(`from the service, updated ${dayInWords(day)}`);
    for (let i = 1; i < entries.length; i++)
      expect(entries[i - 1]!.at).toBeGreaterThanOrEqual(entries[i]!.at);
    // The other analyst's workspace keeps its own history: none of mine leaks into it.
    const theirEntries = theirs.cells.entries({ kind: 'asset', id: made.localId }, path, 444);
    // (it saw my import's value only as the service's, by its pull).
    expect(theirEntries.map((e) => [e.value, e.source.kind])).toEqual([
      [444, 'typed'],
      [333, 'service'],
      [pulled, 'typed'],
    ]);

    // The audit log holds the same changes, worded, with the import's cell.
    const csv = join(dir, 'audit.csv');
    const lines = await exportAuditLog(reopened, csv, 'csv', { localIds: [localId] });
    const text = await readFile(csv, 'utf8');
    expect(lines).toBeGreaterThanOrEqual(5);
    expect(text).toContain(`from assets-2025.xlsx, ${cell}`);
    expect(text).toContain('pasted from the clipboard');
    expect(text).toContain('undone');
    reopened.close();
    theirs.close();
  });

  it("a pull's new asset: its cells read the service's updated_at, with no history row, and are marked", async () => {
    const year = assessmentYear - 1;
    const path = `annual_data/${year}/en_abs_wf`;
    const theirs = tempWorkspace('theirs-new').store;
    const them = makeEngine(theirs, makeClient(h.baseUrl, h.token), h.entityId).engine;
    const made = theirs.createAsset(newAsset(Math.floor(Math.random() * 1e6), 1));
    await them.sync();
    const serviceId = theirs.asset(made.localId)?.serviceAssetId;
    if (!serviceId) throw new Error('the asset was not created');
    const listedAt = (await makeClient(h.baseUrl, h.token).getAsset(h.entityId, serviceId)).updated_at;
    if (!listedAt) throw new Error('the service gave no updated_at');
    const day = new Date(listedAt).toISOString().slice(0, 10);

    const { store: mine, file } = tempWorkspace('mine-new');
    const rowsBefore = mine.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get();
    await makeEngine(mine, makeClient(h.baseUrl, h.token), h.entityId).engine.pull();
    const record = mine.listAssets().find((r) => r.serviceAssetId === serviceId);
    if (!record) throw new Error('the pull did not bring the asset');
    const localId = record.localId;
    const count = (table: string) =>
      (mine.cells.access.sql(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    // The arrival wrote no history: neither a cell's row nor a document's.
    expect(mine.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get()).toEqual(rowsBefore);
    expect(count('cell_docs')).toBe(0);
    const { handlers } = historyService({ store: () => mine });
    const pulled = record.current?.annual_data?.[0]?.['en_abs_wf'];
    const first = await handlers['workspace.cellHistory']({ localId, path });
    expect(first).toHaveLength(1);
    expect(first[0]?.source).toEqual({ kind: 'service', updatedAt: day });
    expect(first[0]?.value).toBe(pulled);
    expect(sourceInWords(first[0]!.source)).toBe(`from the service, updated ${dayInWords(day)}`);
    // Not from the analyst's hand: the grid marks every such cell (no hand cell on it).
    expect((await handlers['workspace.handCells']({ ids: [localId] }))[localId]).toBeUndefined();

    // Typing one cell makes the document's row: its other cells keep the date, and only the typed one is "hand".
    mine.step('edit of 1 cell', () =>
      mine.setValues([{ localId, path: 'city', value: 'Delft' }], { kind: 'typed' }),
    );
    mine.close();
    const reopened = WorkspaceStore.open(file);
    const again = historyService({ store: () => reopened }).handlers;
    expect((await again['workspace.cellHistory']({ localId, path })).map((e) => e.source)).toEqual([
      { kind: 'service', updatedAt: day },
    ]);
    expect((await again['workspace.cellHistory']({ localId, path: 'city' })).map((e) => e.source)).toEqual([
      { kind: 'typed' },
      { kind: 'service', updatedAt: day },
    ]);
    expect((await again['workspace.handCells']({ ids: [localId] }))[localId]).toEqual(['city']);
    // The audit log's line for the arrival says it too.
    const csv = join(mkdtempSync(join(tmpdir(), 'asset-desk-arrival-')), 'audit.csv');
    await exportAuditLog(reopened, csv, 'csv', { localIds: [localId] });
    expect(await readFile(csv, 'utf8')).toContain(`from the service, updated ${dayInWords(day)}`);
    reopened.close();
    theirs.close();
  });

  it("a portfolio answer's history: the service's value, the analyst's two, one undone", async () => {
    const { store: workspace, file } = tempWorkspace('answers');
    const responses = ResponsesStore.open(file);
    const client = makeClient(h.baseUrl, h.token);
    await syncResponses({ store: responses, client, entityId: h.entityId });
    const open = responses.list().find((r) => !r.readOnly);
    if (!open) throw new Error('no open response');
    const variable = 'LE3_governance';
    responses.setValue(open.id, variable, 'A sustainability committee');
    responses.setValue(open.id, variable, 'The board');
    expect(workspace.undo()?.label).toMatch(/^answer to/);
    const { handlers } = historyService({ store: () => workspace });
    const entries = await handlers['workspace.answerHistory']({ responseId: open.id, variable });
    expect(entries.map((e) => [e.value, e.source.kind])).toEqual([
      ['A sustainability committee', 'undo'],
      ['The board', 'typed'],
      ['A sustainability committee', 'typed'],
    ]);
    responses.close();
    workspace.close();
  });
});
