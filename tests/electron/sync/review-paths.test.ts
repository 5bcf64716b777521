/** The review's held-back reasons on the grid's paths: the rules' API paths placed by the asset's own records. */
import { describe, expect, it } from 'vitest';
import { docPathOf } from '../../../electron/sync/review';

describe('docPathOf', () => {
  const doc = {
    name: 'Harbour Depot',
    annual_data: [{ year: 2023 }, { year: 2024 }],
    certifications: [{ id: 7, certification_id: 2 }, { _key: 'k1' }],
    energy_ratings: [{ id: 3 }],
  };

  it('places annual records by their year and entries by their id or new key', () => {
    expect(docPathOf(doc, 'annual_data[1].en_cov_wf')).toBe('annual_data/2024/en_cov_wf');
    expect(docPathOf(doc, 'certifications[0].year')).toBe('certifications/id:7/year');
    expect(docPathOf(doc, 'certifications[1].year')).toBe('certifications/new:k1/year');
    expect(docPathOf(doc, 'energy_ratings[0].level')).toBe('energy_ratings/id:3/level');
  });

  it("reads the service's asset_size as the floor area, and leaves what it cannot place", () => {
    expect(docPathOf(doc, 'asset_size')).toBe('size');
    expect(docPathOf(doc, 'city')).toBe('city');
    expect(docPathOf(doc, 'annual_data[9].en_cov_wf')).toBe('annual_data[9].en_cov_wf');
    expect(docPathOf(null, 'certifications[0].year')).toBe('certifications[0].year');
  });
});
