import { describe, expect, it } from 'vitest';
import type { AssetInput } from '../../../shared/domain';
import { computeOutliers, defaultOutlierThresholds } from '../../../shared/domain';

const office = (en2024: number, en2023: number, extra: AssetInput = {}): AssetInput => ({
  property_type_code: 'OCHI',
  size: 1000,
  annual_data: [
    { year: 2024, en_abs_we: en2024, en_cov_we: 1000, en_tot_we: 1000 },
    { year: 2023, en_abs_we: en2023, en_cov_we: 1000, en_tot_we: 1000 },
  ],
  ...extra,
});

describe('computeOutliers', () => {
  it('no outliers for an office inside its ranges and stable', () => {
    expect(computeOutliers(office(200_000, 190_000), { areaUnit: 'm2' })).toEqual([]);
  });

  it('flags intensity above the property-type range and a like-for-like jump', () => {
    expect(computeOutliers(office(900_000, 400_000), { areaUnit: 'm2' })).toEqual([
      { kpi: 'en', type: 'intensity', accepted: false, value: '900.0' },
      { kpi: 'en', type: 'lfl', accepted: false, value: '125.0' },
    ]);
  });

  it('converts square feet to square metres before comparing', () => {
    // 50 kWh/sqft is about 538 kWh/m2: inside the office range once converted.
    expect(computeOutliers(office(50_000, 50_000), { areaUnit: 'sqft' })).toEqual([]);
    expect(computeOutliers(office(50_000, 50_000), { areaUnit: 'm2' })).toEqual([
      { kpi: 'en', type: 'intensity', accepted: false, value: '50.0' },
    ]);
  });

  it('uses per-type ranges (data centres) and keeps an analyst acceptance', () => {
    const dc = office(3_000_000, 3_000_000, {
      property_type_code: 'DATC',
      _outliers: [{ kpi: 'en', type: 'intensity', accepted: true, value: '1.0' }],
    });
    expect(computeOutliers(dc, { areaUnit: 'm2' })).toEqual([]);
    const office2 = office(3_000_000, 3_000_000, {
      _outliers: [{ kpi: 'en', type: 'intensity', accepted: true, value: '1.0' }],
    });
    expect(computeOutliers(office2, { areaUnit: 'm2' })).toEqual([
      { kpi: 'en', type: 'intensity', accepted: true, value: '3000.0' },
    ]);
  });

  it('water, GHG and waste intensities, and a chosen year', () => {
    const asset: AssetInput = {
      property_type_code: 'OCHI',
      size: 1000,
      annual_data: [
        {
          year: 2023,
          wat_abs_w: 10_000,
          wat_cov_w: 1000,
          wat_tot_w: 1000,
          ghg_abs_s1_w: 1000,
          ghg_cov_s1_w: 1000,
          ghg_tot_s1_w: 1000,
          was_abs_nhaz: 500,
        },
      ],
    };
    expect(computeOutliers(asset, { areaUnit: 'm2', year: 2023 })).toEqual([
      { kpi: 'ghg', type: 'intensity', accepted: false, value: '1.0000' },
      { kpi: 'wat', type: 'intensity', accepted: false, value: '10.000' },
      { kpi: 'was', type: 'intensity', accepted: false, value: '0.5000' },
    ]);
    expect(computeOutliers(asset, { areaUnit: 'm2', year: 2024 })).toEqual([]);
  });

  it('thresholds are data', () => {
    const strict = { ...defaultOutlierThresholds, lflMaxChangePercent: 4 };
    expect(computeOutliers(office(200_000, 190_000), { areaUnit: 'm2', thresholds: strict })).toEqual([
      { kpi: 'en', type: 'lfl', accepted: false, value: '5.3' },
    ]);
  });

  it('no annual data, no outliers', () => {
    expect(computeOutliers({}, { areaUnit: 'm2' })).toEqual([]);
  });
});
