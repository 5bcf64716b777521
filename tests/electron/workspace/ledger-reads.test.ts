/**
 * The settled assets a push answers by their service ids alone (`plainlyInStep`): the same answer
 * whether a few are asked about (looked up through the local id's index) or most of the file (one
 * pass over the table).
 */
import { describe, expect, it } from 'vitest';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { newAsset, remoteAsset, tempWorkspace } from '../../../support/sync-harness';

describe('plainly in step', () => {
  it('names the in-step assets with nothing else to show, asked about a few or most', () => {
    const { store } = tempWorkspace('plain');
    for (let i = 0; i < 12; i++) new RemoteMerge(store).applyRemote(remoteAsset(800 + i));
    store.createAsset(newAsset(1)); // new: not in step
    const records = store.listAssets();
    const idOf = (serviceId: number) => records.find((r) => r.serviceAssetId === serviceId)!.localId;
    store.setValue(idOf(801), 'city', 'Delft'); // edited since: not in step
    const created = records.find((r) => r.serviceAssetId === null)!.localId;

    // A few (3 of 13): through the index.
    const few = store.plainlyInStep([idOf(800), idOf(801), created]);
    expect([...few]).toEqual([[idOf(800), 800]]);

    // Most of the file: one pass, only those asked about.
    const asked = [...records.map((r) => r.localId).filter((id) => id !== idOf(811)), 'no-such-asset'];
    const most = store.plainlyInStep(asked);
    const expected = new Map(
      Array.from({ length: 11 }, (_, i) => 800 + i)
        .filter((id) => id !== 801)
        .map((id) => [idOf(id), id] as const),
    );
    expect(new Map([...most].sort())).toEqual(new Map([...expected].sort()));
    expect(store.plainlyInStep([]).size).toBe(0);
  });
});
