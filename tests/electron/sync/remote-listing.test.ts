/**
 * Answers a listing may give that must never read as "the service has nothing": an empty page where
 * the total promised assets, assets without ids, a listing that merely lacks an asset the service
 * still has. The service is a replay server over real HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assetSchema } from '../../../shared/domain';
import { assetDeleteText } from '../../fixtures/service-docs/assets';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import { makeClient, makeEngine, tempWorkspace } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { pendingOf } from '../../../electron/sync/pending-work';

const entityId = 7;
const listPath = `GET /api/v1/entities/${entityId}/assets`;

function asset(id: number, name = `Asset ${id}`): Record<string, unknown> {
  return {
    ...(JSON.parse(assetDeleteText) as Record<string, unknown>),
    gresb_asset_id: id,
    name,
    partners_id: null,
  };
}

/** A workspace that knows assets 1, 2 and 3 as the service's, and has deleted 2 and edited 3. */
function workspaceWithPendingWork() {
  const { store } = tempWorkspace('listing');
  // As the client reads an answer: the docs' gresb_asset_id under our name.
  for (const id of [1, 2, 3]) new RemoteMerge(store).applyRemote(assetSchema.parse(asset(id)));
  store.deleteAsset(store.assetByServiceId(2)?.localId as string);
  store.setValue(store.assetByServiceId(3)?.localId as string, 'address', 'Mine');
  return store;
}

describe('a pull never infers deletion from a listing', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function pullAgainst(routes: Parameters<typeof startReplayServer>[0]) {
    server = await startReplayServer(routes);
    const store = workspaceWithPendingWork();
    const { engine } = makeEngine(store, makeClient(server.baseUrl, 'token', { retries: 0 }), entityId);
    const outcome = await engine.pull().then(
      (summary) => ({ summary, error: undefined }),
      (error: unknown) => ({ summary: undefined, error }),
    );
    return { store, ...outcome };
  }

  function expectPendingWorkKept(store: ReturnType<typeof workspaceWithPendingWork>) {
    expect(store.assetByServiceId(1)).toBeDefined();
    expect(store.assetByServiceId(2)?.current).toBeNull();
    expect(store.assetByServiceId(3)?.current?.['address']).toBe('Mine');
    expect(store.assetByServiceId(3)?.remoteDeleted).toBe(false);
    expect(pendingOf(store).deletes).toHaveLength(1);
    expect(pendingOf(store).updates).toHaveLength(1);
  }

  it('an empty 200 page where the total promised assets is an error, not data', async () => {
    const { store, error } = await pullAgainst({
      [listPath]: { body: [], headers: { total: '3', 'per-page': '100' } },
    });
    expect(String(error)).toMatch(/empty page/);
    expectPendingWorkKept(store);
    store.close();
  });

  it('assets without ids are an error, not data', async () => {
    const { store, error } = await pullAgainst({
      [listPath]: {
        body: [asset(1), { ...asset(2), gresb_asset_id: null }, { ...asset(3), gresb_asset_id: null }],
        headers: { total: '3', 'per-page': '100' },
      },
    });
    expect(String(error)).toMatch(/without an id/);
    expectPendingWorkKept(store);
    store.close();
  });

  it('an asset a complete listing lacks stays while the service still answers for it', async () => {
    const { store, error, summary } = await pullAgainst({
      [listPath]: { body: [asset(1)], headers: { total: '1', 'per-page': '100' } },
      [`GET /api/v1/entities/${entityId}/assets/2`]: { body: asset(2) },
      [`GET /api/v1/entities/${entityId}/assets/3`]: { body: asset(3) },
    });
    expect(error).toBeUndefined();
    expect(summary).toMatchObject({ removed: 0, remoteDeletedConflicts: 0 });
    expectPendingWorkKept(store);
    store.close();
  });

  it('an asset confirmed gone by a 404 is marked: a pending delete is done, an edit is a conflict', async () => {
    const { store, error, summary } = await pullAgainst({
      [listPath]: { body: [asset(1)], headers: { total: '1', 'per-page': '100' } },
    });
    expect(error).toBeUndefined();
    expect(summary).toMatchObject({ removed: 1, remoteDeletedConflicts: 1 });
    expect(store.assetByServiceId(2)).toBeUndefined();
    expect(store.assetByServiceId(3)?.remoteDeleted).toBe(true);
    store.close();
  });

  it('a listing whose total keeps moving is read again', async () => {
    let calls = 0;
    const { store, error, summary } = await pullAgainst({
      [listPath]: () => {
        calls++;
        // The first reading's total disagrees with its pages; the second is in step.
        return calls === 1
          ? { body: [asset(1)], headers: { total: '4', 'per-page': '100' } }
          : { body: [asset(1), asset(2), asset(3)], headers: { total: '3', 'per-page': '100' } };
      },
    });
    expect(error).toBeUndefined();
    expect(calls).toBe(2);
    expect(summary).toMatchObject({ removed: 0, remoteDeletedConflicts: 0 });
    expectPendingWorkKept(store);
    store.close();
  });
});

describe('an asset found by its GET after the listing lacked it', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("keeps the fields the real service removed, held in the workspace, as the listing's assets do", async () => {
    const { store } = tempWorkspace('found');
    // The workspace holds lat/lng and an annual owned_entire_period (typed here, or from before).
    const served = { ...asset(4), annual_data: [{ year: 2024, tenant_ctrl: true, en_tot_wf: 100 }] };
    const annual = [{ ...served.annual_data[0], owned_entire_period: false }];
    new RemoteMerge(store).applyRemote(
      assetSchema.parse({ ...served, lat: 52.1, lng: 4.9, annual_data: annual }),
    );
    // The service (the real names: no lat, lng or owned_entire_period) changed its city meanwhile.
    server = await startReplayServer({
      [listPath]: { body: [asset(1)], headers: { total: '1', 'per-page': '100' } },
      [`GET /api/v1/entities/${entityId}/assets/4`]: { body: { ...served, city: 'Zwolle' } },
    });
    const { engine } = makeEngine(store, makeClient(server.baseUrl, 'token', { retries: 0 }), entityId);
    const summary = await engine.pull();
    expect(summary).toMatchObject({ updated: 1, conflicts: 0, removed: 0 });
    const after = store.assetByServiceId(4);
    expect(after?.current?.['city']).toBe('Zwolle');
    expect(after?.current).toMatchObject({ lat: 52.1, lng: 4.9 });
    const owned = (after?.current?.['annual_data'] as Array<Record<string, unknown>>).map(
      (record) => record['owned_entire_period'],
    );
    expect(owned.every((value) => value === false)).toBe(true);
    // Their absence from the service's copy is not a change: nothing is pending.
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [], conflicted: [] });
    store.close();
  });
});
