/**
 * Issue 33: a later page of the snapshot is one JSON text written from the stored texts, the assets
 * with nothing but their copy to show as tuples. Read (`pageViews`), it says exactly what the views
 * `toAssetView` makes say, for every kind of asset: new, in step with
 * the service, edited here (and edited only in a field the real service no longer takes), deleted,
 * in conflict, refused by the service, with outliers; and it pages as the views do.
 */
import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../../electron/browser-host/answer-message';
import { pageViews, type AssetPage } from '../../../shared/bridge/asset-page';
import { serviceIdName, specIdName, type AssetIdName } from '../../../shared/sync/asset-id-name';
import { assetViewPage } from '../../../electron/workspace/asset-views';
import { assetViewPageText } from '../../../electron/workspace/asset-view-text';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { newAsset, remoteAsset, tempWorkspace } from '../../../support/sync-harness';

function pagesOf(
  store: Parameters<typeof assetViewPageText>[0],
  limit: number,
  idName: AssetIdName = specIdName,
) {
  const pages = [assetViewPageText(store, 0, limit, idName)];
  while (pages.at(-1)!.next !== null)
    pages.push(assetViewPageText(store, pages.at(-1)!.next!, limit, idName));
  return pages;
}

describe('a page of asset views as one JSON text', () => {
  it('parses to the views toAssetView makes, for every kind of asset, page by page', () => {
    const { store } = tempWorkspace('view-text');
    for (let i = 0; i < 6; i++) new RemoteMerge(store).applyRemote(remoteAsset(800 + i));
    for (let i = 0; i < 3; i++) store.createAsset(newAsset(i, 2));
    const byService = (id: number) => store.assetByServiceId(id)!.localId;
    store.setValue(byService(801), 'city', 'Delft'); // edited here: modified
    store.setValue(byService(802), 'lat', 52.1); // only a field the real service no longer takes
    store.deleteAsset(byService(803)); // deleted
    store.keepConflicts(byService(804), [
      { path: 'city', base: 'Amsterdam', mine: 'Leiden', theirs: 'Delft' },
    ]);
    store.markInvalid(byService(805), {
      valid: false,
      errors: [{ field: 'size', message: 'too small' }],
    } as never);
    const created = store.listAssets().find((r) => r.serviceAssetId === null)!.localId;
    store.deleteAsset(created); // a new asset deleted before it was ever sent
    store.run(
      'UPDATE assets SET outliers = ? WHERE local_id = ?',
      JSON.stringify([{ path: 'annual_data/2024/en_abs_wf', message: 'far above last year' }]),
      byService(800),
    );
    store.run("UPDATE assets SET outliers = '', server_validations = '' WHERE local_id = ?", byService(801));

    for (const idName of [specIdName, serviceIdName] as const) {
      const views = assetViewPage(store, 0, -1, idName).assets;
      for (const limit of [-1, 4]) {
        const pages = pagesOf(store, limit, idName);
        const parsed = pages.flatMap(pageViews);
        expect(parsed).toEqual(views);
        expect(pages.map((page) => page.next === null)).toEqual(limit === -1 ? [true] : [false, false, true]);
      }
      // The assets with nothing but their copy to show go as tuples: the new ones and the deleted.
      const items = JSON.parse(pagesOf(store, -1, idName)[0]!.views.json) as unknown[];
      expect(items.filter((item) => Array.isArray(item))).toHaveLength(3);
      const kinds = new Map(views.map((view) => [view.serviceAssetId, view]));
      expect(kinds.get(801)).toMatchObject({ status: 'modified', changedPaths: ['city'] });
      expect(kinds.get(802)!.status).toBe(idName === serviceIdName ? 'clean' : 'modified');
      expect(kinds.get(803)!.status).toBe('deleted');
      expect(kinds.get(804)!.conflicts).toHaveLength(1);
      expect(kinds.get(805)!.serverValidations).not.toBeNull();
      expect(kinds.get(800)!.outliers).toHaveLength(1);
      expect(views.filter((view) => view.status === 'new')).toHaveLength(2);
    }
  });
  it('reads the same as each host delivers it: copied by IPC, or spliced raw by the browser host', () => {
    const { store } = tempWorkspace('view-hosts');
    for (let i = 0; i < 3; i++) store.createAsset(newAsset(i));
    store.run('UPDATE assets SET outliers = \'[{"path":"size","message":"\\"big\\""}]\'');
    const page = assetViewPageText(store, 0, -1);
    const overIpc = structuredClone(page);
    const message = JSON.parse(answerMessage(7, { ok: true, result: page })) as {
      envelope: { result: AssetPage };
    };
    // Raw: the message carries the views themselves, not a string of them.
    expect(Array.isArray(message.envelope.result.views)).toBe(true);
    expect(pageViews(message.envelope.result)).toEqual(pageViews(overIpc));
    expect(pageViews(overIpc)).toEqual(assetViewPage(store).assets);
    expect(pageViews(overIpc)[0]!.outliers).toEqual([{ path: 'size', message: '"big"' }]);
  });
  it('pages by the starts a snapshot gives: every asset once, in order, one added meanwhile last', () => {
    const { store } = tempWorkspace('view-starts');
    for (let i = 0; i < 10; i++) store.createAsset(newAsset(i));
    const first = assetViewPage(store, 0, 1);
    const starts = store.pageStarts(first.next!, 4);
    expect(starts[0]).toBe(first.next);
    expect(starts).toHaveLength(3); // 9 rows after the first: 4, 4 and 1
    store.createAsset(newAsset(10)); // after the snapshot, before the pages are read
    const pages = starts.map((after, i) =>
      assetViewPageText(store, after, 1_000_000, specIdName, starts[i + 1]),
    );
    expect(pages.map((page) => pageViews(page).length)).toEqual([4, 4, 2]);
    expect([...first.assets, ...pages.flatMap(pageViews)]).toEqual(assetViewPage(store).assets);
  });
});
