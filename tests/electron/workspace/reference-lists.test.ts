import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listsContext, validateAsset, hasErrors } from '../../../shared/domain';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import {
  readReference,
  refreshReference,
  shippedReference,
} from '../../../electron/workspace/reference-lists';
import { startReplayServer } from '../../support/replay-server';
import * as docs from '../../fixtures/service-docs/assets';
import { assessmentYear } from '../../sandbox/helpers';

let healthy: Awaited<ReturnType<typeof startReplayServer>>;
let broken: Awaited<ReturnType<typeof startReplayServer>>;
const client = (baseUrl: string) =>
  new SubmissionApiClient({ baseUrl, getToken: () => 't', retries: 0, timeoutMs: 5000 });

beforeAll(async () => {
  healthy = await startReplayServer({
    'GET /api/v1/certifications': { body: docs.certificationsList },
    'GET /api/v1/energy_ratings': { body: docs.energyRatingsList },
    'GET /api/v0/lists/equity_asset_type': { body: docs.propertyTypeList },
    'GET /api/v0/lists/country': { body: docs.countryList },
  });
  // Certifications answer; the lists fail (one with a 500, one with an unusable shape).
  broken = await startReplayServer({
    'GET /api/v1/certifications': { body: docs.certificationsList },
    'GET /api/v1/energy_ratings': { body: docs.energyRatingsList },
    'GET /api/v0/lists/equity_asset_type': { status: 500, body: { error: 'boom' } },
    'GET /api/v0/lists/country': { body: { slug: 'country', items: [{ code: 'NL', label: 'Netherlands' }] } },
  });
});
afterAll(async () => {
  await healthy.close();
  await broken.close();
});

describe('reference lists', () => {
  it("take the service's lists, with their labels, when they arrive", async () => {
    const reference = await refreshReference(client(healthy.baseUrl), shippedReference());
    expect(reference.sources).toEqual({
      certifications: 'service',
      energyRatings: 'service',
      propertyTypes: 'service',
      countries: 'service',
    });
    expect(reference.propertyTypes).toEqual(docs.propertyTypeList.items);
    expect(reference.countries).toContainEqual({ label: 'Albania', value: 'AL' });
    expect(reference.problem).toBeUndefined();
    expect(reference.fetchedAt).toEqual(expect.any(String));
  });

  it('keep what the workspace had for each list that fails, and say which and why', async () => {
    const before = await refreshReference(client(healthy.baseUrl), shippedReference());
    const after = await refreshReference(client(broken.baseUrl), before);
    expect(after.propertyTypes).toEqual(before.propertyTypes);
    expect(after.countries).toEqual(before.countries);
    expect(after.sources.propertyTypes).toBe('service');
    expect(after.problem).toMatch(/property types .*500|property types/);
    expect(after.problem).toMatch(/countries \(.*items\.0\.value/);
    expect(after.problem).toMatch(/cached at the last refresh/);
  });

  it('fall back to the shipped lists when nothing was cached, and then list checks only warn', async () => {
    const reference = await refreshReference(client(broken.baseUrl), readReference(undefined));
    expect(reference.sources.propertyTypes).toBe('shipped');
    expect(reference.sources.certifications).toBe('service');
    expect(reference.problem).toMatch(/built-in lists stand in/);
    const ctx = {
      mode: 'create' as const,
      assessmentYear,
      areaUnit: 'm2' as const,
      ...listsContext(reference),
    };
    expect(ctx.listSource).toBe('shipped');
    const asset = {
      name: 'A',
      country: 'NL',
      state_province: 'NH',
      city: 'Amsterdam',
      ownership: 100,
      size: 100,
      property_type_code: 'SOME_SERVICE_CODE',
    };
    const result = validateAsset(asset, ctx);
    expect(hasErrors(result)).toBe(false);
    expect(result.asset.warnings?.['property_type_code']).toHaveLength(1);
  });

  it('read an older cache: its schemes kept, its invented property types replaced by the shipped list', () => {
    const legacy = {
      certifications: [{ id: 3, name: 'LEED BD+C', levels: ['Gold'] }],
      energyRatings: [],
      propertyTypes: [{ code: 'OFF', label: 'Office' }],
    };
    const reference = readReference(legacy);
    expect(reference.certifications).toEqual([{ id: 3, name: 'LEED BD+C', levels: ['Gold'] }]);
    expect(reference.sources.certifications).toBe('service');
    expect(reference.sources.propertyTypes).toBe('shipped');
    expect(reference.propertyTypes.map((p) => p.value)).toContain('HTL');
    expect(readReference(reference)).toEqual(reference);
    expect(readReference('garbage').sources.countries).toBe('shipped');
  });
});
