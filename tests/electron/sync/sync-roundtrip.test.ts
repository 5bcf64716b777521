import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, validAsset, type Harness } from '../../sandbox/helpers';
import {
  countingFetch,
  makeClient,
  makeEngine,
  namings,
  newAsset,
  tempWorkspace,
} from '../../../support/sync-harness';
import { assetSchema, type Asset } from '../../../shared/domain';
import { RemoteMerge } from '../../../electron/sync/remote-merge';
import { pendingOf } from '../../../electron/sync/pending-work';

describe.each(namings)('sync against the sandbox over HTTP ($names)', ({ realNames }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ realNames });
  });
  afterAll(() => h?.close());

  async function remoteAssets(): Promise<Asset[]> {
    return makeClient(h.baseUrl, h.token).listAllAssets(h.entityId);
  }

  it('creates, updates and deletes round trip, and the service ids arrive locally', async () => {
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    const a = store.createAsset(newAsset(1, 2));
    const b = store.createAsset(newAsset(2));

    const first = await engine.sync();
    expect(first.stopped).toBeUndefined();
    expect(first.push).toMatchObject({ requests: 1, created: 2, invalid: 0 });
    const idA = store.asset(a.localId)?.serviceAssetId;
    expect(idA).toEqual(expect.any(Number));
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });

    store.setValue(a.localId, 'city', 'Haarlem');
    store.setValue(a.localId, `annual_data/${2024}/en_abs_wf`, 61_000);
    store.deleteAsset(b.localId);
    const patch = pendingOf(store).updates[0]?.patch;
    expect(patch).toEqual({
      service_asset_id: idA,
      city: 'Haarlem',
      annual_data: [{ year: 2024, en_abs_wf: 61_000 }],
    });

    const second = await engine.sync();
    expect(second.push).toMatchObject({ requests: 1, updated: 1, deleted: 1 });
    const remote = await remoteAssets();
    const onService = remote.find((asset) => asset.service_asset_id === idA);
    expect(onService?.city).toBe('Haarlem');
    expect(onService?.annual_data.find((y) => y.year === 2024)?.['en_abs_wf']).toBe(61_000);
    expect(remote.some((asset) => asset.name === 'Asset 2')).toBe(false);
    expect(store.asset(b.localId)).toBeUndefined();

    const third = await engine.sync();
    expect(third.push.requests).toBe(0);
    store.close();
  });

  it('holds back rows the shared rules reject offline, and sends them with always_create when asked', async () => {
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    const bad = store.createAsset({ ...newAsset(10), name: 'Bad ownership', ownership: 140 });
    const strict = await engine.sync();
    expect(strict.push.requests).toBe(0);
    expect(strict.push.blocked).toEqual([
      { localId: bad.localId, errors: { ownership: [expect.any(String)] } },
    ]);

    const always = await engine.sync({ mode: 'always' });
    expect(always.push).toMatchObject({ requests: 1, created: 1 });
    expect(store.asset(bad.localId)?.serviceAssetId).toEqual(expect.any(Number));
    expect(store.asset(bad.localId)?.serverValidations?.asset.errors).toHaveProperty('ownership');
    store.close();
  });

  it('pulls every page of a large pool with pages in flight', async () => {
    const { store } = tempWorkspace();
    const seedStore = tempWorkspace().store;
    const { engine: seeder } = makeEngine(seedStore, makeClient(h.baseUrl, h.token), h.entityId);
    for (let i = 0; i < 230; i++) seedStore.createAsset(newAsset(1_000 + i));
    expect((await seeder.sync()).push.created).toBe(230);

    const { engine, progress } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    const pull = await engine.pull();
    const total = (await remoteAssets()).length;
    expect(pull.added).toBe(total);
    expect(store.listAssets()).toHaveLength(total);
    expect(progress.filter((p) => p.phase === 'pull').at(-1)).toMatchObject({
      done: Math.ceil(total / 100),
      total: Math.ceil(total / 100),
    });
    seedStore.close();
    store.close();
  });

  it('a dry run returns the service verdict per row and saves nothing', async () => {
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    await engine.pull();
    const before = (await remoteAssets()).length;
    const good = store.createAsset(newAsset(5_001));
    const bad = store.createAsset({ ...newAsset(5_002), country: 'XX' });
    const verdicts = await engine.dryRun();
    expect(verdicts.find((v) => v.localId === good.localId)?.valid).toBe(true);
    const badVerdict = verdicts.find((v) => v.localId === bad.localId);
    expect(badVerdict?.valid).toBe(false);
    expect(badVerdict?.validations.asset.errors).toHaveProperty('country');
    expect((await remoteAssets()).length).toBe(before);
    store.close();
  });

  it("a field the real service removed, held in the workspace, is kept through its pulls; our spec's service is followed", async () => {
    const created = await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { body: validAsset(7_000) });
    const raw = created.json();
    const id = (raw['gresb_asset_id'] ?? raw['service_asset_id']) as number;
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);
    await engine.pull();
    // The workspace's copy holds lat and owned_entire_period (typed here, or from before).
    const before = store.assetByServiceId(id)!;
    const base = before.base as Record<string, unknown>;
    const annual = (base['annual_data'] as Array<Record<string, unknown>>).map((r) => ({
      ...r,
      owned_entire_period: false,
      ownership_from: '2024-02-01',
    }));
    new RemoteMerge(store).applyRemote(
      assetSchema.parse({ ...base, service_asset_id: id, lat: 52.1, annual_data: annual }),
    );
    const path = `/api/v1/entities/${h.entityId}/assets/${id}`;
    expect((await h.api('PATCH', path, { body: { city: 'Zwolle' } })).status).toBe(200);
    const pulled = await engine.pull();
    expect(pulled).toMatchObject({ updated: 1, conflicts: 0 });
    const after = store.assetByServiceId(id)!;
    expect(after.current?.['city']).toBe('Zwolle');
    const owned = (after.current?.['annual_data'] as Array<Record<string, unknown>>).map(
      (r) => r['owned_entire_period'],
    );
    if (realNames) {
      // The service never sends them: their absence is not a change, and nothing is pending.
      expect(after.current?.['lat']).toBe(52.1);
      expect(owned.every((v) => v === false)).toBe(true);
      expect(pendingOf(store).updates).toEqual([]);
    } else {
      // Our spec's service has them: its values win as any field's do.
      expect(after.current?.['lat'] ?? null).toBeNull();
      expect(owned.every((v) => v === true)).toBe(true);
    }
    store.close();
  });

  it("an edit only of fields the real service removed is pending for our spec's service alone: the pending work and the push agree", async () => {
    const client = makeClient(h.baseUrl, h.token);
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, client, h.entityId);
    const asset = store.createAsset(newAsset(6_101));
    await engine.sync();
    // (owned_entire_period false would need ownership dates, which the real service takes.)
    store.setValue(asset.localId, 'lat', 52.37);
    store.setValue(asset.localId, 'lng', 4.89);
    const work = pendingOf(store, client.assetIds.name);
    const report = await engine.sync();
    if (realNames) {
      expect(work.updates).toEqual([]);
      expect(work.localOnly.map((record) => record.localId)).toEqual([asset.localId]);
      expect(report.push.requests).toBe(0);
      // Still kept here, still not pending.
      expect(store.asset(asset.localId)?.current?.['lat']).toBe(52.37);
      expect(pendingOf(store, client.assetIds.name).localOnly).toHaveLength(1);
    } else {
      expect(work.updates.map(({ record }) => record.localId)).toEqual([asset.localId]);
      expect(work.localOnly).toEqual([]);
      expect(report.push).toMatchObject({ requests: 1, updated: 1, blocked: [] });
      expect(pendingOf(store, client.assetIds.name).updates).toEqual([]);
    }
    store.close();
  });

  it("writes the id under the service's own name, learned from its answers, and never sends it a field it removed", async () => {
    const sent: Array<Record<string, unknown[]>> = [];
    const recording: typeof fetch = async (input, init) => {
      if (String(input).includes('/assets/') && typeof init?.body === 'string')
        sent.push(JSON.parse(init.body) as Record<string, unknown[]>);
      else if (init?.body instanceof Uint8Array)
        sent.push(JSON.parse(new TextDecoder().decode(init.body)) as Record<string, unknown[]>);
      return fetch(input, init);
    };
    // A client as a new connection has one: our spec's name assumed until the service answers.
    const client = makeClient(h.baseUrl, h.token, { fetch: recording });
    const { store } = tempWorkspace();
    const { engine } = makeEngine(store, client, h.entityId);
    // An asset on the service, so that the first listing shows which name it speaks.
    expect(
      (await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { body: validAsset(6_000) })).status,
    ).toBe(201);
    await engine.pull();
    expect(client.assetIds.state.source).toBe('learned');
    const asset = store.createAsset({ ...newAsset(6_001), lat: 52.37, lng: 4.89 });
    await engine.sync();
    const id = store.asset(asset.localId)?.serviceAssetId as number;
    expect(id).toEqual(expect.any(Number));
    expect(client.assetIds.state).toEqual({
      name: realNames ? 'gresb_asset_id' : 'service_asset_id',
      source: 'learned',
    });
    store.setValue(asset.localId, 'city', 'Haarlem');
    store.setValue(asset.localId, 'lat', 52.38);
    store.deleteAsset(store.createAsset(newAsset(6_002)).localId);
    const other = store.createAsset(newAsset(6_003));
    await engine.sync();
    store.deleteAsset(other.localId);
    await engine.sync();
    const update = sent.flatMap((body) => body['update'] ?? []) as Array<Record<string, unknown>>;
    const deletes = sent.flatMap((body) => body['delete'] ?? []) as Array<Record<string, unknown>>;
    const text = JSON.stringify(sent);
    if (realNames) {
      expect(update).toEqual([{ gresb_asset_id: id, city: 'Haarlem' }]);
      expect(deletes).toEqual([{ gresb_asset_id: expect.any(Number) }]);
      for (const removed of ['"lat"', '"lng"', '"owned_entire_period"', '"service_asset_id"'])
        expect(text).not.toContain(removed);
      // Kept in the workspace, where the analyst typed them, though the service's answers lack them.
      const kept = store.asset(asset.localId);
      expect(kept?.current?.['lat']).toBe(52.38);
      expect(kept?.current?.['lng']).toBe(4.89);
      const annual = kept?.current?.['annual_data'] as Array<Record<string, unknown>>;
      expect(annual.every((record) => record['owned_entire_period'] === true)).toBe(true);
    } else {
      expect(update[0]).toMatchObject({ service_asset_id: id, city: 'Haarlem', lat: 52.38 });
      expect(deletes).toEqual([{ service_asset_id: expect.any(Number) }]);
      expect(text).not.toContain('gresb_asset_id');
    }
    const onService = (await remoteAssets()).find((a) => a.service_asset_id === id);
    expect(onService?.city).toBe('Haarlem');
    // Nothing the service can take is left to send.
    expect((await engine.sync()).push.requests).toBe(0);
    store.close();
  });
});

