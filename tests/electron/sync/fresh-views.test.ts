/**
 * The push's views are read in the sync's worker; an asset the analyst edited after that read is
 * read again on main (by the journal), so the window is never sent a view older than the one its
 * own edit's answer gave it.
 */
import { describe, expect, it } from 'vitest';
import { specIdName } from '../../../shared/sync/asset-id-name';
import { freshen } from '../../../electron/sync/fresh-views';
import { settledViewsOf } from '../../../electron/workspace/asset-views';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('freshen', () => {
  it('reads again the settled assets edited after the views were read, and only those', () => {
    const { store } = tempWorkspace('fresh-views');
    const [a, b, c, d] = [1, 2, 3, 4].map((i) => store.createAsset(newAsset(i)));
    const ids = [a!, b!, c!, d!].map((record) => record.localId);
    const journalSeq = store.lastJournalSeq();
    const changes = { ...settledViewsOf(store, ids, new Set(), specIdName), pulled: false, journalSeq };
    // As if `d` had been sent lean (in step, as sent): only its service id.
    changes.views = changes.views.filter((view) => view.localId !== d!.localId);
    changes.inStep = { localIds: [d!.localId], serviceAssetIds: [77] };
    const untouched = changes.views.find((view) => view.localId === c!.localId);

    // Edited after the read: `a` changed, `b` deleted (a new asset's row goes), `d` changed.
    store.setValue(a!.localId, 'city', 'Haarlem');
    store.deleteAsset(b!.localId);
    store.setValue(d!.localId, 'city', 'Utrecht');
    freshen(store, changes, specIdName);

    const byId = new Map(changes.views.map((view) => [view.localId, view]));
    expect(byId.get(a!.localId)?.doc?.['city']).toBe('Haarlem');
    expect(byId.has(b!.localId)).toBe(false);
    expect(changes.removed).toEqual([b!.localId]);
    expect(byId.get(c!.localId)).toBe(untouched);
    expect(byId.get(d!.localId)?.doc?.['city']).toBe('Utrecht');
    expect(changes.inStep).toEqual({ localIds: [], serviceAssetIds: [] });
    store.close();
  });
});
