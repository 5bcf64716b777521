/**
 * Issue 35: a sync answers with the views its push changed, so the window applies those rows
 * instead of reading the whole workspace again; only a pull that brought changes asks for that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { assetViewPage } from '../../../electron/workspace/asset-views';
import { makeClient, makeEngine, namings, newAsset, tempWorkspace } from '../../../support/sync-harness';

describe.each(namings)('the views a push changed ($names)', ({ realNames }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ realNames });
  });
  afterAll(() => h?.close());

  it('are every settled asset as a full read would show it, and nothing else', async () => {
    const { store } = tempWorkspace();
    const client = makeClient(h.baseUrl, h.token);
    const { engine } = makeEngine(store, client, h.entityId, { maxPerField: 2 });
    // A first sync brings what the entity already holds: a pull that changed the workspace.
    const first = await engine.sync();
    expect(first.stopped).toBeUndefined();
    expect(first.changes?.pulled).toBe(store.assetCount() > 0);

    // Three with an outlier in their energy data (sent as views), one without annual data.
    const created = [1, 2, 3].map((i) => store.createAsset(newAsset(900 + i)));
    const plain = store.createAsset(newAsset(904, 0));
    created.push(plain);
    const blocked = store.createAsset({ ...newAsset(905), ownership: 140 });
    const report = await engine.sync();
    expect(report.push).toMatchObject({ created: 4, requests: 2 });
    const changes = report.changes!;
    // In step after the first sync: this one's pull brought nothing, so the window reads nothing.
    expect(changes.pulled).toBe(false);
    expect(changes.removed).toEqual([]);
    const named = [...changes.views.map((v) => v.localId), ...changes.inStep.localIds];
    expect(named.sort()).toEqual(created.map((c) => c.localId).sort());
    const whole = new Map(
      assetViewPage(store, 0, -1, client.assetIds.name).assets.map((view) => [view.localId, view]),
    );
    // Acknowledged as sent, with nothing to show but their ids: sent lean, as the window's view
    // of them becomes once marked clean.
    expect(changes.inStep.localIds).toEqual([plain.localId]);
    expect(changes.views).toHaveLength(3);
    changes.inStep.localIds.forEach((localId, i) => {
      expect(whole.get(localId)).toMatchObject({
        serviceAssetId: changes.inStep.serviceAssetIds[i],
        status: 'clean',
        changedPaths: [],
        conflicts: [],
        serverValidations: null,
        outliers: [],
      });
    });
    for (const view of changes.views) {
      // The copy is, in substance, the one sent, which the window shows: the view goes without it.
      expect(view.doc).toBeUndefined();
      const { doc: _doc, ...rest } = whole.get(view.localId)!;
      expect(view).toEqual(rest);
    }
    expect(changes.views.some((v) => v.localId === blocked.localId)).toBe(false);

    // A delete settled away is named as removed.
    store.deleteAsset(created[0]!.localId);
    const deleted = await engine.sync();
    expect(deleted.push.deleted).toBe(1);
    expect(deleted.changes).toMatchObject({
      views: [],
      inStep: { localIds: [] },
      removed: [created[0]!.localId],
      pulled: false,
    });
    store.close();
  });

  it('say so when a pull brought changes from the service', async () => {
    const { store } = tempWorkspace();
    const client = makeClient(h.baseUrl, h.token);
    const { engine } = makeEngine(store, client, h.entityId);
    await engine.sync();
    // Another client changes an asset on the service: the next sync's pull brings it.
    const other = tempWorkspace('other');
    const otherEngine = makeEngine(other.store, makeClient(h.baseUrl, h.token), h.entityId).engine;
    await otherEngine.sync();
    const target = other.store.createAsset(newAsset(950));
    await otherEngine.sync();
    expect(other.store.asset(target.localId)?.serviceAssetId).toEqual(expect.any(Number));
    const report = await engine.sync();
    expect(report.pull.added).toBe(1);
    expect(report.changes?.pulled).toBe(true);
    other.store.close();
    store.close();
  });
});
