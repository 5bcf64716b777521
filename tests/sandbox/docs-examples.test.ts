import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsAssetBody } from '../fixtures/service-docs/assets';
import { asJson, asList, assessmentYear, startHarness, type Harness, type Json } from './helpers';

/**
 * Every request the real service's docs publish for the asset side gets the documented outcome from
 * the sandbox. Where the docs trimmed required fields "for brevity", the fixture gives them and says so.
 */

let h: Harness;
const years = [assessmentYear - 1, assessmentYear - 2] as const;
const assetsPath = (): string => `/api/v1/entities/${h.entityId}/assets`;
const errorsOf = (record: unknown): Json => asJson(asJson(asJson(record)['_validations'])['errors']);
let n = 0;
/** The docs' asset under a name of its own: names are unique per entity. */
const docsAsset = (extra: Json = {}): Json => ({
  ...docsAssetBody(years),
  name: `API Created Asset ${++n}`,
  ...extra,
});

/**
 * Both namings: the sandbox's default (our spec's `service_asset_id`) and its real-names mode, which
 * takes and answers the docs' requests as the docs write them (`gresb_asset_id`).
 */
describe.each([
  { names: "our spec's names", realNames: false, ID: 'service_asset_id' },
  { names: "the real service's names", realNames: true, ID: 'gresb_asset_id' },
])("the docs' asset requests ($names)", ({ realNames, ID }) => {
  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 1000, windowMs: 60_000 }, realNames });
  });
  afterAll(async () => {
    await h.close();
  });

  it('POST an asset with totals only (no abs, no cov): created, empty _validations at every level', async () => {
    const r = await h.api('POST', assetsPath(), { body: docsAsset() });
    expect(r.status).toBe(201);
    const a = asJson(r.body);
    expect(a[ID]).toEqual(expect.any(Number));
    expect(a['_validations']).toEqual({ errors: {} });
    for (const rec of asList(a['annual_data'])) expect(rec['_validations']).toEqual({ errors: {} });
    expect(asList(a['certifications'])[0]).toMatchObject({
      certification_id: 598,
      name: 'BCA Green Mark/Existing Buildings',
      level: 'Platinum',
      year: 2017,
      _validations: { errors: {} },
    });
    // The service echoes size as asset_size, a decimal string.
    expect(a['asset_size']).toBe('5000.0');
  });

  it('PATCH size 5000 -> 6000 on a tenant-controlled asset: refused with the documented errors, not recorded', async () => {
    const created = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const path = `${assetsPath()}/${String(created[ID])}`;
    const r = await h.api('PATCH', path, {
      body: { [ID]: created[ID], size: 6000 },
    });
    expect(r.status).toBe(422);
    const body = asJson(r.body);
    expect(body['size']).toBe(6000);
    for (const rec of asList(body['annual_data'])) {
      expect(errorsOf(rec)['ghg_tot_s3_w']).toContain(
        'Must be equal to size if the whole building is tenant controlled',
      );
      expect(errorsOf(rec)['wat_tot_w']).toEqual(['must be equal to size']);
    }
    expect(asJson((await h.api('GET', path)).body)['size']).toBe(5000);
  });

  it('PATCH adding a certification the service does not know: `certification` "must exist"', async () => {
    const created = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const r = await h.api('PATCH', `${assetsPath()}/${String(created[ID])}`, {
      body: { certifications: [{ certification_id: 999, level: 'GoldPlus', size: 123, year: 2017 }] },
    });
    expect(r.status).toBe(422);
    const added = asList(asJson(r.body)['certifications']).find((c) => c['certification_id'] === 999);
    expect(errorsOf(added)).toEqual({ certification: ['must exist'] });
  });

  it('PATCH adding two energy ratings (57 and 66): both stored with ids', async () => {
    const created = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const r = await h.api('PATCH', `${assetsPath()}/${String(created[ID])}`, {
      body: {
        energy_ratings: [
          { energy_rating_id: 57, size: 123 },
          { energy_rating_id: 66, size: 456 },
        ],
      },
    });
    expect(r.status).toBe(200);
    const ratings = asList(asJson(r.body)['energy_ratings']);
    expect(ratings.map((x) => [x['energy_rating_id'], x['size']])).toEqual([
      [57, 123],
      [66, 456],
    ]);
    for (const x of ratings) expect(x['id']).toEqual(expect.any(Number));
  });

  it('a batch of create, always_create, update, always_update and two deletes: counts 1/1/1/1/2/0/0', async () => {
    const toUpdate = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const toAlwaysUpdate = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const del1 = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const del2 = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const body = {
      // The docs leave ownership out of this create "for brevity"; it is required on create.
      create: [
        {
          ...docsAssetBody(years),
          name: 'The White House',
          country: 'US',
          state_province: 'DC',
          city: 'Washington, DC',
          address: '1600 Pennsylvania Avenue NW',
          ownership: 100,
          annual_data: [docsAssetBody(years).annual_data[0]],
        },
      ],
      always_create: [
        {
          country: 'US',
          state_province: 'DC',
          city: 'Washington, DC',
          name: 'The White House 2',
          property_type_code: 'HTL',
          annual_data: [{ year: years[0] }],
        },
      ],
      update: [
        {
          [ID]: toUpdate[ID],
          address: '1600 Pennsylvania Avenue NW',
          name: 'The Grand White House',
          property_type_code: 'HTL',
          annual_data: [{ year: years[0] }],
        },
      ],
      always_update: [
        {
          [ID]: toAlwaysUpdate[ID],
          address: '1600 Pennsylvania Avenue NW',
          name: 'The Pink House',
          annual_data: [{ year: years[1], tenant_ctrl: false }],
        },
      ],
      delete: [{ [ID]: del1[ID] }, { [ID]: del2[ID] }],
    };
    const r = await h.api('POST', `${assetsPath()}/batches`, { body });
    expect(r.status).toBe(200);
    const out = asJson(r.body);
    expect(out['counts']).toEqual({
      created: 1,
      always_created: 1,
      updated: 1,
      always_updated: 1,
      deleted: 2,
      invalid: 0,
      not_found: 0,
    });
    const forced = asList(out['always_created'])[0] as Json;
    expect(forced[ID]).toEqual(expect.any(Number));
    expect(forced['size']).toBeNull();
    expect(errorsOf(forced)).toMatchObject({ asset_size: ['is not a number'] });
    expect(errorsOf(asList(forced['annual_data'])[0])).toEqual({ tenant_ctrl: ['must be true or false'] });
    for (const deleted of asList(out['deleted'])) expect(deleted['_validations']).toEqual({ errors: {} });
  });

  it('validation: a complete new asset is valid with null id and dates; tenant_ctrl null is invalid', async () => {
    const existing = asJson((await h.api('POST', assetsPath(), { body: docsAsset() })).body);
    const r = await h.api('POST', `${assetsPath()}/validation`, {
      body: {
        // The docs trim this create to its place and years; the rest of the docs' asset fills it.
        create: [{ ...docsAsset(), country: 'US', state_province: 'DC', city: 'Washington, DC' }],
        update: [
          {
            [ID]: existing[ID],
            address: '1600 Pennsylvania Avenue NW',
            annual_data: [{ year: years[0], tenant_ctrl: null }],
          },
        ],
      },
    });
    expect(r.status).toBe(200);
    const out = asJson(r.body);
    expect(out['counts']).toEqual({ valid: 1, invalid: 1, not_found: 0 });
    expect(asList(out['valid'])[0]).toMatchObject({
      [ID]: null,
      created_at: null,
      updated_at: null,
    });
    const invalid = asList(out['invalid'])[0] as Json;
    const rec = asList(invalid['annual_data']).find((x) => x['year'] === years[0]);
    expect(errorsOf(rec)).toEqual({ tenant_ctrl: ['must be true or false'] });
  });
});
