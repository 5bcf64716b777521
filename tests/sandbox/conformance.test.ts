import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asJson, asList, assessmentYear, startHarness, validAsset, type Harness, type Json } from './helpers';

/**
 * Walks docs/spec submission-service.md section by section; each test is one statement of the
 * spec, named "<section>: <statement>".
 */
let h: Harness;
let n = 0;
const nextN = (): number => ++n;
const assetsPath = (): string => `/api/v1/entities/${h.entityId}/assets`;
const create = async (extra: Json = {}): Promise<Json> => {
  const r = await h.api('POST', assetsPath(), { body: validAsset(nextN(), extra) });
  expect(r.status).toBe(201);
  return asJson(r.body);
};

beforeAll(async () => {
  h = await startHarness({ rateLimit: { limit: 1000, windowMs: 60_000 } });
});
afterAll(async () => {
  await h.close();
});

describe('Resources and their fields', () => {
  it('Entity: has id, name, manager, hq_country_code, hq_country_name, address, reporting_preferences, created_at, updated_at', async () => {
    const e = asJson((await h.api('GET', `/api/v1/entities/${h.entityId}`)).body);
    for (const k of [
      'id',
      'name',
      'manager',
      'hq_country_code',
      'hq_country_name',
      'address',
      'reporting_preferences',
      'created_at',
      'updated_at',
    ]) {
      expect(e).toHaveProperty(k);
    }
    expect(Object.keys(asJson(e['reporting_preferences'])).sort()).toEqual(
      [
        'area_units_name',
        'currency',
        'reporting_period',
        'reporting_period_month',
        'reporting_period_month_name',
      ].sort(),
    );
  });

  it('Asset: service_asset_id is an integer generated on creation', async () => {
    const a = await create({ service_asset_id: 999_999 });
    expect(Number.isInteger(a['service_asset_id'])).toBe(true);
    expect(a['service_asset_id']).not.toBe(999_999);
  });

  it('Asset: a response carries every asset field, _outliers and timestamps', async () => {
    const a = await create();
    for (const k of [
      'service_asset_id',
      'partners_id',
      'name',
      'country',
      'state_province',
      'city',
      'address',
      'lat',
      'lng',
      'construction_year',
      'ownership',
      'ownership_from',
      'ownership_to',
      'property_type_code',
      'gav',
      'size',
      'certifications',
      'annual_data',
      '_outliers',
      'created_at',
      'updated_at',
      '_validations',
    ]) {
      expect(a).toHaveProperty(k);
    }
    expect(a['lat']).toBeNull();
    expect(a['_outliers']).toEqual([]);
  });

  it('Asset: name longer than 255 characters is a validation error', async () => {
    const r = await h.api('POST', assetsPath(), { body: validAsset(nextN(), { name: 'x'.repeat(256) }) });
    expect(r.status).toBe(422);
    expect(asJson(asJson(r.body)['_validations'])['errors']).toHaveProperty('name');
  });

  it('Certification: name is returned in responses and id assigned on creation', async () => {
    const a = await create({
      certifications: [{ certification_id: 3, level: 'Gold', size: 800, year: 2020 }],
    });
    const c = asList(a['certifications'])[0] as Json;
    expect(Number.isInteger(c['id'])).toBe(true);
    expect(c['name']).toBe('LEED BD+C');
  });

  it('Certification: level is required when the certification has levels', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { certifications: [{ certification_id: 3, size: 800 }] }),
    });
    expect(r.status).toBe(422);
    const c = asList(asJson(r.body)['certifications'])[0] as Json;
    expect(asJson(asJson(c['_validations'])['errors'])).toHaveProperty('level');
  });

  it('Certification: certification_id and size are required', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { certifications: [{ level: 'Gold' }] }),
    });
    expect(r.status).toBe(422);
    const errs = asJson(
      asJson((asList(asJson(r.body)['certifications'])[0] as Json)['_validations'])['errors'],
    );
    expect(errs).toHaveProperty('certification_id');
    expect(errs).toHaveProperty('size');
  });

  it('Annual data: a record per year is created when none exists, and updated when it does', async () => {
    const a = await create();
    const id = a['service_asset_id'] as number;
    const r = await h.api('PATCH', `${assetsPath()}/${id}`, {
      body: {
        annual_data: [
          { year: assessmentYear, en_abs_we: 160_000 },
          { year: assessmentYear - 2, tenant_ctrl: false, wat_abs_w: 500, wat_cov_w: 1000, wat_tot_w: 1000 },
        ],
      },
    });
    expect(r.status).toBe(200);
    const annual = asList(asJson(r.body)['annual_data']);
    expect(annual.map((x) => x['year'])).toEqual([assessmentYear - 2, assessmentYear - 1, assessmentYear]);
    const current = annual.find((x) => x['year'] === assessmentYear) as Json;
    expect(current['en_abs_we']).toBe(160_000);
    expect(current['en_cov_we']).toBe(1000);
  });

  it('Annual data: submissions may cover up to 5 years before the assessment year, not more', async () => {
    const ok = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { annual_data: [{ year: assessmentYear - 5, tenant_ctrl: false }] }),
    });
    expect(ok.status).toBe(201);
    const bad = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { annual_data: [{ year: assessmentYear - 6, tenant_ctrl: false }] }),
    });
    expect(bad.status).toBe(422);
  });

  it('Annual data: each element carries _validations', async () => {
    const a = await create();
    for (const rec of asList(a['annual_data'])) expect(rec).toHaveProperty('_validations');
  });

  it('Annual data: a wrongly formatted date is rejected; empty values are exempt', async () => {
    const bad = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { ownership_from: '01/02/2024' }),
    });
    expect(bad.status).toBe(422);
    expect(asJson(asJson(asJson(bad.body)['_validations'])['errors'])).toHaveProperty('ownership_from');
    const badAnnual = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { annual_data: [{ year: assessmentYear, en_data_from: '2024-13-01' }] }),
    });
    expect(badAnnual.status).toBe(422);
    const empty = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { ownership_from: '', ownership_to: null }),
    });
    expect(empty.status).toBe(201);
  });

  it('Outlier: kpi, type, accepted and a decimal string value; computed after create', async () => {
    const a = await create({
      annual_data: [
        {
          year: assessmentYear - 1,
          tenant_ctrl: false,
          en_abs_we: 150_000,
          en_cov_we: 1000,
          en_tot_we: 1000,
        },
        { year: assessmentYear, tenant_ctrl: false, en_abs_we: 900_000, en_cov_we: 1000, en_tot_we: 1000 },
      ],
    });
    const outliers = asList(a['_outliers']);
    expect(outliers.length).toBeGreaterThan(0);
    for (const o of outliers) {
      expect(['en', 'ghg', 'was', 'wat']).toContain(o['kpi']);
      expect(['lfl', 'intensity']).toContain(o['type']);
      expect(typeof o['accepted']).toBe('boolean');
      expect(o['value']).toMatch(/^-?\d+(\.\d+)?$/);
    }
  });

  it('Outlier: checks run again after an update', async () => {
    const a = await create();
    expect(a['_outliers']).toEqual([]);
    const r = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { annual_data: [{ year: assessmentYear, en_abs_we: 2_000_000 }] },
    });
    expect(r.status).toBe(200);
    expect(asList(asJson(r.body)['_outliers']).length).toBeGreaterThan(0);
  });
});

