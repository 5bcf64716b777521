/**
 * The views a snapshot carries: read in pages (the window draws the first while it reads the rest),
 * in workspace order, with each asset's staged changes and conflicts as one read gives them.
 */
import { describe, expect, it } from 'vitest';
import { changedPaths } from '../../../shared/sync/asset-doc';
import { assetView, assetViewPage } from '../../../electron/workspace/asset-views';
import { newAsset, remoteAsset, tempWorkspace } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';

describe('asset views', () => {
  it('pages through the workspace in order, each asset once, as the whole snapshot has them', () => {
    const { store } = tempWorkspace('views');
    for (let i = 0; i < 4; i++) new RemoteMerge(store).applyRemote(remoteAsset(700 + i));
    for (let i = 0; i < 3; i++) store.createAsset(newAsset(i));
    const pulled = store.assetByServiceId(701)!;
    store.setValue(pulled.localId, 'city', 'Delft');
    new RemoteMerge(store).applyRemote({ ...remoteAsset(702), city: 'Utrecht' }); // the service changed it: still in step
    const whole = assetViewPage(store);
    expect(whole.next).toBeNull();
    expect(whole.assets.map((a) => a.localId)).toEqual(store.listAssets().map((r) => r.localId));

    const pages = [assetViewPage(store, 0, 3)];
    while (pages.at(-1)!.next !== null) pages.push(assetViewPage(store, pages.at(-1)!.next!, 3));
    expect(pages.map((p) => p.assets.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.assets)).toEqual(whole.assets);

    // One asset read alone says the same as the snapshot.
    for (const view of whole.assets) expect(assetView(store, view.localId)).toEqual(view);
    const byId = new Map(whole.assets.map((a) => [a.serviceAssetId, a]));
    expect(byId.get(701)).toMatchObject({ status: 'modified', changedPaths: ['city'] });
    expect(byId.get(702)).toMatchObject({ status: 'clean', changedPaths: [] });
    expect(byId.get(702)!.doc['city']).toBe('Utrecht');
    // A new asset's changes are all its values: not listed, the renderer derives them from the copy.
    const created = whole.assets.find((a) => a.status === 'new')!;
    expect(created.changedPaths).toEqual([]);
    expect(changedPaths(null, created.doc)).toContain('name');
  });
});
