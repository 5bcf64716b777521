/**
 * A plan's slice reads its candidates' rows by their places in the table (`pendingRows` with the
 * rowids `pendingCandidates` read): a row removed after the plan was begun whose place a new row
 * took is not read as the candidate's.
 */
import { describe, expect, it } from 'vitest';
import { SlicedPlan } from '../../../electron/sync/plan-slices';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { specIdName } from '../../../shared/sync/asset-id-name';
import { newAsset, remoteAsset, tempWorkspace } from '../../../support/sync-harness';

describe('a sliced plan', () => {
  it("reads each candidate's own row, not a new one that took the place of a removed one", () => {
    const { store } = tempWorkspace('slice-places');
    const merge = new RemoteMerge(store);
    merge.applyRemote(remoteAsset(900));
    merge.applyRemote(remoteAsset(901));
    const last = store.listAssets().find((record) => record.serviceAssetId === 901)!.localId;
    store.setValue(last, 'city', 'Delft');
    const plan = new SlicedPlan(store, specIdName);
    expect(plan.queued.update.map((candidate) => candidate.localId)).toEqual([last]);

    // Gone on the service meanwhile: its row goes, and a new asset's row takes its place (the last).
    store.transaction(() => merge.removeGone(last));
    const added = store.createAsset(newAsset(902));
    expect(plan.more('update', 10)).toMatchObject({ creates: [], updates: [], deletes: [] });
    expect(plan.more('create', 10)).toBeUndefined();
    expect(store.asset(added.localId)).toBeDefined();
  });

  it('reads the rows of the slice asked for, in their stored order', () => {
    const { store } = tempWorkspace('slice-rows');
    const created = Array.from({ length: 5 }, (_, i) => store.createAsset(newAsset(910 + i)).localId);
    const plan = new SlicedPlan(store, specIdName);
    expect(plan.more('create', 3)?.creates.map((record) => record.localId)).toEqual(created.slice(0, 3));
    expect(plan.more('create', 3)?.creates.map((record) => record.localId)).toEqual(created.slice(3));
  });
});