describe('Endpoints', () => {
  it('Endpoint list: GET /certifications (v1) answers 200 with the schemes', async () => {
    const r = await h.api('GET', '/api/v1/certifications');
    expect(r.status).toBe(200);
    // The docs' shape: id, name, levels when the scheme has them, country, status.
    const schemes = asList(r.body);
    expect(schemes.find((x) => x['id'] === 598)).toEqual({
      id: 598,
      name: 'BCA Green Mark/Existing Buildings',
      levels: ['Platinum', 'GoldPlus', 'Gold', 'Certified'],
      country: 'SG',
      status: 'operational',
    });
    for (const scheme of schemes)
      expect(scheme).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
  });

  it('Endpoint list: GET /energy_ratings (v1, domain notes) answers 200', async () => {
    const r = await h.api('GET', '/api/v1/energy_ratings');
    expect(r.status).toBe(200);
    expect(asList(r.body).length).toBeGreaterThan(0);
  });

  it('Endpoint list: GET /lists and /lists/:slug (v0) serve property types and countries', async () => {
    const lists = asList((await h.api('GET', '/api/v0/lists')).body);
    // The docs' slugs and shapes: summaries {slug, name, updated_at}; one list adds items {label, value}.
    expect(lists.map((l) => l['slug'])).toEqual(
      expect.arrayContaining(['equity_asset_type', 'location', 'country']),
    );
    for (const l of lists) expect(Object.keys(l).sort()).toEqual(['name', 'slug', 'updated_at']);
    const pt = asJson((await h.api('GET', '/api/v0/lists/equity_asset_type')).body);
    expect(asList(pt['items'])).toContainEqual({ label: 'Hotel', value: 'HTL' });
    const country = asJson((await h.api('GET', '/api/v0/lists/country')).body);
    expect(country).toMatchObject({
      slug: 'country',
      name: 'Country (ISO3166)',
      updated_at: expect.any(String),
    });
    expect(asList(country['items'])).toContainEqual({ label: 'Afghanistan', value: 'AF' });
    expect((await h.api('GET', '/api/v0/lists/nope')).status).toBe(404);
  });

  it('Endpoints: request and response bodies are JSON', async () => {
    const r = await h.api('GET', '/api/v1/entities');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('Verb semantics: GET never modifies data', async () => {
    const a = await create();
    const path = `${assetsPath()}/${String(a['service_asset_id'])}`;
    const first = (await h.api('GET', path)).body;
    const second = (await h.api('GET', path)).body;
    expect(second).toEqual(first);
  });

  it('GET /entities: returns the entities the data partner can access', async () => {
    const r = await h.api('GET', '/api/v1/entities');
    expect(r.status).toBe(200);
    const ids = asList(r.body).map((e) => e['id']);
    expect(ids).toContain(h.entityId);
    expect(ids).not.toContain(h.otherEntityId);
  });

  it('GET /entities/{entity_id}: returns one Entity object', async () => {
    const r = await h.api('GET', `/api/v1/entities/${h.entityId}`);
    expect(r.status).toBe(200);
    expect(asJson(r.body)['id']).toBe(h.entityId);
  });

  it('GET assets: a paginated JSON array with annual data; per_page defaults to 25', async () => {
    for (let i = 0; i < 30; i++) await create();
    const r = await h.api('GET', assetsPath());
    expect(r.status).toBe(200);
    expect(asList(r.body)).toHaveLength(25);
    expect(r.headers.get('per-page')).toBe('25');
    expect(asList(r.body)[0]).toHaveProperty('annual_data');
  });

  it('GET assets: per_page is at most 100', async () => {
    const r = await h.api('GET', `${assetsPath()}?per_page=500`);
    expect(r.headers.get('per-page')).toBe('100');
  });

  it('GET assets: headers per-page, total and link (first, prev, next, last as applicable)', async () => {
    const total = Number((await h.api('GET', `${assetsPath()}?per_page=10`)).headers.get('total'));
    expect(total).toBeGreaterThan(20);
    const first = await h.api('GET', `${assetsPath()}?per_page=10`);
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    expect(first.headers.get('link')).toMatch(/rel="last"/);
    expect(first.headers.get('link')).not.toMatch(/rel="prev"/);
    const middle = await h.api('GET', `${assetsPath()}?per_page=10&page=2`);
    for (const rel of ['first', 'prev', 'next', 'last'])
      expect(middle.headers.get('link')).toContain(`rel="${rel}"`);
    const lastPage = Math.ceil(total / 10);
    const last = await h.api('GET', `${assetsPath()}?per_page=10&page=${lastPage}`);
    expect(last.headers.get('link')).not.toMatch(/rel="next"/);
    expect(asList(last.body).length).toBe(total - (lastPage - 1) * 10);
    // The next link can be followed as given.
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
    const followed = await fetch(next, { headers: { authorization: `Bearer ${h.token}` } });
    expect(followed.status).toBe(200);
  });

  it('GET assets: a malformed page parameter is a 400', async () => {
    const r = await h.api('GET', `${assetsPath()}?page=abc`);
    expect(r.status).toBe(400);
    expect(asJson(r.body)).toMatchObject({ error: 'bad_request', message: expect.any(String) });
  });

  it('GET assets: certification entries in list responses carry _validations', async () => {
    await create({ certifications: [{ certification_id: 10, size: 500, year: 2020 }] });
    const all = asList((await h.api('GET', `${assetsPath()}?per_page=100`)).body);
    const withCert = all.find((a) => asList(a['certifications']).length > 0) as Json;
    expect(asList(withCert['certifications'])[0]).toHaveProperty('_validations');
  });

  it('GET one asset: returns the asset with annual data; certification entries carry no _validations', async () => {
    const a = await create({ certifications: [{ certification_id: 10, size: 500, year: 2020 }] });
    const r = await h.api('GET', `${assetsPath()}/${String(a['service_asset_id'])}`);
    expect(r.status).toBe(200);
    const body = asJson(r.body);
    expect(asList(body['annual_data'])).toHaveLength(2);
    expect(asList(body['certifications'])[0]).not.toHaveProperty('_validations');
  });

  it('GET one asset: an unknown id is 404', async () => {
    const r = await h.api('GET', `${assetsPath()}/987654`);
    expect(r.status).toBe(404);
    expect(asJson(r.body)['error']).toBe('not_found');
  });

  it('POST assets: name, country, state_province, city and ownership are required', async () => {
    const r = await h.api('POST', assetsPath(), { body: { size: 100 } });
    expect(r.status).toBe(422);
    const errs = asJson(asJson(asJson(r.body)['_validations'])['errors']);
    for (const f of ['name', 'country', 'state_province', 'city', 'ownership'])
      expect(errs).toHaveProperty(f);
  });

  it('POST assets: 201 with _validations at asset, certification and annual-data level', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { certifications: [{ certification_id: 10, size: 500, year: 2020 }] }),
    });
    expect(r.status).toBe(201);
    const a = asJson(r.body);
    expect(a['_validations']).toEqual({ errors: {} });
    expect((asList(a['certifications'])[0] as Json)['_validations']).toEqual({ errors: {} });
    expect((asList(a['annual_data'])[0] as Json)['_validations']).toEqual({ errors: {} });
  });

  it('POST assets: validation failure is a 422 with the full asset and a null service_asset_id; nothing saved', async () => {
    const before = Number((await h.api('GET', assetsPath())).headers.get('total'));
    const r = await h.api('POST', assetsPath(), { body: validAsset(nextN(), { size: 'abc' }) });
    expect(r.status).toBe(422);
    const body = asJson(r.body);
    expect(body['service_asset_id']).toBeNull();
    expect(body['name']).toEqual(expect.any(String));
    expect(asJson(asJson(body['_validations'])['errors'])['asset_size']).toEqual(['is not a number']);
    expect(Number((await h.api('GET', assetsPath())).headers.get('total'))).toBe(before);
  });

  it('Errors: floor-area based annual fields must not exceed size', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), {
        annual_data: [{ year: assessmentYear, en_abs_we: 1, en_cov_we: 2000, en_tot_we: 2000 }],
      }),
    });
    expect(r.status).toBe(422);
    const rec = asList(asJson(r.body)['annual_data'])[0] as Json;
    expect(asJson(asJson(rec['_validations'])['errors'])['en_cov_we']).toContain(
      'Must be less than or equal to size',
    );
  });

  it('Errors: tenant_ctrl must be a boolean', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), { annual_data: [{ year: assessmentYear, tenant_ctrl: 'yes' }] }),
    });
    expect(r.status).toBe(422);
    const rec = asList(asJson(r.body)['annual_data'])[0] as Json;
    expect(asJson(asJson(rec['_validations'])['errors'])['tenant_ctrl']).toEqual(['must be true or false']);
  });

  it('Errors: ownership_from or ownership_to must be present when owned_entire_period is false', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), {
        annual_data: [{ year: assessmentYear, tenant_ctrl: false, owned_entire_period: false }],
      }),
    });
    expect(r.status).toBe(422);
    const ok = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), {
        ownership_from: `${assessmentYear}-02-01`,
        annual_data: [{ year: assessmentYear, tenant_ctrl: false, owned_entire_period: false }],
      }),
    });
    expect(ok.status).toBe(201);
  });

  it('Errors: some fields must equal size when the whole building is tenant controlled', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: validAsset(nextN(), {
        annual_data: [
          { year: assessmentYear, tenant_ctrl: true, ghg_abs_s3_w: 10, ghg_cov_s3_w: 400, ghg_tot_s3_w: 400 },
        ],
      }),
    });
    expect(r.status).toBe(422);
    const rec = asList(asJson(r.body)['annual_data'])[0] as Json;
    expect(asJson(asJson(rec['_validations'])['errors'])['ghg_tot_s3_w']).toEqual([
      'Must be equal to size if the whole building is tenant controlled',
    ]);
  });

  it('PATCH: supplied fields are merged; others stay', async () => {
    const a = await create();
    const r = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { city: 'Haarlem' },
    });
    expect(r.status).toBe(200);
    expect(asJson(r.body)).toMatchObject({ city: 'Haarlem', name: a['name'], size: 1000 });
  });

  it('PATCH: the body may include service_asset_id', async () => {
    const a = await create();
    const r = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { service_asset_id: a['service_asset_id'], address: 'Kade 1' },
    });
    expect(r.status).toBe(200);
  });

  it('PATCH: a value is cleared by setting it to null explicitly', async () => {
    const a = await create();
    const r = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { gav: null, address: null },
    });
    expect(r.status).toBe(200);
    expect(asJson(r.body)).toMatchObject({ gav: null, address: null });
    const annual = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { annual_data: [{ year: assessmentYear, tenant_ctrl: null }] },
    });
    const rec = asList(asJson(annual.body)['annual_data']).find((x) => x['year'] === assessmentYear) as Json;
    expect(rec['tenant_ctrl'] ?? null).toBeNull();
  });

  it('PATCH: an invalid change is not recorded; the response has all fields and errors, status 422', async () => {
    const a = await create();
    const path = `${assetsPath()}/${String(a['service_asset_id'])}`;
    const r = await h.api('PATCH', path, { body: { size: 'big', city: 'Utrecht' } });
    expect(r.status).toBe(422);
    const body = asJson(r.body);
    expect(body['service_asset_id']).toBe(a['service_asset_id']);
    expect(body['country']).toBe('NL');
    expect(asJson(asJson(body['_validations'])['errors'])).toHaveProperty('asset_size');
    expect(asJson((await h.api('GET', path)).body)['city']).toBe('Amsterdam');
  });

  it('PATCH: an asset of another entity is not found', async () => {
    const other = h.server.store;
    const foreign = other.assets.insert(
      h.otherEntityId,
      {
        name: 'Foreign',
        country: 'NL',
        state_province: 'x',
        city: 'y',
        ownership: 100,
        size: 1,
        certifications: [],
        annual_data: [],
      },
      [],
      { asset: { errors: {} }, annualData: [], certifications: [], energyRatings: [] },
      new Date().toISOString(),
    );
    const r = await h.api('PATCH', `${assetsPath()}/${foreign}`, { body: { city: 'z' } });
    expect(r.status).toBe(404);
    expect((await h.api('DELETE', `${assetsPath()}/${foreign}`)).status).toBe(404);
  });

  it('Certification: an entry without id creates a record; with id it changes that one; _destroy removes it', async () => {
    const a = await create({ certifications: [{ certification_id: 10, size: 500, year: 2020 }] });
    const path = `${assetsPath()}/${String(a['service_asset_id'])}`;
    const certId = (asList(a['certifications'])[0] as Json)['id'];
    const changed = asJson(
      (
        await h.api('PATCH', path, {
          body: {
            certifications: [
              { id: certId, size: 600 },
              { certification_id: 16, size: 100, year: 2021 },
            ],
          },
        })
      ).body,
    );
    expect(asList(changed['certifications'])).toHaveLength(2);
    expect(asList(changed['certifications']).find((c) => c['id'] === certId)).toMatchObject({ size: 600 });
    const removed = asJson(
      (await h.api('PATCH', path, { body: { certifications: [{ id: certId, _destroy: '1' }] } })).body,
    );
    expect(asList(removed['certifications']).map((c) => c['certification_id'])).toEqual([16]);
  });

  it('Certification: an id the asset does not have is rejected', async () => {
    const a = await create();
    const r = await h.api('PATCH', `${assetsPath()}/${String(a['service_asset_id'])}`, {
      body: { certifications: [{ id: 424242, size: 5 }] },
    });
    expect(r.status).toBe(422);
  });

  it('DELETE: returns 200 with the deleted asset; annual_data and certifications are empty arrays', async () => {
    const a = await create({ certifications: [{ certification_id: 10, size: 500, year: 2020 }] });
    const path = `${assetsPath()}/${String(a['service_asset_id'])}`;
    const r = await h.api('DELETE', path);
    expect(r.status).toBe(200);
    expect(asJson(r.body)).toMatchObject({
      service_asset_id: a['service_asset_id'],
      name: a['name'],
      annual_data: [],
      certifications: [],
    });
    expect((await h.api('GET', path)).status).toBe(404);
  });

  it('DELETE: is idempotent (a repeat changes nothing and reports the resource gone)', async () => {
    const a = await create();
    const path = `${assetsPath()}/${String(a['service_asset_id'])}`;
    await h.api('DELETE', path);
    const again = await h.api('DELETE', path);
    expect(again.status).toBe(404);
  });

  it('Batches: all five fields, every response key and counts', async () => {
    const upd = await create();
    const alwaysUpd = await create();
    const del = await create();
    const r = await h.api('POST', `${assetsPath()}/batches`, {
      body: {
        create: [validAsset(nextN()), validAsset(nextN(), { size: 'x' })],
        always_create: [validAsset(nextN(), { size: 'x' })],
        update: [
          { service_asset_id: upd['service_asset_id'], city: 'Delft' },
          { service_asset_id: 99_999_999, city: 'x' },
        ],
        always_update: [{ service_asset_id: alwaysUpd['service_asset_id'], ownership: 150 }],
        delete: [{ service_asset_id: del['service_asset_id'] }, { service_asset_id: 88_888_888 }],
      },
    });
    expect(r.status).toBe(200);
    const b = asJson(r.body);
    expect(Object.keys(b).sort()).toEqual([
      'always_created',
      'always_updated',
      'counts',
      'created',
      'deleted',
      'invalid',
      'not_found',
      'updated',
    ]);
    expect(b['counts']).toEqual({
      created: 1,
      always_created: 1,
      updated: 1,
      always_updated: 1,
      deleted: 1,
      invalid: 1,
      not_found: 2,
    });
    expect(Number.isInteger((asList(b['created'])[0] as Json)['service_asset_id'])).toBe(true);
    expect(Number.isInteger((asList(b['always_created'])[0] as Json)['service_asset_id'])).toBe(true);
    expect((asList(b['invalid'])[0] as Json)['_validations']).toBeDefined();
    expect(asList(b['always_updated'])[0]).toMatchObject({ ownership: 150 });
    expect(asList(b['deleted'])[0]).toMatchObject({ annual_data: [], certifications: [] });
  });

  it('Batches: update of an invalid element goes to invalid and is not saved', async () => {
    const a = await create();
    const r = await h.api('POST', `${assetsPath()}/batches`, {
      body: { update: [{ service_asset_id: a['service_asset_id'], ownership: 500 }] },
    });
    expect(asJson(r.body)['counts']).toMatchObject({ updated: 0, invalid: 1 });
    expect(
      asJson((await h.api('GET', `${assetsPath()}/${String(a['service_asset_id'])}`)).body)['ownership'],
    ).toBe(100);
  });

  it('Batches: update without service_asset_id, or with an id of another entity, goes to not_found', async () => {
    const foreign = h.server.store.assets.insert(
      h.otherEntityId,
      {
        name: 'F2',
        country: 'NL',
        state_province: 'x',
        city: 'y',
        ownership: 100,
        size: 1,
        certifications: [],
        annual_data: [],
      },
      [],
      { asset: { errors: {} }, annualData: [], certifications: [], energyRatings: [] },
      new Date().toISOString(),
    );
    const r = await h.api('POST', `${assetsPath()}/batches`, {
      body: {
        update: [{ city: 'x' }, { service_asset_id: foreign, city: 'x' }],
        delete: [{ service_asset_id: foreign }],
      },
    });
    expect(asJson(r.body)['counts']).toMatchObject({ not_found: 3, updated: 0, deleted: 0 });
    expect(h.server.store.assets.get(h.otherEntityId, foreign)).toBeDefined();
  });

  it('Batches: always_create still needs name, country, state_province, city and property_type_code; one missing fails the whole batch', async () => {
    const before = Number((await h.api('GET', assetsPath())).headers.get('total'));
    const missing = validAsset(nextN());
    delete missing['property_type_code'];
    const r = await h.api('POST', `${assetsPath()}/batches`, {
      body: { create: [validAsset(nextN())], always_create: [validAsset(nextN()), missing] },
    });
    expect(r.status).toBe(422);
    expect(asJson(r.body)['counts']).toMatchObject({ created: 0, always_created: 0, invalid: 1 });
    expect(Number((await h.api('GET', assetsPath())).headers.get('total'))).toBe(before);
  });

  it('Batches: a body with none of the five fields performs no operation', async () => {
    const before = Number((await h.api('GET', assetsPath())).headers.get('total'));
    const r = await h.api('POST', `${assetsPath()}/batches`, { body: { something_else: [1] } });
    expect(r.status).toBe(200);
    expect(Object.values(asJson(asJson(r.body)['counts'])).every((v) => v === 0)).toBe(true);
    expect(Number((await h.api('GET', assetsPath())).headers.get('total'))).toBe(before);
  });

  it('Limits: at most 5000 assets per field per request (a clear 400 beyond)', async () => {
    const r = await h.api('POST', `${assetsPath()}/batches`, {
      body: { delete: Array.from({ length: 5001 }, (_, i) => ({ service_asset_id: i + 1 })) },
    });
    expect(r.status).toBe(400);
    expect(asJson(r.body)['message']).toMatch(/delete.*5001.*5000/);
  });

  it('Validation: valid, invalid, not_found and counts; nothing saved', async () => {
    const a = await create();
    const before = Number((await h.api('GET', assetsPath())).headers.get('total'));
    const r = await h.api('POST', `${assetsPath()}/validation`, {
      body: {
        create: [validAsset(nextN()), validAsset(nextN(), { ownership: -1 })],
        update: [
          { service_asset_id: a['service_asset_id'], city: 'Leiden' },
          { service_asset_id: 77_777_777 },
        ],
      },
    });
    expect(r.status).toBe(200);
    const b = asJson(r.body);
    expect(b['counts']).toEqual({ valid: 2, invalid: 1, not_found: 1 });
    expect(Number((await h.api('GET', assetsPath())).headers.get('total'))).toBe(before);
    expect(
      asJson((await h.api('GET', `${assetsPath()}/${String(a['service_asset_id'])}`)).body)['city'],
    ).toBe('Amsterdam');
  });

  it('Validation: new assets in valid have null service_asset_id, created_at and updated_at', async () => {
    const r = await h.api('POST', `${assetsPath()}/validation`, { body: { create: [validAsset(nextN())] } });
    expect(asList(asJson(r.body)['valid'])[0]).toMatchObject({
      service_asset_id: null,
      created_at: null,
      updated_at: null,
    });
  });
});

