import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssetInput } from '../../../shared/domain';
import { assetFigures } from '../../../shared/portfolio/asset-figures';
import { PortfolioModel } from '../../../shared/portfolio/portfolio-model';

const year = (y: number, extra: Record<string, unknown> = {}) => ({
  year: y,
  tenant_ctrl: false,
  ncmr_status: 'Standing Investment',
  owned_entire_period: true,
  en_abs_we: 100_000,
  en_cov_we: 1000,
  en_tot_we: 1000,
  ...extra,
});
const asset = (name: string, extra: Partial<AssetInput> = {}): AssetInput => ({
  name,
  country: 'NL',
  property_type_code: 'OCHI',
  size: 1000,
  gav: 10,
  annual_data: [year(2023), year(2024)],
  ...extra,
});

describe('asset figures', () => {
  it.each([
    ['totals only', year(2024, { en_abs_we: undefined, en_cov_we: undefined }), { covered: 0, total: 1000 }],
    ['half covered', year(2024, { en_cov_we: 500 }), { covered: 500, total: 1000 }],
    ['covered above total counts as total', year(2024, { en_cov_we: 1500 }), { covered: 1000, total: 1000 }],
    ['no energy fields', { year: 2024 }, { covered: 0, total: 0 }],
  ])('energy coverage: %s', (_name, rec, want) => {
    const f = assetFigures({ size: 1000, annual_data: [rec] });
    expect(f.years.get(2024)?.utilities.energy).toMatchObject(want);
  });

  it('waste coverage is was_pcov of the size; time coverage is the share of the year with data', () => {
    const f = assetFigures({
      size: 2000,
      annual_data: [
        { year: 2024, was_pcov: 25, was_abs_nhaz: 3, en_data_from: '2024-01-01', en_data_to: '2024-06-30' },
      ],
    });
    const y = f.years.get(2024)!;
    expect(y.utilities.waste).toMatchObject({ covered: 500, total: 2000, consumption: 3 });
    expect(y.utilities.energy.timeShare).toBeCloseTo(182 / 366, 5);
  });

  it('certified and rated floor area, at most the size', () => {
    const f = assetFigures({
      size: 1000,
      certifications: [{ size: 600 }, { size: 700 }, { size: 900, _destroy: '1' }],
      energy_ratings: [{ size: 250 }],
    });
    expect(f).toMatchObject({ certifiedArea: 1000, ratedArea: 250 });
  });
});

describe('portfolio model', () => {
  it('totals by property type and country, with certified and rated shares', () => {
    const m = new PortfolioModel();
    m.set('a', asset('A', { certifications: [{ size: 1000 }] }));
    m.set('b', asset('B', { property_type_code: 'HTL', country: 'BE', size: 3000, gav: 5 }));
    expect(m.totals('propertyType')).toEqual([
      { key: 'HTL', assets: 1, floorArea: 3000, gav: 5, certifiedShare: 0, ratedShare: 0 },
      { key: 'OCHI', assets: 1, floorArea: 1000, gav: 10, certifiedShare: 1, ratedShare: 0 },
    ]);
    expect(m.totals('country').map((r) => r.key)).toEqual(['BE', 'NL']);
  });

  it('like-for-like over the assets that qualify, listing the others with why', () => {
    const m = new PortfolioModel();
    m.set('a', asset('A', { annual_data: [year(2023), year(2024, { en_abs_we: 90_000 })] }));
    m.set(
      'b',
      asset('B', { annual_data: [year(2023), year(2024, { ncmr_status: 'Major Renovation Project' })] }),
    );
    m.set('c', asset('C', { annual_data: [year(2023, { en_cov_we: 500 }), year(2024)] }));
    const row = m.lflRows().find((r) => r.utility === 'energy' && r.fromYear === 2023);
    expect(row).toEqual({
      utility: 'energy',
      fromYear: 2023,
      toYear: 2024,
      assets: 1,
      before: 100_000,
      after: 90_000,
      changePercent: -10,
    });
    expect(m.lflExclusions('energy', 2023)).toEqual([
      { key: 'b', name: 'B', reasons: ['not a standing investment in 2024'] },
      { key: 'c', name: 'C', reasons: ['coverage below 100% in 2023'] },
    ]);
  });

  it('intensity per property type with the published ranges marking outliers; renewable share', () => {
    const m = new PortfolioModel({ areaUnit: 'm2' });
    m.set('a', asset('A', { annual_data: [year(2024, { en_abs_we: 900_000, en_ren_ons_con: 90_000 })] }));
    const row = m.intensityRows().find((r) => r.utility === 'energy');
    expect(row).toMatchObject({ propertyType: 'OCHI', intensity: 900, outlier: true });
    expect(m.renewableRows()).toEqual([{ year: 2024, renewable: 90_000, energy: 900_000, share: 0.1 }]);
  });
});

