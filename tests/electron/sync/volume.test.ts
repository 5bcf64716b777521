import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MAX_PER_FIELD } from '../../../shared/domain';
import { startHarness, type Harness } from '../../sandbox/helpers';
import {
  countingFetch,
  makeClient,
  makeEngine,
  newAsset,
  tempWorkspace,
} from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

describe('volume', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it(
    '12,000 pending edits go out in the minimum number of batch requests',
    { timeout: 120_000 },
    async () => {
      const { store } = tempWorkspace();
      const counter = countingFetch();
      const { engine } = makeEngine(
        store,
        makeClient(h.baseUrl, h.token, { fetch: counter.fetch }),
        h.entityId,
      );
      store.transaction(() => {
        for (let i = 0; i < 9_000; i++) store.createAsset(newAsset(i));
      });
      const first = await engine.sync();
      expect(first.push).toMatchObject({ requests: Math.ceil(9_000 / BATCH_MAX_PER_FIELD), created: 9_000 });

      // 12,000 pending operations of three kinds: 5,000 updates, 3,000 deletes, 4,000 creates.
      const records = store.listAssets();
      store.transaction(() => {
        records.slice(0, 5_000).forEach((r, i) => store.setValue(r.localId, 'address', `Street ${i}`));
        records.slice(5_000, 8_000).forEach((r) => store.deleteAsset(r.localId));
        for (let i = 0; i < 4_000; i++) store.createAsset(newAsset(50_000 + i));
      });
      const pending = pendingOf(store);
      expect(pending.updates.length + pending.deletes.length + pending.creates.length).toBe(12_000);

      const before = counter.statuses.length;
      const second = await engine.sync();
      // The fields of one request are independent: max(5000, 3000, 4000) / 5000 = 1 request.
      expect(second.push).toMatchObject({
        requests: 1,
        created: 4_000,
        updated: 5_000,
        deleted: 3_000,
        invalid: 0,
      });
      const batchCalls = counter.statuses.slice(before).filter((status) => status === 200 || status === 201);
      expect(batchCalls.length).toBeGreaterThan(0);
      expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });
      store.close();
    },
  );
});
