import { describe, expect, it } from 'vitest';
import type { Asset, AssetInput } from '../../../shared/domain';
import {
  formatLinkHeader,
  mergeAssetPatch,
  pageMetaFromHeaders,
  parseLinkHeader,
  ValidationCache,
  validateAsset,
  withValidations,
} from '../../../shared/domain';
import { createCtx, validAnnual, validAsset } from './fixtures';

const stored: Asset = {
  service_asset_id: 7,
  name: 'Stored',
  country: 'NL',
  state_province: 'NH',
  city: 'Amsterdam',
  ownership: 100,
  size: 5000,
  certifications: [
    { id: 1, certification_id: 1, level: 'Good', size: 100, year: 2020 },
    { id: 2, certification_id: 3, level: 'Gold', size: 100, year: 2021 },
  ],
  annual_data: [{ year: 2023, en_abs_wf: 1 }],
  _outliers: [],
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

describe('mergeAssetPatch', () => {
  it('merges scalars, clears with null, matches annual by year and nested records by id', () => {
    const merged = mergeAssetPatch(stored, {
      service_asset_id: 99,
      city: null,
      annual_data: [
        { year: 2023, en_cov_wf: 2 },
        { year: 2024, en_abs_wf: 3 },
      ],
      certifications: [
        { id: 1, _destroy: '1' },
        { id: 2, level: 'Platinum' },
        { certification_id: 10, size: 5 },
      ],
    });
    expect(merged).toMatchObject({
      service_asset_id: 7,
      city: null,
      name: 'Stored',
      annual_data: [
        { year: 2023, en_abs_wf: 1, en_cov_wf: 2 },
        { year: 2024, en_abs_wf: 3 },
      ],
      certifications: [
        { id: 2, certification_id: 3, level: 'Platinum', size: 100, year: 2021 },
        { certification_id: 10, size: 5 },
      ],
    });
  });
});

describe('withValidations', () => {
  it('puts _validations on all three levels', () => {
    const asset: AssetInput = validAsset({
      name: '',
      annual_data: [validAnnual(2024, { tenant_ctrl: 'no' })],
      certifications: [{ certification_id: 1, size: 1, year: 2020 }],
    });
    const annotated = withValidations(asset, validateAsset(asset, createCtx));
    expect(annotated._validations).toEqual({ errors: { name: ["can't be blank"] } });
    expect(annotated.annual_data?.[0]?._validations).toEqual({
      errors: { tenant_ctrl: ['must be true or false'] },
    });
    expect(annotated.certifications?.[0]?._validations).toEqual({ errors: { level: ["can't be blank"] } });
    expect(annotated.energy_ratings?.[0]?._validations).toEqual({ errors: {} });
    expect(asset._validations).toBeUndefined();
  });
});

describe('ValidationCache (incremental)', () => {
  it('revalidates only the asset whose object changed', () => {
    const cache = new ValidationCache(createCtx);
    const a = validAsset();
    const b = validAsset({ name: 'B' });
    const ra = cache.get('a', a);
    const rb = cache.get('b', b);
    expect(cache.get('a', a)).toBe(ra);
    const edited = { ...b, ownership: 200 };
    const rb2 = cache.get('b', edited);
    expect(rb2).not.toBe(rb);
    expect(rb2.asset).toEqual({ errors: { ownership: ['must be less than or equal to 100'] } });
    expect(cache.get('a', a)).toBe(ra);
    expect(cache.size).toBe(2);
  });
});

describe('pagination headers', () => {
  it('round-trips the link header', () => {
    const link = formatLinkHeader('https://x/api/v1/entities/1/assets', 2, 25, 80);
    expect(parseLinkHeader(link)).toEqual({
      first: 'https://x/api/v1/entities/1/assets?page=1&per_page=25',
      prev: 'https://x/api/v1/entities/1/assets?page=1&per_page=25',
      next: 'https://x/api/v1/entities/1/assets?page=3&per_page=25',
      last: 'https://x/api/v1/entities/1/assets?page=4&per_page=25',
    });
    const headers = new Map([
      ['per-page', '25'],
      ['total', '80'],
      ['link', link],
    ]);
    expect(pageMetaFromHeaders((n) => headers.get(n), 2)).toMatchObject({ page: 2, perPage: 25, total: 80 });
  });
});
