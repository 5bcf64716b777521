/**
 * The sync's local part runs in its worker thread on its own connection to the workspace's file,
 * reading each batch's assets when the batch is filled: edits the analyst makes while a push is
 * under way are never lost, whether their batch was filled before or after them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

describe('the local part of a sync', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
  });
  afterAll(() => h?.close());

  it('an edit made during a push goes out with its batch, or stays pending if its batch was filled', async () => {
    const { store } = tempWorkspace('during-push');
    const locals = Array.from({ length: 6 }, (_, i) => store.createAsset(newAsset(60_000 + i)));
    await makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
    locals.forEach((local, i) => store.setValue(local.localId, 'address', `Street ${i}`));

    // Three batches of two, one request at a time, the next batch filled while one is out. As the
    // first answer arrives, the first batch is out, the third not filled yet, and the second filled
    // or not (the worker fills it while the first is out, a race either outcome of which is right):
    // the analyst edits an asset of each.
    const [inFirst, inSecond, inThird] = [locals[0], locals[2], locals[4]].map((l) => l?.localId as string);
    let batches = 0;
    const client = makeClient(h.baseUrl, h.token, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST' && ++batches === 1) {
          store.setValue(inFirst as string, 'city', 'Edited while out');
          store.setValue(inSecond as string, 'city', 'Edited once filled');
          store.setValue(inThird as string, 'city', 'Edited before filled');
        }
        return response;
      },
    });
    const { engine } = makeEngine(store, client, h.entityId, { maxPerField: 2, inFlight: 1 });
    const report = await engine.push();
    expect(report).toMatchObject({ requests: 3, updated: 6 });

    const remote = async (localId: string) =>
      client.getAsset(h.entityId, store.asset(localId)?.serviceAssetId as number);
    expect(await remote(inThird as string)).toMatchObject({
      address: 'Street 4',
      city: 'Edited before filled',
    });
    expect(await remote(inFirst as string)).toMatchObject({ address: 'Street 0', city: 'Amsterdam' });
    // The answers became the base under the edits: only the edits are pending, and go out next.
    const idOf = (localId: string) => store.asset(localId)?.serviceAssetId;
    const second = await remote(inSecond as string);
    const secondFilledFirst = second?.city === 'Amsterdam';
    expect(second).toMatchObject({
      address: 'Street 2',
      city: secondFilledFirst ? 'Amsterdam' : 'Edited once filled',
    });
    expect(pendingOf(store).updates.map((u) => u.patch)).toEqual([
      { service_asset_id: idOf(inFirst as string), city: 'Edited while out' },
      ...(secondFilledFirst
        ? [{ service_asset_id: idOf(inSecond as string), city: 'Edited once filled' }]
        : []),
    ]);
    await engine.push();
    expect(await remote(inFirst as string)).toMatchObject({ city: 'Edited while out' });
    expect(await remote(inSecond as string)).toMatchObject({ city: 'Edited once filled' });
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });
    expect(store.unsettledBatches()).toEqual([]);
    store.close();
  });

  it('a pull that finds every asset as the workspace has it writes nothing', async () => {
    const { store } = tempWorkspace('unchanged-pull');
    const engine = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine;
    const local = store.createAsset(newAsset(61_000));
    await engine.sync();
    const before = store.asset(local.localId);
    const pulled = await engine.pull();
    expect(pulled).toMatchObject({ updated: 0, conflicts: 0, removed: 0 });
    expect(store.asset(local.localId)).toEqual(before);
    store.close();
  });

  it('a workspace without a file to share syncs in main, the same way', async () => {
    const store = WorkspaceStore.open(':memory:');
    const client = makeClient(h.baseUrl, h.token);
    const { engine } = makeEngine(store, client, h.entityId, { maxPerField: 2 });
    const locals = Array.from({ length: 3 }, (_, i) => store.createAsset(newAsset(62_000 + i)));
    const first = await engine.sync();
    expect(first.push).toMatchObject({ requests: 2, created: 3 });
    store.setValue(locals[1]?.localId as string, 'address', 'In memory');
    const second = await engine.sync();
    expect(second.push).toMatchObject({ requests: 1, updated: 1 });
    const id = store.asset(locals[1]?.localId as string)?.serviceAssetId as number;
    expect((await client.getAsset(h.entityId, id)).address).toBe('In memory');
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });
    store.close();
  });
});
