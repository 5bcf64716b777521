/**
 * Issue 35: one pending-work plan per Sync click, used by the review, the delete confirmation's
 * review and the dry run, computed once while the workspace does not change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { planStats } from '../../../electron/sync/pending-plan';
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
});
