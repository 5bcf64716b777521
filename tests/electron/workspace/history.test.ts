/**
 * Undo and redo in main, on the workspace's journal: one step per action, in one transaction,
 * scoped to the workspace file and kept across restarts; restoring only the analyst's copy.
 */
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { pendingOf } from '../../../electron/sync/pending-work';

function remote(id: number, name: string): Asset {
  return {
    ...(newAsset(id) as unknown as Asset),
    service_asset_id: id,
    name,
    partners_id: null,
    certifications: [],
    _outliers: [],
  } as Asset;
}

describe('history in main', () => {
  it('undoes and redoes a paste as one labelled step, and survives a restart', () => {
    const { store, file } = tempWorkspace('history');
    const a = store.step('adding an asset', () => store.createAsset(newAsset(1)));
    const b = store.step('adding an asset', () => store.createAsset(newAsset(2)));
    store.step('paste of 3 cells', () =>
      store.setValues([
        { localId: a.localId, path: 'city', value: 'Utrecht' },
        { localId: b.localId, path: 'city', value: 'Delft' },
        { localId: b.localId, path: 'annual_data/2019/en_abs_wf', value: 7 },
      ]),
    );
    expect(store.historyState()).toEqual({ undo: 'paste of 3 cells', redo: null });
    store.close();

    const reopened = WorkspaceStore.open(file);
    const outcome = reopened.undo();
    expect(outcome?.label).toBe('paste of 3 cells');
    expect(reopened.asset(a.localId)?.current?.['city']).toBe('Amsterdam');
    expect(reopened.asset(b.localId)?.current?.['city']).toBe('Amsterdam');
    // The annual row the paste added is gone with it, not left empty.
    const years = (reopened.asset(b.localId)?.current?.['annual_data'] as Array<{ year: number }>).map(
      (r) => r.year,
    );
    expect(years).not.toContain(2019);
    expect(reopened.historyState()).toEqual({ undo: 'adding an asset', redo: 'paste of 3 cells' });
    reopened.redo();
    expect(reopened.asset(b.localId)?.current?.['city']).toBe('Delft');
    expect(reopened.historyState().redo).toBeNull();
    reopened.close();
  });

  it('a delete with its annual rows and certifications comes back under the same id', () => {
    const { store } = tempWorkspace('history-delete');
    const doc = { ...newAsset(3, 2), certifications: [{ id: 11, year: 2023, _key: 'c1' }] };
    const created = store.step('adding an asset', () => store.createAsset(doc));
    store.step('delete of an asset', () => store.deleteAsset(created.localId));
    expect(store.asset(created.localId)).toBeUndefined();
    store.undo();
    const back = store.asset(created.localId);
    expect(back?.current?.['annual_data']).toEqual(doc.annual_data);
    expect(back?.current?.['certifications']).toEqual(doc.certifications);
    expect(back?.partnersId).toBe(created.partnersId);
    store.close();
  });

  it('an undo after a sync is a new pending change, never a reversal of the service copy', () => {
    const { store } = tempWorkspace('history-sync');
    new RemoteMerge(store).applyRemote(remote(501, 'On the service'));
    const local = store.assetByServiceId(501);
    store.step('edit of 1 cell', () => store.setValue(local?.localId as string, 'city', 'Leiden'));
    // The sync took the edit: the service's copy now has it.
    new RemoteMerge(store).applyRemote({ ...remote(501, 'On the service'), city: 'Leiden' });
    expect(pendingOf(store).updates).toHaveLength(0);
    store.undo();
    const after = store.asset(local?.localId as string);
    expect(after?.base?.['city']).toBe('Leiden');
    expect(after?.current?.['city']).toBe('Amsterdam');
    expect(pendingOf(store).updates).toHaveLength(1);
    store.close();
  });

  it('undoing a cell edit leaves a change pulled since alone', () => {
    const { store } = tempWorkspace('history-pull');
    new RemoteMerge(store).applyRemote(remote(502, 'Pulled'));
    const local = store.assetByServiceId(502);
    store.step('edit of 1 cell', () => store.setValue(local?.localId as string, 'city', 'Leiden'));
    new RemoteMerge(store).applyRemote({ ...remote(502, 'Pulled'), address: 'Changed by a partner' });
    store.undo();
    const after = store.asset(local?.localId as string);
    expect(after?.current?.['address']).toBe('Changed by a partner');
    expect(after?.current?.['city']).toBe('Amsterdam');
    store.close();
  });

  it('a new action clears redo; a delete of a synced asset is undone to a live row', () => {
    const { store } = tempWorkspace('history-redo');
    new RemoteMerge(store).applyRemote(remote(503, 'Synced'));
    const local = store.assetByServiceId(503)?.localId as string;
    store.step('delete of an asset', () => store.deleteAsset(local));
    expect(store.asset(local)?.current).toBeNull();
    store.undo();
    expect(store.asset(local)?.current?.['name']).toBe('Synced');
    store.step('edit of 1 cell', () => store.setValue(local, 'city', 'Gouda'));
    expect(store.historyState()).toEqual({ undo: 'edit of 1 cell', redo: null });
    store.close();
  });

  it('a sliced step is one undo step; between its slices other writes are refused, reads see it', async () => {
    const { store } = tempWorkspace('history-sliced');
    const a = store.step('adding an asset', () => store.createAsset(newAsset(1)));
    const city = a.current?.['city'];
    let refused: unknown;
    let metaRefused: unknown;
    let seen: unknown;
    await store.slicedStep('import of 2 cells', async (pause) => {
      store.setValue(a.localId, 'city', 'Utrecht');
      // A slice runs ~20 ms before main answers others: wait that long, then let another task in.
      const until = performance.now() + 25;
      while (performance.now() < until);
      const other = new Promise<void>((resolve) =>
        setImmediate(() => {
          try {
            store.step('edit of 1 cell', () => store.setValue(a.localId, 'city', 'Gouda'));
          } catch (error) {
            refused = error;
          }
          // A write outside any step (a setting kept in the file) would join the import's
          // transaction and go with its rollback: refused as well.
          try {
            store.setMeta('readings_mapping', '{}');
          } catch (error) {
            metaRefused = error;
          }
          seen = store.asset(a.localId)?.current?.['city'];
          resolve();
        }),
      );
      await pause();
      await other;
      store.setValue(a.localId, 'annual_data/2019/en_abs_wf', 7);
    });
    expect(String(refused)).toMatch(/still being written/);
    expect(String(metaRefused)).toMatch(/still being written/);
    expect(store.getMeta('readings_mapping')).toBeUndefined();
    expect(seen).toBe('Utrecht');
    expect(store.historyState()).toEqual({ undo: 'import of 2 cells', redo: null });
    expect(store.undo()?.label).toBe('import of 2 cells');
    expect(store.asset(a.localId)?.current?.['city']).toBe(city);
    expect(JSON.stringify(store.asset(a.localId)?.current)).not.toContain('"year":2019');
    // A failed sliced step leaves nothing behind, and the next write goes through.
    await expect(
      store.slicedStep('import that fails', async () => {
        store.setValue(a.localId, 'city', 'Delft');
        throw new Error('bad file');
      }),
    ).rejects.toThrow('bad file');
    expect(store.asset(a.localId)?.current?.['city']).toBe(city);
    store.step('edit of 1 cell', () => store.setValue(a.localId, 'city', 'Gouda'));
    expect(store.historyState().undo).toBe('edit of 1 cell');
    store.close();
  });
});
