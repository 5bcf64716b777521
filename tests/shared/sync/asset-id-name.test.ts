import { describe, expect, it } from 'vitest';
import {
  AssetIdNaming,
  changesAnything,
  fromRealNamesRequest,
  idNameIn,
  toWireAnswer,
  toWireRequest,
  withLocalIdName,
  withRemovedFieldsKept,
  type AssetIdNameState,
} from '../../../shared/sync/asset-id-name';

describe('the asset id on the wire', () => {
  it('reads either name under ours, first, without keeping the real name beside it', () => {
    expect(withLocalIdName({ name: 'A', gresb_asset_id: 7 })).toEqual({ service_asset_id: 7, name: 'A' });
    expect(Object.keys(withLocalIdName({ name: 'A', gresb_asset_id: 7 }) as object)[0]).toBe(
      'service_asset_id',
    );
    const ours = { service_asset_id: 8, name: 'B' };
    expect(withLocalIdName(ours)).toBe(ours);
  });

  it('tells the name from the first asset of a listing, a batch or validation answer, or one asset', () => {
    expect(idNameIn([{ gresb_asset_id: 1 }])).toBe('gresb_asset_id');
    expect(idNameIn({ created: [], deleted: [{ service_asset_id: 2 }], counts: {} })).toBe(
      'service_asset_id',
    );
    expect(idNameIn({ valid: [{ gresb_asset_id: null }] })).toBe('gresb_asset_id');
    expect(idNameIn({ gresb_asset_id: 3 })).toBe('gresb_asset_id');
    expect(idNameIn([])).toBeUndefined();
    expect(idNameIn({ error: 'not_found' })).toBeUndefined();
  });

  it("writes a request with the service's name, without the fields it removed; our spec's name leaves it as it is", () => {
    const body = {
      update: [
        {
          service_asset_id: 5,
          lat: 1,
          lng: 2,
          city: 'X',
          annual_data: [{ year: 2024, owned_entire_period: true, en: 1 }, { year: 2023 }],
        },
      ],
      delete: [{ service_asset_id: 6 }],
    };
    expect(toWireRequest(body, 'gresb_asset_id')).toEqual({
      update: [{ gresb_asset_id: 5, city: 'X', annual_data: [{ year: 2024, en: 1 }, { year: 2023 }] }],
      delete: [{ gresb_asset_id: 6 }],
    });
    expect(toWireRequest(body, 'service_asset_id')).toBe(body);
    // The sandbox in real-names mode reads it back: the id under ours, our stand-in name meaning nothing.
    expect(fromRealNamesRequest({ delete: [{ gresb_asset_id: 6 }, { service_asset_id: 9 }] })).toEqual({
      delete: [{ service_asset_id: 6 }, {}],
    });
    expect(fromRealNamesRequest({ gresb_asset_id: 4, lat: 1, city: 'Y' })).toEqual({
      service_asset_id: 4,
      city: 'Y',
    });
    expect(toWireAnswer([{ service_asset_id: 1, lat: null }], 'gresb_asset_id')).toEqual([
      { gresb_asset_id: 1 },
    ]);
  });

  it('an update of only removed fields changes nothing the real service takes', () => {
    expect(changesAnything({ service_asset_id: 1, lat: 3 }, 'gresb_asset_id')).toBe(false);
    expect(
      changesAnything(
        { service_asset_id: 1, annual_data: [{ year: 2024, owned_entire_period: false }] },
        'gresb_asset_id',
      ),
    ).toBe(false);
    expect(changesAnything({ service_asset_id: 1, lat: 3 }, 'service_asset_id')).toBe(true);
    expect(changesAnything({ service_asset_id: 1, city: 'Z' }, 'gresb_asset_id')).toBe(true);
  });

  it("keeps the workspace's removed fields in a copy from a service that never sends them", () => {
    const base = { lat: 52, lng: null, annual_data: [{ year: 2024, owned_entire_period: false }] };
    expect(withRemovedFieldsKept({ city: 'A', annual_data: [{ year: 2024, en: 1 }] }, base)).toEqual({
      city: 'A',
      lat: 52,
      annual_data: [{ year: 2024, en: 1, owned_entire_period: false }],
    });
    expect(withRemovedFieldsKept({ city: 'A' }, { city: 'B' })).toBeUndefined();
  });

  it('learns from answers over what was stated or assumed, and tells only a change', () => {
    const told: AssetIdNameState[] = [];
    const naming = new AssetIdNaming({ name: 'gresb_asset_id', source: 'assumed' }, (s) => told.push(s));
    naming.learn(undefined);
    expect(told).toEqual([]);
    naming.learn('gresb_asset_id');
    naming.learn('gresb_asset_id');
    expect(told).toEqual([{ name: 'gresb_asset_id', source: 'learned' }]);
    const stated = new AssetIdNaming({ name: 'service_asset_id', source: 'stated' }, (s) => told.push(s));
    stated.learn('service_asset_id');
    expect(told).toHaveLength(1);
    stated.learn('gresb_asset_id');
    expect(stated.state).toEqual({ name: 'gresb_asset_id', source: 'learned' });
  });
});
