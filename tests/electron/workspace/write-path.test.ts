/**
 * The one write path: every change of a document (an asset, a portfolio answer) reaches the change
 * recorder with its source, inside the change's transaction; an answer is a step of the same
 * history as the cells, so the workspace's Undo undoes it.
 */
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import type { ChangeSource } from '../../../shared/history/change-source';
import type { ResponseSummary } from '../../../shared/responses/types';
import { join } from 'node:path';
import { applyImport } from '../../../electron/workbook/apply-import';
import { exportWorkspace, previewImportFile } from '../../../electron/workbook/workspace-workbook';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import type { ChangeRecorder, DocumentChange } from '../../../electron/workspace/change-recorder';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { tmpDir } from '../../../support/workbook-fixtures';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';

/** A recorder that keeps what it is told (the cell history's seam, issue 31). */
function keeper(): ChangeRecorder & { told: Array<{ change: DocumentChange; source: ChangeSource }> } {
  const told: Array<{ change: DocumentChange; source: ChangeSource }> = [];
  return {
    told,
    record(changes, source) {
      for (const change of changes) told.push({ change, source });
    },
  };
}

function remote(id: number, city = 'Amsterdam'): Asset {
  return {
    ...(newAsset(id) as unknown as Asset),
    service_asset_id: id,
    city,
    partners_id: null,
    certifications: [],
    _outliers: [],
  } as Asset;
}

const summary: ResponseSummary = {
  id: 9,
  entity_id: null,
  business_line: null,
  survey_year: 2025,
  name: 'Entity',
  manager: null,
  status: 'in_progress',
  survey_open: true,
  assessment_type: null,
  percent_completed: null,
  created_at: null,
  updated_at: null,
};

const cityOf = (doc: unknown) => (doc as { city?: unknown } | null)?.city;

describe('the write path', () => {
  it('tells the recorder of edits, pulls and undo, each with its source and images', () => {
    const { file } = tempWorkspace('write-path');
    const recorder = keeper();
    const store = WorkspaceStore.open(file, { recorder });
    new RemoteMerge(store).applyRemote(remote(801));
    const localId = store.assetByServiceId(801)!.localId;
    store.step('paste of 1 cell', () => store.setValue(localId, 'city', 'Delft', { kind: 'paste' }));
    new RemoteMerge(store).applyRemote({ ...remote(801), address: 'Pulled' });
    store.undo();
    const told = recorder.told.map(({ change, source }) => [
      source.kind,
      cityOf(change.before),
      cityOf(change.after),
    ]);
    expect(told).toEqual([
      ['service', undefined, 'Amsterdam'],
      ['paste', 'Amsterdam', 'Delft'],
      ['service', 'Delft', 'Delft'],
      ['undo', 'Delft', 'Amsterdam'],
    ]);
    expect(
      recorder.told.every(({ change }) => change.doc.kind === 'asset' && change.doc.id === localId),
    ).toBe(true);
    store.close();
  });

  it('tells a batch answer to what was sent anyway as the analyst\'s "send anyway"', () => {
    const { file } = tempWorkspace('write-path-anyway');
    const recorder = keeper();
    const store = WorkspaceStore.open(file, { recorder });
    const created = store.step('adding an asset', () => store.createAsset(newAsset(5)));
    store.beginBatch('b1', [created.localId]);
    store.settleBatch('b1', () =>
      new RemoteMerge(store).acknowledge(created.localId, remote(805), undefined, undefined, true),
    );
    expect(recorder.told.map(({ source }) => source.kind)).toEqual(['typed', 'send-anyway']);
    expect(store.asset(created.localId)?.serviceAssetId).toBe(805);
    store.close();
  });

  it('tells an import by its file', async () => {
    const { file } = tempWorkspace('write-path-import');
    const recorder = keeper();
    const store = WorkspaceStore.open(file, { recorder });
    new RemoteMerge(store).applyRemote(remote(806));
    const csv = join(tmpDir(), 'assets.csv');
    await exportWorkspace(store, csv);
    const localId = store.assetByServiceId(806)!.localId;
    store.step('edit of 1 cell', () => store.setValue(localId, 'city', 'Delft'));
    // The file still says Amsterdam: importing it changes the city back.
    applyImport(store, await previewImportFile(store, csv));
    expect(recorder.told.at(-1)?.source).toEqual({
      kind: 'csv',
      file: 'assets.csv',
      import: expect.any(Number),
    });
    expect(cityOf(recorder.told.at(-1)?.change.after)).toBe('Amsterdam');
    store.close();
  });

  it('makes an answer an undoable step of the workspace history, through the same path', () => {
    const { file, store: workspace } = tempWorkspace('write-path-answer');
    const recorder = keeper();
    const responses = ResponsesStore.open(file, { recorder });
    responses.saveList([summary]);
    responses.applyRemote({
      summary,
      values: [
        {
          variable: 'PO_1',
          value: '0',
          lock_version: '3',
          created_at: null,
          updated_at: '2025-01-01T00:00:00Z',
        },
      ],
      unavailable: [],
      evidence: new Map(),
    });
    responses.setValue(9, 'PO_1', '1');
    expect(workspace.historyState().undo).toMatch(/^answer to /);
    const outcome = workspace.undo();
    expect(outcome?.responses).toEqual([9]);
    expect(responses.value(9, 'PO_1')).toMatchObject({ value: '0', status: 'clean' });
    workspace.redo();
    expect(responses.value(9, 'PO_1')).toMatchObject({ value: '1', status: 'modified' });
    expect(recorder.told.map(({ change, source }) => [source.kind, change.doc.id, change.after])).toEqual([
      ['service', '9:PO_1', '"0"'],
      ['typed', '9:PO_1', '"1"'],
    ]);
    responses.close();
    workspace.close();
  });
});
