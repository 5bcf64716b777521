/**
 * A batch answer is not the whole asset: the service's docs answer with copies "trimmed for brevity"
 * (an update's answer carries the id, the location and the timestamps). Through the sync engine
 * against a replay server answering so, the workspace's copy of the service keeps what the answer
 * left out, takes what it carried, and an asset shows as in step only when it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mergeAnswer } from '../../../electron/sync/answer-merge';
import { Y1, Y2, assetsListText, batchResponse, docsAssetBody } from '../../fixtures/service-docs/assets';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import { makeClient, makeEngine, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

const E = 7;
const listing = {
  body: assetsListText,
  headers: { total: '2', 'per-page': '100' },
};
type Row = Record<string, unknown>;
/** The docs' trimmed answer of an update (id, location, timestamps), for the asset with this id. */
const trimmedUpdate = (id: unknown) => ({ ...batchResponse.updated[0], gresb_asset_id: id });

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a trimmed batch answer', () => {
  it('keeps what the answer leaves out: name, address, annual records by year, certifications', async () => {
    let created = 94_100;
    server = await startReplayServer({
      [`GET /api/v1/entities/${E}/assets`]: listing,
      [`POST /api/v1/entities/${E}/assets/batches`]: (request) => {
        const body = request.body as Record<string, Row[] | undefined>;
        const updates = [...(body['update'] ?? []), ...(body['always_update'] ?? [])];
        const creates = [...(body['create'] ?? []), ...(body['always_create'] ?? [])];
        // As the docs' answer: each asset trimmed to its ids, its location and its timestamps.
        const answers = {
          updated: updates.map((u) => trimmedUpdate(u['gresb_asset_id'])),
          created: creates.map((c) => ({
            ...batchResponse.created[0],
            gresb_asset_id: created++,
            partners_id: c['partners_id'],
            country: c['country'],
            state_province: c['state_province'],
            city: c['city'],
          })),
        };
        return {
          body: {
            ...batchResponse,
            created: [],
            always_created: answers.created,
            updated: [],
            always_updated: answers.updated,
            deleted: [],
            counts: {
              ...batchResponse.counts,
              always_created: creates.length,
              always_updated: updates.length,
            },
          },
        };
      },
    });
    const { store } = tempWorkspace('trimmed');
    const { engine } = makeEngine(store, makeClient(server.baseUrl, 'token', { retries: 0 }), E);
    await engine.pull();
    const house = store.assetByServiceId(91002);
    if (!house) throw new Error('not pulled');
    store.setValue(house.localId, 'address', 'Edited street 1');
    const fresh = store.createAsset({ ...docsAssetBody(), name: 'Made here', partners_id: undefined });

    const report = await engine.sync({ mode: 'always' });
    expect(report.stopped).toBeUndefined();
    expect(report.push).toMatchObject({ updated: 1, created: 1 });
    expect(pendingOf(store)).toMatchObject({ creates: [], updates: [], deletes: [] });

    const updated = store.assetByServiceId(91002);
    expect(updated?.base).toMatchObject({
      name: 'The White House',
      address: 'Edited street 1',
      construction_year: 1792,
      size: 5000,
      certifications: [{ id: 7002, certification_id: 1140, size: 123 }],
    });
    expect(updated?.base?.annual_data?.map((a) => a.year)).toEqual([Y1, Y2]);
    expect(updated?.base?.annual_data?.[1]).toMatchObject({ year: Y2, en_tot_lc_te: 112.4 });
    expect(updated?.current).toEqual(updated?.base);

    const made = store.asset(fresh.localId);
    expect(made?.serviceAssetId).toBe(94_100);
    expect(made?.base).toMatchObject({
      name: 'Made here',
      address: '1600 Pennsylvania Avenue NW',
      size: 5000,
      certifications: [{ certification_id: 598, level: 'Platinum', year: 2017 }],
    });
    expect(made?.base?.annual_data).toHaveLength(2);
    expect(pendingOf(store).creates).toEqual([]);
    store.close();
  });
});

describe('mergeAnswer', () => {
  const sent = {
    name: 'Sent',
    address: 'Old',
    size: 100,
    annual_data: [
      { year: 2024, en_abs_wf: 1, tenant_ctrl: true },
      { year: 2023, en_abs_wf: 2 },
    ],
    certifications: [
      { id: 5, certification_id: 598, level: 'Gold', year: 2020 },
      { _key: 'k1', certification_id: 1140, level: null, year: 2022 },
    ],
  };

  it('takes what the answer carried, nulls included, and keeps what it left out', () => {
    const carried = { service_asset_id: 3, address: null, annual_data: [{ year: 2024, en_abs_wf: 9 }] };
    const answered = {
      service_asset_id: 3,
      name: null,
      address: null,
      size: null,
      annual_data: [{ year: 2024, en_abs_wf: 9 }],
      certifications: [],
    };
    expect(mergeAnswer(sent, answered, carried)).toEqual({
      ...sent,
      service_asset_id: 3,
      address: null,
      annual_data: [{ year: 2024, en_abs_wf: 9, tenant_ctrl: true }, sent.annual_data[1]],
    });
  });

  it('takes a record the answer carried whole as it is, and never changes the answered document', () => {
    const record = { year: 2024, en_abs_wf: 9, tenant_ctrl: false };
    const answered = { service_asset_id: 3, name: 'A', annual_data: [record], certifications: [] };
    const carried = JSON.parse(JSON.stringify(answered)) as Record<string, unknown>;
    const before = JSON.stringify(answered);
    const merged = mergeAnswer({ service_asset_id: 3, name: 'A', annual_data: [] }, answered, carried);
    expect(merged).not.toBe(answered);
    expect(merged.annual_data?.[0]).toBe(record);
    expect(JSON.stringify(answered)).toBe(before);
  });

  it('gives a certification sent without an id the id the service answered for it', () => {
    const carried = {
      certifications: [
        { id: 77, certification_id: 1140, year: 2022 },
        { id: 5, size: 10 },
      ],
    };
    const answered = {
      certifications: [
        { id: 77, certification_id: 1140, level: null, size: null, year: 2022 },
        { id: 5, certification_id: null, level: null, size: 10, year: null },
      ],
    };
    // In the answer's order, as a listing would give them; the `_key` of the entry sent is done with.
    expect(mergeAnswer(sent, answered, carried).certifications).toEqual([
      { id: 77, certification_id: 1140, level: null, size: null, year: 2022 },
      { id: 5, certification_id: 598, level: 'Gold', year: 2020, size: 10 },
    ]);
  });
});