describe.each(namings)('rate limit ($names)', ({ realNames }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 2, windowMs: 1_500 }, realNames });
  });
  afterAll(() => h?.close());

  it('paces batches by the X-RateLimit headers and recovers from a 429 it could not foresee', async () => {
    // Another client of the same token spends the budget first: our first send meets a 429.
    const other = makeClient(h.baseUrl, h.token);
    await other.postBatch(h.entityId, {});
    await other.postBatch(h.entityId, {});

    const { store } = tempWorkspace();
    const counter = countingFetch();
    const waits: number[] = [];
    const client = makeClient(h.baseUrl, h.token, {
      fetch: counter.fetch,
      onRateLimitWait: (until) => waits.push(until),
    });
    const { engine, progress } = makeEngine(store, client, h.entityId, { maxPerField: 2 });
    for (let i = 0; i < 10; i++) store.createAsset(newAsset(20_000 + i));
    const report = await engine.sync();
    expect(report.stopped).toBeUndefined();
    expect(report.push).toMatchObject({ requests: 5, created: 10 });
    // One 429 (the unforeseeable one); after it the pacer never sent a request it knew would be refused.
    expect(counter.statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(progress.some((p) => p.phase === 'push' && p.nextSendAt !== undefined)).toBe(true);
    store.close();
  });
});
