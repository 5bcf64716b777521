/** Held back, then "send anyway": the service saves the asset with its errors (always_create). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('send anyway', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
  });
  afterAll(() => h?.close());

  it('an asset held back by the rules is sent with its errors only when the analyst says so', async () => {
    const { store } = tempWorkspace('anyway');
    const base = newAsset(9_001);
    const annual = (base.annual_data as Array<Record<string, unknown>>).map((row) => ({
      ...row,
      tenant_ctrl: null,
    }));
    const bad = store.createAsset({ ...base, name: 'Held back asset', annual_data: annual });
    const good = store.createAsset({ ...newAsset(9_002), name: 'Valid asset' });
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId);

    const first = await engine.sync();
    expect(first.push.blocked.map((b) => b.localId)).toEqual([bad.localId]);
    expect(store.asset(good.localId)?.serviceAssetId).toEqual(expect.any(Number));
    expect(store.asset(bad.localId)?.serviceAssetId).toBeNull();

    const second = await engine.sync({ sendAnyway: new Set([bad.localId]) });
    expect(second.push.blocked).toEqual([]);
    expect(second.push.created).toBe(1);
    const id = store.asset(bad.localId)?.serviceAssetId;
    expect(id).toEqual(expect.any(Number));
    const onService = await makeClient(h.baseUrl, h.token).getAsset(h.entityId, id as number);
    expect(onService.name).toBe('Held back asset');
    store.close();
  });
});
