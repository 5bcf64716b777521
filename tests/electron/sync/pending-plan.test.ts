/**
 * Issue 35: one pending-work plan per Sync click, used by the review, the delete confirmation's
 * review and the dry run, computed once while the workspace does not change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { planStats } from '../../../electron/sync/pending-plan';
import { sliceStats } from '../../../electron/sync/plan-slices';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('the pending-work plan of a click', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('is computed once for the reviews and the dry run, again after an edit or a sync', async () => {
    const { store } = tempWorkspace();
    // In main, where the test sees the plan's count (the worker runs the same code).
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId, {
      localWork: 'inline',
    });
    await engine.sync();
    const a = store.createAsset(newAsset(1));
    store.createAsset({ ...newAsset(2), ownership: 140 });

    const before = planStats.computed;
    const first = await engine.review();
    expect(first.creates).toHaveLength(2);
    expect(first.heldBack?.map((held) => held.name)).toEqual(['Asset 2']);
    expect(await engine.review()).toBe(first);
    expect((await engine.dryRun()).map((row) => row.valid).sort()).toEqual([false, true]);
    expect(planStats.computed).toBe(before + 1);

    // An edit changes the workspace: the next review sees it.
    store.setValue(a.localId, 'city', 'Haarlem');
    const edited = await engine.review();
    expect(edited).not.toBe(first);
    expect(edited.creates).toHaveLength(2);
    expect(planStats.computed).toBe(before + 2);

    // The click's sync pushes by that plan (its pull brought nothing new); its own writes forget
    // it: what it sent is no longer pending.
    await engine.sync();
    expect(planStats.computed).toBe(before + 2);
    const after = await engine.review();
    expect(after.creates.map((c) => c.name)).toEqual(['Asset 2']);
    expect(planStats.computed).toBe(before + 3);
    store.close();
  });

  it('is made in slices by a push no review came before: its first batch leaves after one', async () => {
    const { store } = tempWorkspace();
    // Rows planned when each batch reached the service (the plan runs inline, where the test sees it).
    const plannedAtSend: number[] = [];
    const client = makeClient(h.baseUrl, h.token, {
      fetch: (input, init) => {
        if (init?.method === 'POST') {
          plannedAtSend.push(sliceStats.rowsPlanned);
          // While the first batch is out: one asset of it edited, and one of the last slice.
          if (plannedAtSend.length === 1) {
            store.setValue(ids[0] as string, 'city', 'Edited in flight');
            store.setValue(ids[11] as string, 'city', 'Edited before its slice');
          }
        }
        return fetch(input, init);
      },
    });
    const { engine } = makeEngine(store, client, h.entityId, { localWork: 'inline', maxPerField: 2 });
    await engine.sync();
    const ids = Array.from({ length: 12 }, (_, i) => store.createAsset(newAsset(100 + i)).localId);
    plannedAtSend.length = 0;
    const begun = sliceStats.rowsPlanned;

    const report = await engine.push();
    expect(report).toMatchObject({ created: 12, requests: 6 });
    const atSend = plannedAtSend.map((rows) => rows - begun);
    expect(atSend).toHaveLength(6);
    // Batch 1 left with its slice and those of the batches planned ahead while it is out (one per
    // lane, and one more), not all 12: the rest were planned while batches were out.
    expect(atSend[0]).toBeLessThanOrEqual(6);
    expect(atSend[5]).toBe(12);
    expect(atSend).toEqual([...atSend].sort((a, b) => a - b));
    for (const localId of ids) expect(store.asset(localId)?.serviceAssetId).not.toBeNull();
    // The asset planned after the edit went out as edited; the one edited in flight is pending, not lost.
    const service = makeClient(h.baseUrl, h.token);
    const sentLast = store.asset(ids[11] as string)?.serviceAssetId as number;
    expect((await service.getAsset(h.entityId, sentLast)).city).toBe('Edited before its slice');
    const first = store.asset(ids[0] as string)?.serviceAssetId as number;
    expect((await service.getAsset(h.entityId, first)).city).toBe('Amsterdam');
    const review = await engine.review();
    expect(review.updates.map((u) => u.localId)).toEqual([ids[0]]);
    await engine.push();
    expect((await service.getAsset(h.entityId, first)).city).toBe('Edited in flight');
    store.close();
  });
});
