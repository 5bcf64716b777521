import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, namings, newAsset, tempWorkspace } from '../../../support/sync-harness';

describe.each(namings)('three-way merge on pull ($names)', ({ realNames }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ realNames });
  });
  afterAll(() => h?.close());

  /** Two analysts' workspaces over the same entity pool. */
  async function twoClients() {
    const mine = tempWorkspace('mine').store;
    const theirs = tempWorkspace('theirs').store;
    const me = makeEngine(mine, makeClient(h.baseUrl, h.token), h.entityId).engine;
    const them = makeEngine(theirs, makeClient(h.baseUrl, h.token), h.entityId).engine;
    const created = mine.createAsset(newAsset(Math.floor(Math.random() * 1e6), 1));
    await me.sync();
    await them.pull();
    const id = mine.asset(created.localId)?.serviceAssetId;
    const theirRecord = theirs.listAssets().find((r) => r.serviceAssetId === id);
    if (!theirRecord || !id) throw new Error('the second client did not see the asset');
    return { mine, theirs, me, them, localId: created.localId, theirLocalId: theirRecord.localId, id };
  }

  it('applies remote-only changes, keeps local-only changes, and flags both-changed fields as conflicts', async () => {
    const { mine, theirs, me, them, localId, theirLocalId, id } = await twoClients();
    theirs.setValue(theirLocalId, 'city', 'Utrecht');
    theirs.setValue(theirLocalId, 'address', 'Their street 1');
    await them.sync();

    mine.setValue(localId, 'city', 'Leiden');
    mine.setValue(localId, 'gav', 12);
    const report = await me.sync();
    expect(report.pull.conflicts).toBe(1);
    expect(mine.conflicts(localId)).toEqual([
      { localId, path: 'city', base: 'Amsterdam', mine: 'Leiden', theirs: 'Utrecht' },
    ]);
    const record = mine.asset(localId);
    expect(record?.current?.['address']).toBe('Their street 1');
    expect(record?.current?.['city']).toBe('Leiden');
    // Conflicted assets are held back: the service still has their value, and gav is not sent yet.
    expect(report.push.conflicted).toBe(1);
    const remote = await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id);
    expect(remote.city).toBe('Utrecht');
    expect(remote.gav ?? null).toBeNull();

    mine.resolveConflict(localId, 'city', 'mine');
    const after = await me.sync();
    expect(after.push.updated).toBe(1);
    const resolved = await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id);
    expect(resolved).toMatchObject({ city: 'Leiden', gav: 12, address: 'Their street 1' });
  });

  it('takes theirs when the user chooses so', async () => {
    const { mine, theirs, me, them, localId, theirLocalId, id } = await twoClients();
    theirs.setValue(theirLocalId, 'ownership', 60);
    await them.sync();
    mine.setValue(localId, 'ownership', 80);
    await me.sync();
    expect(mine.conflicts(localId)).toHaveLength(1);
    mine.resolveConflict(localId, 'ownership', 'theirs');
    const report = await me.sync();
    expect(report.push.requests).toBe(0);
    expect(mine.asset(localId)?.current?.['ownership']).toBe(60);
    expect((await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id)).ownership).toBe(60);
  });

  it('an asset deleted remotely while edited locally is a conflict; keep mine creates it again', async () => {
    const { mine, theirs, me, them, localId, theirLocalId } = await twoClients();
    theirs.deleteAsset(theirLocalId);
    await them.sync();
    mine.setValue(localId, 'city', 'Delft');
    const report = await me.sync();
    expect(report.pull.remoteDeletedConflicts).toBe(1);
    expect(mine.asset(localId)?.remoteDeleted).toBe(true);
    expect(report.push.requests).toBe(0);

    mine.resolveRemoteDeletion(localId, 'mine');
    const again = await me.sync();
    expect(again.push.created).toBe(1);
    const newId = mine.asset(localId)?.serviceAssetId;
    const remote = await makeClient(h.baseUrl, h.token).getAsset(h.entityId, newId as number);
    expect(remote.city).toBe('Delft');
  });

  it('an asset deleted remotely and untouched locally simply goes', async () => {
    const { mine, theirs, me, them, localId, theirLocalId } = await twoClients();
    theirs.deleteAsset(theirLocalId);
    await them.sync();
    const report = await me.sync();
    expect(report.pull.removed).toBe(1);
    expect(mine.asset(localId)).toBeUndefined();
  });
});