describe('Authentication', () => {
  it('Access tokens: the token is accepted as Authorization: Bearer', async () => {
    expect((await h.api('GET', '/api/v1/entities')).status).toBe(200);
  });

  it('Access tokens: the token is accepted as the access_token request parameter', async () => {
    const r = await h.api('GET', `/api/v1/entities?access_token=${encodeURIComponent(h.token)}`, {
      token: null,
    });
    expect(r.status).toBe(200);
  });

  it('Access tokens: a token is valid for at most 1 year', () => {
    expect(() =>
      h.admin.createAccessToken({
        dataPartnerId: h.partnerId,
        name: 'x',
        scopes: ['entities'],
        expiresAt: Date.now() + 367 * 24 * 3600_000,
      }),
    ).toThrow(/1 year/);
  });

  it('Access tokens: tokens are stored only as a sha256 hash', () => {
    const rows = h.server.store.db.prepare('SELECT token_hash FROM access_tokens').all() as {
      token_hash: string;
    }[];
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash) && r.token_hash !== h.token)).toBe(true);
  });

  it('Access tokens: tokens can be deleted at any time', async () => {
    const t = h.admin.createAccessToken({
      dataPartnerId: h.partnerId,
      name: 'del',
      scopes: ['entities'],
      expiresAt: Date.now() + 3600_000,
    });
    expect((await h.api('GET', '/api/v1/entities', { token: t.token })).status).toBe(200);
    h.admin.deleteAccessToken(t.id);
    expect((await h.api('GET', '/api/v1/entities', { token: t.token })).status).toBe(401);
  });

  it('Access tokens: entity access is granted per entity and can be revoked', async () => {
    const e = h.admin.createEntity({ name: 'Revocable' });
    expect((await h.api('GET', `/api/v1/entities/${e.id}`)).status).toBe(403);
    h.admin.grantEntityAccess(e.id, h.partnerId);
    expect((await h.api('GET', `/api/v1/entities/${e.id}`)).status).toBe(200);
    h.admin.revokeEntityAccess(e.id, h.partnerId);
    expect((await h.api('GET', `/api/v1/entities/${e.id}`)).status).toBe(403);
  });

  it('Scopes: entities is needed for GET /entities', async () => {
    const t = h.tokenWith(['read:assets']);
    const r = await h.api('GET', '/api/v1/entities', { token: t });
    expect(r.status).toBe(403);
    expect(asJson(r.body)).toMatchObject({
      error: 'forbidden',
      message: expect.stringContaining('entities'),
    });
  });

  it('Scopes: read:assets reads assets but cannot write them', async () => {
    const t = h.tokenWith(['read:assets']);
    expect((await h.api('GET', assetsPath(), { token: t })).status).toBe(200);
    expect((await h.api('POST', assetsPath(), { token: t, body: validAsset(nextN()) })).status).toBe(403);
  });
});

