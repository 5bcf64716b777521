/**
 * Faults from a real TCP proxy between the sync engine and the sandbox: answers cut after the
 * server applied a batch, a service that is down, slow answers, a token revoked mid-sync.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grantableScopes } from '../../../shared/auth/scopes';
import type { Asset } from '../../../shared/domain';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, namings, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

const batchLine = /^POST \/api\/v1\/entities\/\d+\/assets\/batches /;

describe.each(namings)('sync under faults ($names)', ({ realNames }) => {
  let h: Harness;
  let proxy: FaultProxy;
  let serial = 100_000;

  beforeAll(async () => {
    // Pacing has its own tests; here the limit must not be what stops a sync.
    h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 }, realNames });
  });
  afterAll(() => h?.close());
  afterEach(() => proxy?.close());

  async function remote(): Promise<Asset[]> {
    return makeClient(h.baseUrl, h.token).listAllAssets(h.entityId);
  }

  it('a batch whose answer is cut after the service applied it is reconciled, not resent', async () => {
    proxy = await startFaultProxy(h.baseUrl);
    const { store } = tempWorkspace();
    const { engine, progress } = makeEngine(store, makeClient(proxy.url, h.token), h.entityId, {
      maxPerField: 10,
    });
    const prefix = `Cut ${serial++}`;
    const locals = Array.from({ length: 30 }, (_, i) =>
      store.createAsset({ ...newAsset(serial++), name: `${prefix} #${i}` }),
    );

    proxy.cutAfterResponse(batchLine, 1);
    const report = await engine.sync();
    expect(proxy.cuts()).toBe(1);
    expect(report.stopped).toBeUndefined();
    expect(progress.some((p) => p.phase === 'reconcile')).toBe(true);

    const onService = (await remote()).filter((asset) => asset.name?.startsWith(prefix));
    const names = onService.map((asset) => asset.name);
    expect(names).toHaveLength(30);
    expect(new Set(names).size).toBe(30);
    for (const local of locals) {
      const record = store.asset(local.localId);
      expect(record?.serviceAssetId).toEqual(expect.any(Number));
      expect(onService.some((asset) => asset.service_asset_id === record?.serviceAssetId)).toBe(true);
    }
    expect(store.unsettledBatches()).toEqual([]);
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });
    store.close();
  });

  it('every edit in batches whose answers were lost reaches the service', async () => {
    proxy = await startFaultProxy(h.baseUrl);
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(proxy.url, h.token), h.entityId, { maxPerField: 5 });
    const locals = Array.from({ length: 12 }, () => store.createAsset(newAsset(serial++)));
    await engine.sync();
    locals.forEach((local, i) => store.setValue(local.localId, 'address', `Edited street ${i}`));

    proxy.cutAfterResponse(batchLine, 2);
    const report = await engine.sync();
    expect(proxy.cuts()).toBe(2);
    expect(report.stopped).toBeUndefined();
    const byId = new Map((await remote()).map((asset) => [asset.service_asset_id, asset]));
    locals.forEach((local, i) => {
      const id = store.asset(local.localId)?.serviceAssetId ?? -1;
      expect(byId.get(id)?.address).toBe(`Edited street ${i}`);
    });
    expect(pendingOf(store).updates).toEqual([]);
    store.close();
  });

  it('an edit made while its batch is in flight stays pending on top of the service answer', async () => {
    proxy = await startFaultProxy(h.baseUrl);
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(proxy.url, h.token), h.entityId);
    const local = store.createAsset(newAsset(serial++));
    await engine.sync();
    store.setValue(local.localId, 'address', 'Sent street 1');

    proxy.delayResponses(batchLine, 800);
    const editing = new Promise<void>((resolve) =>
      setTimeout(() => {
        store.setValue(local.localId, 'city', 'Edited while in flight');
        resolve();
      }, 300),
    );
    const report = await engine.push();
    await editing;
    expect(report.updated).toBe(1);
    const id = store.asset(local.localId)?.serviceAssetId as number;
    const onService = await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id);
    expect(onService).toMatchObject({ address: 'Sent street 1', city: 'Amsterdam' });
    // The answer became the base; the later edit is still pending, and goes out next.
    expect(pendingOf(store).updates.map((u) => u.patch)).toEqual([
      { service_asset_id: id, city: 'Edited while in flight' },
    ]);
    await engine.push();
    expect((await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id)).city).toBe(
      'Edited while in flight',
    );
    store.close();
  });

  it('a service that is down stops the sync with a clear error and loses nothing', async () => {
    proxy = await startFaultProxy(h.baseUrl);
    const { store } = tempWorkspace();
    const client = makeClient(proxy.url, h.token, { retries: 1 });
    const { engine } = makeEngine(store, client, h.entityId);
    const local = store.createAsset(newAsset(serial++));
    proxy.setDown(true);
    const failed = await engine.sync();
    expect(failed.stopped?.reason).toBe('error');
    expect(failed.stopped?.message).toMatch(/Could not reach the service/);
    expect(pendingOf(store).creates.map((r) => r.localId)).toEqual([local.localId]);

    proxy.setDown(false);
    const ok = await engine.sync();
    expect(ok.stopped).toBeUndefined();
    expect(ok.push.created).toBe(1);
    store.close();
  });

  it('a batch that times out is treated as possibly applied: reconciled in the same sync, not resent', async () => {
    proxy = await startFaultProxy(h.baseUrl);
    const { store } = tempWorkspace();
    const prefix = `Slow ${serial++}`;
    const { engine, progress } = makeEngine(
      store,
      makeClient(proxy.url, h.token, { timeoutMs: 400 }),
      h.entityId,
    );
    for (let i = 0; i < 3; i++) store.createAsset({ ...newAsset(serial++), name: `${prefix} #${i}` });
    proxy.delayResponses(batchLine, 800);
    const report = await engine.sync();
    expect(report.stopped).toBeUndefined();
    expect(progress.some((p) => p.phase === 'reconcile')).toBe(true);
    // The service had applied the batch: the reconcile adopted all three, nothing was sent twice.
    expect(report.push.requests).toBe(1);
    expect((await remote()).filter((asset) => asset.name?.startsWith(prefix))).toHaveLength(3);
    expect(store.unsettledBatches()).toEqual([]);
    expect(pendingOf(store).creates).toEqual([]);
    store.close();
  });

  it('a token revoked mid-sync pauses the sync; after signing in again the rest goes out', async () => {
    const partner = h.admin.listDataPartners()[0];
    if (!partner) throw new Error('no data partner');
    const first = h.admin.createAccessToken({
      dataPartnerId: partner.id,
      name: 'revoked mid-sync',
      scopes: grantableScopes,
      expiresAt: Date.now() + 3_600_000,
    });
    let token = first.token;
    let batches = 0;
    const { store } = tempWorkspace();
    const { engine } = makeEngine(
      store,
      new SubmissionApiClient({
        baseUrl: h.baseUrl,
        getToken: () => token,
        retryBaseDelayMs: 20,
        // Revoked as the first batch's answer arrives: the next request meets the revocation.
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (init?.method === 'POST' && ++batches === 1) h.admin.deleteAccessToken(first.id);
          return response;
        },
      }),
      h.entityId,
      // One batch in flight, so the revocation falls between two batches (with two, the second is
      // already out when the first answer arrives, and may be accepted before the revocation).
      { maxPerField: 2, inFlight: 1 },
    );
    for (let i = 0; i < 6; i++) store.createAsset(newAsset(serial++));
    const paused = await engine.sync();
    expect(paused.stopped?.reason).toBe('unauthorized');
    expect(paused.stopped?.message).toMatch(/Sign in again/);
    expect(paused.push.created).toBe(2);
    expect(pendingOf(store).creates).toHaveLength(4);
    expect(store.unsettledBatches()).toEqual([]);

    token = h.tokenWith(grantableScopes);
    const resumed = await engine.sync();
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.push.created).toBe(4);
    store.close();
  });

  it('cancelling mid-push leaves the journal consistent and the next sync finishes the job', async () => {
    const { store } = tempWorkspace();
    const controller = new AbortController();
    const prefix = `Cancel ${serial++}`;
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId, {
      maxPerField: 3,
      onProgress: (p) => {
        if (p.phase === 'push' && p.done === 1) controller.abort();
      },
    });
    for (let i = 0; i < 9; i++) store.createAsset({ ...newAsset(serial++), name: `${prefix} #${i}` });
    const cancelled = await engine.sync({ signal: controller.signal });
    expect(cancelled.stopped?.reason).toBe('cancelled');
    const done = await engine.sync();
    expect(done.stopped).toBeUndefined();
    const names = (await remote())
      .filter((asset) => asset.name?.startsWith(prefix))
      .map((asset) => asset.name);
    expect(names).toHaveLength(9);
    expect(new Set(names).size).toBe(9);
    store.close();
  });
});
