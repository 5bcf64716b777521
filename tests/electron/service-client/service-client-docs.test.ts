import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraFields, type Asset } from '../../../shared/domain';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { startReplayServer } from '../../support/replay-server';
import * as docs from '../../fixtures/service-docs/assets';
import { makeEngine, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

/**
 * Every answer the real service's docs publish for the asset side goes through our client without
 * an error and without losing a field, over real HTTP from a replay server.
 */

const E = 801;
const assets = `/api/v1/entities/${E}/assets`;
let replay: Awaited<ReturnType<typeof startReplayServer>>;
let client: SubmissionApiClient;

/**
 * Every key of every object in `sent` is still there in `got` (values may be normalised). The docs'
 * `gresb_asset_id` is the one key read under another name, ours, with its value unchanged.
 */
function lostKeys(sent: unknown, got: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(got)) return [path || '(root)'];
    return sent.flatMap((item, i) => lostKeys(item, got[i], `${path}[${i}]`));
  }
  if (sent === null || typeof sent !== 'object') return [];
  if (got === null || typeof got !== 'object') return [path || '(root)'];
  const kept = got as Record<string, unknown>;
  return Object.entries(sent).flatMap(([key, value]) => {
    if (key === 'gresb_asset_id')
      return 'service_asset_id' in kept && kept['service_asset_id'] === value && !(key in kept)
        ? []
        : [`${path}.${key}`];
    return key in got ? lostKeys(value, kept[key], `${path}.${key}`) : [`${path}.${key}`];
  });
}

/** A client whose asset listings ask the replay server for one of its other recorded pages. */
function clientFor(recording: 'history' | 'outliers'): SubmissionApiClient {
  return new SubmissionApiClient({
    baseUrl: replay.baseUrl,
    getToken: () => 'replay-token',
    fetch: (url, init) => {
      const u = new URL(String(url));
      if (u.pathname === assets) u.searchParams.set(recording, '1');
      return fetch(u, init);
    },
  });
}

const page = (body: string, total: number) => ({
  body,
  headers: { 'per-page': '100', total: String(total) },
});

beforeAll(async () => {
  replay = await startReplayServer({
    'GET /api/v1/entities': { body: docs.entitiesList },
    [`GET /api/v1/entities/${E}`]: { body: docs.entity },
    'GET /api/v1/certifications': { body: docs.certificationsList },
    'GET /api/v1/energy_ratings': { body: docs.energyRatingsList },
    'GET /api/v0/lists': { body: docs.listsSummaries },
    'GET /api/v0/lists/country': { body: docs.countryList },
    'GET /api/v0/lists/equity_asset_type': { body: docs.propertyTypeList },
    [`GET ${assets}`]: (request) =>
      request.query.get('history') === '1'
        ? page(docs.historicalAssetsListText, 2)
        : request.query.get('outliers') === '1'
          ? page(docs.outliersAssetsListText, 1)
          : page(docs.assetsListText, 2),
    [`GET ${assets}/357239`]: { body: docs.historicalAssetGetText },
    [`DELETE ${assets}/91001`]: { body: docs.assetDeleteText },
    [`PATCH ${assets}/91001`]: { status: 422, body: docs.assetPatchRefused },
    [`POST ${assets}/batches`]: { body: docs.batchResponse },
    [`POST ${assets}/validation`]: { body: docs.validationResponse },
  });
  client = new SubmissionApiClient({ baseUrl: replay.baseUrl, getToken: () => 'replay-token', retries: 0 });
});
afterAll(async () => {
  await replay.close();
});