describe('Errors', () => {
  it('HTTP status codes: 401 when credentials are missing or invalid', async () => {
    expect((await h.api('GET', '/api/v1/entities', { token: null })).status).toBe(401);
    const r = await h.api('GET', '/api/v1/entities', { token: 'sbx_nope' });
    expect(r.status).toBe(401);
    expect(asJson(r.body)).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('HTTP status codes: 400 for an invalid request', async () => {
    const r = await h.api('POST', assetsPath(), {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(asJson(r.body)['error']).toBe('bad_request');
  });

  it('Validation error shape: errors maps a field to an array of strings; an empty object when clean', async () => {
    const a = await create();
    expect(a['_validations']).toEqual({ errors: {} });
  });
});

describe('Limits', () => {
  it('Page size: default 25, maximum 100', async () => {
    expect((await h.api('GET', assetsPath())).headers.get('per-page')).toBe('25');
    expect((await h.api('GET', `${assetsPath()}?per_page=101`)).headers.get('per-page')).toBe('100');
  });

  it('Throttling headers on the batch endpoint: X-RateLimit-Remaining, -Limit, -Reset (UTC epoch seconds)', async () => {
    const r = await h.api('POST', `${assetsPath()}/batches`, { body: {} });
    expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(reset).toBeLessThan(Date.now() / 1000 + 120);
  });
});

describe('Versioning', () => {
  it('A request using an older, unsupported API version receives 301', async () => {
    const r = await h.api('GET', `/api/v2/entities/${h.entityId}/assets?page=2`);
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe(`/api/v1/entities/${h.entityId}/assets?page=2`);
    expect((await h.api('GET', '/api/v1beta/entities')).status).toBe(301);
  });

  it('Asset-level endpoints live under v1: asked under v0 they answer 301 to v1', async () => {
    const r = await h.api('GET', '/api/v0/entities');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/v1/entities');
  });

  it('Portfolio-level endpoints (lists) live under v0', async () => {
    expect((await h.api('GET', '/api/v0/lists')).status).toBe(200);
  });
});
