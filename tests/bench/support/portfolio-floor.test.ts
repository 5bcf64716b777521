import { describe, expect, it } from 'vitest';
import type { AnnualDataInput, AssetInput } from '../../../shared/domain';
import { PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { utilities } from '../../../shared/portfolio/asset-figures';
import { onePassOverNumbers } from '../../../bench/support/portfolio-floor';

/** A mixed pool: partial coverage, missing fields, periods shorter than a year, gaps between years. */
function pool(): AssetInput[] {
  return Array.from({ length: 120 }, (_, i) => {
    const size = 1_000 + 37 * i;
    const years = [2021, 2022, 2023, 2024].filter((y) => (i + y) % 5 !== 0);
    const annual_data: AnnualDataInput[] = years.map((year, k) => ({
      year,
      ncmr_status: i % 7 === 0 ? 'Major Renovation' : 'Standing Investment',
      owned_entire_period: i % 9 !== 0,
      en_data_from: i % 4 === 0 ? `${year}-04-01` : `${year}-01-01`,
      en_data_to: `${year}-12-31`,
      ...(i % 3 !== 0 ? { en_abs_we: 100 * i + k, en_cov_we: i % 2 ? size : size / 2, en_tot_we: size } : {}),
      ...(i % 5 !== 0 ? { en_abs_wf: 50 + k, en_cov_wf: size * 2, en_tot_wf: size } : {}),
      ghg_abs_s1_w: 3 * i,
      ghg_cov_s1_w: size,
      ghg_tot_s1_w: size,
      ...(i % 2
        ? {
            wat_abs_w: 7 * i,
            wat_cov_w: size / 4,
            wat_tot_w: size,
            wat_data_from: `${year}-07-01`,
            wat_data_to: `${year}-12-31`,
          }
        : {}),
      ...(i % 6 ? { was_abs_nhaz: 11, was_pcov: 80 } : {}),
      en_ren_ons_con: 5 * i,
    }));
    return {
      name: `Asset ${i}`,
      property_type_code: ['OCHI', 'RHST', 'IDWH'][i % 3],
      country: ['NL', 'DE'][i % 2],
      size,
      gav: i,
      certifications: i % 4 === 0 ? [{ size: size / 3 }] : [],
      energy_ratings: i % 5 === 0 ? [{ size: size * 2 }] : [],
      annual_data,
    };
  });
}

const close = (a: number, b: number): void => expect(a).toBeCloseTo(b, 6);

// The floor must give the view's figures, or it floors some other, cheaper work.
describe('the portfolio floor', () => {
  it("gives the same figures as the Portfolio view's model", () => {
    const assets = pool();
    const model = new PortfolioModel({ areaUnit: 'm2' });
    assets.forEach((a, i) => model.set(String(i), a));
    const floor = onePassOverNumbers(assets);

    for (const row of model.totals('propertyType')) {
      const sums = floor.byType.get(row.key)!;
      expect(sums[0]).toBe(row.assets);
      close(sums[1]!, row.floorArea);
      close(sums[2]!, row.gav);
      close(sums[3]! / sums[1]!, row.certifiedShare ?? 0);
      close(sums[4]! / sums[1]!, row.ratedShare ?? 0);
    }
    expect(floor.byCountry.size).toBe(model.totals('country').length);

    const coverageRows = model.coverageRows();
    expect(coverageRows.length).toBeGreaterThan(0);
    for (const row of coverageRows) {
      const u = utilities.indexOf(row.utility);
      let covered = 0;
      let total = 0;
      let timed = 0;
      let timedArea = 0;
      for (const years of floor.byTypeYear.values()) {
        const sums = years.get(row.year);
        if (!sums) continue;
        covered += sums[u * 6]!;
        total += sums[u * 6 + 1]!;
        timed += sums[u * 6 + 2]!;
        timedArea += sums[u * 6 + 3]!;
      }
      close(covered, row.covered);
      close(total, row.total);
      if (row.timeShare !== null) close(timed / timedArea, row.timeShare);
    }

    for (const row of model.intensityRows()) {
      const u = utilities.indexOf(row.utility);
      const sums = floor.byTypeYear.get(row.propertyType)!.get(row.year)!;
      close(sums[u * 6 + 4]!, row.consumption);
      close(sums[u * 6 + 5]!, row.area);
    }

    const lflRows = model.lflRows();
    expect(lflRows.length).toBeGreaterThan(0);
    for (const row of lflRows) {
      const u = utilities.indexOf(row.utility);
      const sums = floor.byYear.get(row.fromYear)!;
      expect(sums[2 + u * 3]).toBe(row.assets);
      close(sums[2 + u * 3 + 1]!, row.before);
      close(sums[2 + u * 3 + 2]!, row.after);
    }
    for (const row of model.renewableRows()) {
      close(floor.byYear.get(row.year)![0]!, row.renewable);
      close(floor.byYear.get(row.year)![1]!, row.energy);
    }

    const heatmap = model.heatmap();
    expect(floor.heat).toHaveLength(heatmap.length);
    heatmap.forEach((cell, i) => {
      if (cell.share === null) expect(floor.heat[i]).toBeNaN();
      else close(floor.heat[i]!, cell.share);
    });
  });
});
