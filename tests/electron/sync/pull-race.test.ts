/**
 * The pull against a second client: the asset pool is shared, so another data partner deletes an
 * asset while our pull is between pages. A real proxy holds page 2 of the listing while the other
 * client deletes an asset on page 1 through the sandbox's API; page 2 then shifts by one, and the
 * asset that moved up to page 1 is on neither page. Nothing may be inferred from that absence.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import type { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, namings, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

const page2 = /^GET \/api\/v1\/entities\/\d+\/assets\?page=2&/;

describe.each(namings)('a pull racing another client ($names)', ({ realNames }) => {
  let h: Harness;
  let proxy: FaultProxy | undefined;

  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 }, realNames });
  });
  afterAll(() => h?.close());
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** The service's listing in page order, read directly (not through the proxy). */
  async function listing(): Promise<Asset[]> {
    return makeClient(h.baseUrl, h.token).listAllAssets(h.entityId);
  }

  /** A workspace in step with a service holding exactly 137 assets (pages of 100). */
  async function seeded(tag: string): Promise<{ store: WorkspaceStore; ids: number[] }> {
    for (const asset of await listing()) {
      await makeClient(h.baseUrl, h.token).deleteAsset(h.entityId, asset.service_asset_id as number);
    }
    const { store } = tempWorkspace(tag);
    for (let i = 0; i < 137; i++) store.createAsset({ ...newAsset(i), name: `${tag} ${i}` });
    const report = await makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
    expect(report.stopped).toBeUndefined();
    const ids = (await listing()).map((asset) => asset.service_asset_id as number);
    expect(ids).toHaveLength(137);
    return { store, ids };
  }

  /** Runs a sync through the proxy; while page 2 is held, the other partner deletes `victim`. */
  async function syncWhileDeleting(store: WorkspaceStore, victim: number) {
    proxy = await startFaultProxy(h.baseUrl);
    const { engine } = makeEngine(store, makeClient(proxy.url, h.token), h.entityId);
    const gate = proxy.holdRequest(page2);
    const running = engine.sync();
    await gate.held;
    console.log('held');
    const other = await h.api('DELETE', `/api/v1/entities/${h.entityId}/assets/${victim}`);
    expect(other.status).toBe(200);
    gate.release();
    return running;
  }

  it('a pending delete of the first asset of page 2 is sent, not dropped', async () => {
    const t0 = Date.now();
    const { store, ids } = await seeded('Race delete');
    console.log('seeded', Date.now() - t0);
    const mine = ids[100] as number;
    const victim = ids[10] as number;
    const local = store.assetByServiceId(mine);
    store.deleteAsset(local?.localId as string);

    const report = await syncWhileDeleting(store, victim);
    expect(report.stopped).toBeUndefined();
    expect(report.push.deleted).toBe(1);
    const after = (await listing()).map((asset) => asset.service_asset_id);
    expect(after).not.toContain(mine);
    expect(after).not.toContain(victim);
    expect(after).toHaveLength(135);
    // The other partner's delete is taken in (confirmed by a 404), and nothing comes back.
    expect(report.pull.removed).toBe(1);
    expect(store.assetByServiceId(victim)).toBeUndefined();
    const again = await makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
    expect(again.pull.added).toBe(0);
    expect(store.listAssets()).toHaveLength(135);
    store.close();
  });

  it('an edit of the first asset of page 2 is sent, not turned into a false "deleted" conflict', async () => {
    const { store, ids } = await seeded('Race edit');
    const mine = ids[100] as number;
    const victim = ids[20] as number;
    const local = store.assetByServiceId(mine);
    store.setValue(local?.localId as string, 'address', 'Edited during the race');

    const report = await syncWhileDeleting(store, victim);
    expect(report.stopped).toBeUndefined();
    expect(report.pull.remoteDeletedConflicts).toBe(0);
    expect(report.push.updated).toBe(1);
    const onService = (await listing()).find((asset) => asset.service_asset_id === mine);
    expect(onService?.address).toBe('Edited during the race');
    expect(store.asset(local?.localId as string)?.remoteDeleted).toBe(false);
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [], conflicted: [] });
    store.close();
  });

  it('a delete the analyst did not confirm stays pending; a confirmed one is sent', async () => {
    const { store, ids } = await seeded('Confirm delete');
    const [a, b] = [ids[0] as number, ids[1] as number];
    store.deleteAsset(store.assetByServiceId(a)?.localId as string);
    store.deleteAsset(store.assetByServiceId(b)?.localId as string);
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    const report = await engine.sync({ deletes: new Set([b]) });
    expect(report.push).toMatchObject({ deleted: 1, unconfirmedDeletes: 1 });
    const after = (await listing()).map((asset) => asset.service_asset_id);
    expect(after).toContain(a);
    expect(after).not.toContain(b);
    expect(store.assetByServiceId(a)?.current).toBeNull();
    expect(pendingOf(store).deletes).toHaveLength(1);
    store.close();
  });
});
