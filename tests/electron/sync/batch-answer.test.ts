/**
 * The docs' batch answer creates an asset and answers it trimmed: its new id and its location, not
 * its partners_id, so which of ours it is cannot be told from the answer. Against a replay server
 * answering so, the create is reconciled like a lost answer (a pull finds it by partners_id): it
 * takes the service's id and is never sent twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { batchResponse } from '../../fixtures/service-docs/assets';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

const E = 7;
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a created asset answered without its partners_id', () => {
  it('is found by the next pull, not sent again', async () => {
    /** What the service holds: the asset once the batch made it. */
    let held: Array<Record<string, unknown>> = [];
    let posts = 0;
    const created = batchResponse.created[0] as Record<string, unknown>;
    server = await startReplayServer({
      [`GET /api/v1/entities/${E}/assets`]: () => ({
        body: held,
        headers: { total: String(held.length), 'per-page': '100' },
      }),
      [`POST /api/v1/entities/${E}/assets/batches`]: (request) => {
        posts++;
        const sent = ((request.body as { create?: Array<Record<string, unknown>> }).create ?? [])[0] ?? {};
        held = [{ ...sent, ...created, annual_data: sent['annual_data'] }];
        return {
          body: {
            ...batchResponse,
            created: [created],
            always_created: [],
            updated: [],
            always_updated: [],
            deleted: [],
            counts: { ...batchResponse.counts, always_created: 0, updated: 0, always_updated: 0, deleted: 0 },
          },
        };
      },
    });
    const { store } = tempWorkspace('untraced');
    const { engine, progress } = makeEngine(store, makeClient(server.baseUrl, 'token', { retries: 0 }), E);
    const local = store.createAsset(newAsset(1));

    const report = await engine.sync();
    expect(report.stopped).toBeUndefined();
    expect(posts).toBe(1);
    expect(progress.some((p) => p.phase === 'reconcile')).toBe(true);
    const record = store.asset(local.localId);
    expect(record?.serviceAssetId).toBe(created['gresb_asset_id']);
    expect(record?.base).toMatchObject({ name: 'Asset 1', address: created['address'] });
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });
    expect(store.unsettledBatches()).toEqual([]);
    expect(store.listAssets()).toHaveLength(1);
    store.close();
  });
});