const arbAsset = fc.record({
  size: fc.integer({ min: 0, max: 50_000 }),
  gav: fc.integer({ min: 0, max: 500 }),
  property_type_code: fc.constantFrom('OCHI', 'HTL', 'RHST'),
  country: fc.constantFrom('NL', 'BE', 'US'),
  annual_data: fc.array(
    fc.record({
      year: fc.integer({ min: 2020, max: 2025 }),
      ncmr_status: fc.constantFrom('Standing Investment', 'New Construction Project'),
      owned_entire_period: fc.boolean(),
      en_abs_we: fc.integer({ min: 0, max: 10_000_000 }),
      en_cov_we: fc.integer({ min: 0, max: 60_000 }),
      en_tot_we: fc.integer({ min: 0, max: 60_000 }),
      was_pcov: fc.integer({ min: 0, max: 150 }),
    }),
    { maxLength: 4 },
  ),
});

describe('portfolio properties', () => {
  it('coverage stays within 0..1', () => {
    fc.assert(
      fc.property(fc.array(arbAsset, { maxLength: 20 }), (assets) => {
        const m = new PortfolioModel();
        assets.forEach((a, i) => m.set(String(i), a));
        for (const row of m.coverageRows()) {
          if (row.share !== null) expect(row.share).toBeGreaterThanOrEqual(0);
          if (row.share !== null) expect(row.share).toBeLessThanOrEqual(1 + 1e-9);
        }
        for (const cell of m.heatmap())
          if (cell.share !== null) expect(cell.share).toBeLessThanOrEqual(1 + 1e-9);
      }),
    );
  });

  it('the like-for-like change of an unchanged portfolio is 0', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1, maxLength: 20 }),
        (uses) => {
          const m = new PortfolioModel();
          uses.forEach((use, i) =>
            m.set(
              String(i),
              asset(`A${i}`, {
                annual_data: [year(2023, { en_abs_we: use }), year(2024, { en_abs_we: use })],
              }),
            ),
          );
          const row = m.lflRows().find((r) => r.utility === 'energy');
          expect(row?.changePercent).toBeCloseTo(0, 9);
          expect(row?.assets).toBe(uses.length);
        },
      ),
    );
  });

  it('totals equal the sum over assets, also after edits and deletes (incremental = from scratch)', () => {
    fc.assert(
      fc.property(
        fc.array(arbAsset, { maxLength: 15 }),
        fc.array(arbAsset, { maxLength: 15 }),
        (first, second) => {
          const m = new PortfolioModel();
          first.forEach((a, i) => m.set(String(i), a));
          second.forEach((a, i) => m.set(String(i), a));
          for (let i = second.length; i < first.length; i++) m.delete(String(i));
          const fresh = new PortfolioModel();
          second.forEach((a, i) => fresh.set(String(i), a));
          const round = (rows: unknown) =>
            JSON.parse(
              JSON.stringify(rows, (_k, v) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)),
            );
          expect(round(m.totals('propertyType'))).toEqual(round(fresh.totals('propertyType')));
          expect(round(m.coverageRows())).toEqual(round(fresh.coverageRows()));
          expect(round(m.lflRows())).toEqual(round(fresh.lflRows()));
          const floor = second.reduce((sum, a) => sum + a.size, 0);
          expect(m.totals('country').reduce((sum, r) => sum + r.floorArea, 0)).toBe(floor);
          expect(m.totals('country').reduce((sum, r) => sum + r.assets, 0)).toBe(second.length);
        },
      ),
    );
  });
});