describe('the documented answers through the client', () => {
  it('entities and one entity', async () => {
    const list = await client.listEntities();
    expect(lostKeys(docs.entitiesList, list)).toEqual([]);
    expect(lostKeys(docs.entity, await client.getEntity(E))).toEqual([]);
  });

  it('certification schemes with country and status; energy ratings with id and name only', async () => {
    const schemes = await client.certifications();
    expect(lostKeys(docs.certificationsList, schemes)).toEqual([]);
    expect(schemes.find((s) => s.id === 585)).toMatchObject({ levels: [], country: 'JP', status: 'both' });
    const ratings = await client.energyRatings();
    expect(lostKeys(docs.energyRatingsList, ratings)).toEqual([]);
    expect(ratings[0]).toEqual({ id: 66, name: 'BBC Effinergie', levels: [] });
  });

  it('lists: summaries with updated_at, items of {label, value}', async () => {
    expect(lostKeys(docs.listsSummaries, await client.lists())).toEqual([]);
    const country = await client.list('country');
    expect(lostKeys(docs.countryList, country)).toEqual([]);
    expect(country.items[0]).toEqual({ label: 'Afghanistan', value: 'AF' });
  });

  it('a page of assets: size 5000.0, ownership null, certification level null', async () => {
    const { assets: got, meta } = await client.listAssetsPage(E, 1);
    expect(meta.total).toBe(2);
    expect(lostKeys(JSON.parse(docs.assetsListText), got)).toEqual([]);
    expect(got[1]).toMatchObject({ size: 5000, ownership: null });
    expect(got[1]?.certifications[0]?.level).toBeNull();
  });

  it('older answers: string partners ids, asset_ownership and asset_size, names inside annual data', async () => {
    const history = await clientFor('history').listAssetsPage(E, 1);
    expect(lostKeys(JSON.parse(docs.historicalAssetsListText), history.assets)).toEqual([]);
    const [first, second] = history.assets as [Asset, Asset];
    // Kept as the service sent it, and our fields read from the older names where ours are missing.
    expect(first.partners_id).toBe('USGOV_DC456123G');
    expect(first).toMatchObject({
      ownership: 55,
      size: 5000,
      name: 'API Created Asset',
      property_type_code: 'HTL',
    });
    expect((first as Record<string, unknown>)['asset_ownership']).toBe(55);
    expect(second.name).toBe('The White House');
    expect(second.property_type_code).toBe('HTL');
  });

  it('an older GET of one asset with asset_size "5000.0"', async () => {
    const got = await client.getAsset(E, 357239);
    expect(lostKeys(JSON.parse(docs.historicalAssetGetText), got)).toEqual([]);
    expect(got.size).toBe(5000);
    expect(got.asset_size).toBe('5000.0');
  });

  it('an asset with outliers: decimal strings, no name, a bare certification', async () => {
    const history = await clientFor('outliers').listAssetsPage(E, 1);
    expect(lostKeys(JSON.parse(docs.outliersAssetsListText), history.assets)).toEqual([]);
    expect(history.assets[0]?.size).toBe(6000);
    expect(history.assets[0]?._outliers.map((o) => o.value)).toEqual([
      '2.5627716',
      '-28.20623403',
      '-95.59816432',
    ]);
  });

  it("DELETE's last snapshot", async () => {
    const got = await client.deleteAsset(E, 91001);
    expect(lostKeys(JSON.parse(docs.assetDeleteText), got)).toEqual([]);
    expect(got.name).toBeNull();
  });

  it('a batch answer: always_created with asset_size "is not a number", deleted items with _validations', async () => {
    const got = await client.postBatch(E, { delete: [{ service_asset_id: 94005 }] });
    expect(got.deleted.map((a) => a.service_asset_id)).toEqual([94005, 94006]);
    expect(lostKeys(docs.batchResponse, got)).toEqual([]);
    expect(got.always_created[0]?._validations?.errors).toEqual({ asset_size: ['is not a number'] });
    expect(got.counts).toEqual(docs.batchResponse.counts);
  });

  it('the validation answer: a new asset with null id and dates; an invalid update', async () => {
    const got = await client.validate(E, { update: [{ service_asset_id: 91002 }] });
    expect(lostKeys(docs.validationResponse, got)).toEqual([]);
    expect(got.valid[0]?.service_asset_id).toBeNull();
    expect(got.invalid[0]?.service_asset_id).toBe(91002);
  });

  it("learns the service's name from its first answer and writes every later request with it", async () => {
    const fresh = new SubmissionApiClient({
      baseUrl: replay.baseUrl,
      getToken: () => 'replay-token',
      retries: 0,
    });
    // Before any answer: our spec's name, as a client without a connection assumes.
    expect(fresh.assetIds.state).toEqual({ name: 'service_asset_id', source: 'assumed' });
    await fresh.listAssetsPage(E, 1);
    expect(fresh.assetIds.state).toEqual({ name: 'gresb_asset_id', source: 'learned' });
    const from = replay.requests.length;
    await fresh.postBatch(E, {
      update: [
        {
          service_asset_id: 91001,
          city: 'Haarlem',
          lat: 52.38,
          annual_data: [{ year: docs.Y1, owned_entire_period: false, en_tot_wf: 5 }],
        },
      ],
      always_update: [{ service_asset_id: 91002, address: 'Elsewhere' }],
      delete: [{ service_asset_id: 94005 }],
    });
    await fresh.validate(E, { update: [{ service_asset_id: 91002, lng: 4.9 }] });
    await fresh.deleteAsset(E, 91001);
    const sent = replay.requests.slice(from);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${assets}/batches`,
      `POST ${assets}/validation`,
      `DELETE ${assets}/91001`,
    ]);
    expect(sent[0]?.body).toEqual({
      update: [{ gresb_asset_id: 91001, city: 'Haarlem', annual_data: [{ year: docs.Y1, en_tot_wf: 5 }] }],
      always_update: [{ gresb_asset_id: 91002, address: 'Elsewhere' }],
      delete: [{ gresb_asset_id: 94005 }],
    });
    expect(sent[1]?.body).toEqual({ update: [{ gresb_asset_id: 91002 }] });
  });

  it('a refused PATCH (422) is an error naming why, carrying the annual errors', async () => {
    const response = await fetch(`${replay.baseUrl}${assets}/91001`, { method: 'PATCH', body: '{}' });
    expect(response.status).toBe(422);
    const body = (await response.json()) as typeof docs.assetPatchRefused;
    expect(body.annual_data[0]?._validations.errors.wat_tot_w).toEqual(['must be equal to size']);
  });
});

describe('older answers pulled into a workspace', () => {
  it('keep every field the app does not know, shown as extra fields, and never send them back changed', async () => {
    const { store } = tempWorkspace('docs-history');
    const { engine } = makeEngine(store, clientFor('history'), E);
    const summary = await engine.pull();
    expect(summary.added).toBe(2);
    const record = store.assetByServiceId(92001);
    const doc = record?.current as Record<string, unknown>;
    expect(doc['partners_id']).toBe('USGOV_DC456123G');
    expect(extraFields(doc, 'asset')).toEqual([['asset_ownership', 55]]);
    const annual = (doc['annual_data'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(extraFields(annual, 'annual').map(([key]) => key)).toEqual([
      'asset_size',
      'asset_name',
      'property_type_code',
    ]);
    // An edit sends only what changed: the older fields stay on the service as they are.
    store.setValue(record!.localId, 'city', 'Haarlem');
    const work = pendingOf(store);
    expect(work.updates[0]?.patch).toEqual({ service_asset_id: 92001, city: 'Haarlem' });
    store.close();
  });
});

describe("the docs' answers through a sync", () => {
  it('pulls the documented listing, and sends edits and deletes named gresb_asset_id without the removed fields', async () => {
    const { store } = tempWorkspace('docs-sync');
    const sync = new SubmissionApiClient({
      baseUrl: replay.baseUrl,
      getToken: () => 'replay-token',
      retries: 0,
    });
    const { engine } = makeEngine(store, sync, E);
    expect((await engine.pull()).added).toBe(2);
    const first = store.assetByServiceId(91001);
    const second = store.assetByServiceId(91002);
    // The workspace keeps the id under its one name, whichever name brought it.
    expect(first?.current?.['gresb_asset_id']).toBeUndefined();
    store.setValue(first!.localId, 'city', 'Haarlem');
    store.setValue(first!.localId, 'lat', 52.38);
    store.deleteAsset(second!.localId);
    const from = replay.requests.length;
    await engine.sync({ mode: 'always' });
    const batch = replay.requests.slice(from).find((r) => r.path === `${assets}/batches`);
    const body = batch?.body as Record<string, Array<Record<string, unknown>>>;
    expect(body['always_update']).toEqual([{ gresb_asset_id: 91001, city: 'Haarlem' }]);
    expect(body['delete']).toEqual([{ gresb_asset_id: 91002 }]);
    expect(JSON.stringify(body)).not.toMatch(/service_asset_id|"lat"|"lng"|owned_entire_period/);
    store.close();
  });
});
