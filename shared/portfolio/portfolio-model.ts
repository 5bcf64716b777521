/**
 * The portfolio figures of a workspace, offline: totals, data coverage, like-for-like change,
 * intensity and the renewable share. Every figure is a sum over assets, so the model keeps each
 * asset's contribution and, when an asset changes, takes its old contribution out and puts the new
 * one in: an edit costs one asset, not the portfolio.
 */
import { SQFT_TO_M2 } from '../domain/context';
import { defaultOutlierThresholds, type OutlierThresholds } from '../domain/outliers';
import type { AreaUnit, AssetInput, OutlierKpi } from '../domain/types';
import { assetFigures, utilities, type AssetFigures, type PortfolioUtility } from './asset-figures';

export interface TotalsRow {
  key: string;
  assets: number;
  floorArea: number;
  gav: number;
  /** Share of the floor area with a green building certification (0..1), null without floor area. */
  certifiedShare: number | null;
  ratedShare: number | null;
}

export interface CoverageRow {
  utility: PortfolioUtility;
  year: number;
  covered: number;
  total: number;
  /** covered / total (0..1), null when no total floor area is reported. */
  share: number | null;
  /** Area-weighted share of the year with data, over assets that give a data period. */
  timeShare: number | null;
}

export interface LflRow {
  utility: PortfolioUtility;
  fromYear: number;
  toYear: number;
  assets: number;
  before: number;
  after: number;
  /** (after - before) / before, in percent; null when nothing qualifies. */
  changePercent: number | null;
}

export interface IntensityRow {
  propertyType: string;
  utility: PortfolioUtility;
  year: number;
  consumption: number;
  area: number;
  /** Consumption per unit of floor area (the entity's area unit); null without measured area. */
  intensity: number | null;
  /** Outside the published range for the property type. */
  outlier: boolean;
}

export interface RenewableRow {
  year: number;
  renewable: number;
  energy: number;
  share: number | null;
}

type Sums = Map<string, number[]>;
const add = (sums: Sums, key: string, values: number[], sign: 1 | -1): void => {
  let row = sums.get(key);
  if (!row) sums.set(key, (row = values.map(() => 0)));
  let empty = true;
  for (let i = 0; i < values.length; i++) {
    const v = (row[i] ?? 0) + sign * (values[i] ?? 0);
    row[i] = v;
    if (Math.abs(v) >= 1e-9) empty = false;
  }
  // Rounding leaves crumbs when contributions come and go: a row of nothing is no row.
  if (empty) sums.delete(key);
};

/** Scratch rows for `add`, which only reads them (a new sums row is its own array). */
const two = [0, 0];
const three = [0, 0, 0];
const four = [0, 0, 0, 0];
const fill = (row: number[], a: number, b: number, c = 0, d = 0): number[] => {
  row[0] = a;
  row[1] = b;
  if (row.length > 2) row[2] = c;
  if (row.length > 3) row[3] = d;
  return row;
};

/**
 * The sums' keys of a year ("energy|2024") and of a property type's year ("OCHI|energy|2024"), made
 * once: building them for every asset and year was a fifth of a 10,000-asset build.
 */
const yearKeys = new Map<number, readonly string[]>();
const keysOfYear = (year: number): readonly string[] => {
  let keys = yearKeys.get(year);
  // Then the renewables' key: the year alone.
  if (!keys) yearKeys.set(year, (keys = [...utilities.map((u) => `${u}|${year}`), String(year)]));
  return keys;
};
const typeKeys = new Map<string, readonly string[]>();
const keysOfType = (type: string, year: number): readonly string[] => {
  const id = `${type}|${year}`;
  let keys = typeKeys.get(id);
  if (!keys) {
    if (typeKeys.size > 10_000) typeKeys.clear();
    typeKeys.set(id, (keys = utilities.map((u) => `${type}|${u}|${year}`)));
  }
  return keys;
};
const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
const kpiOf: Record<PortfolioUtility, OutlierKpi> = { energy: 'en', ghg: 'ghg', water: 'wat', waste: 'was' };

/** Why an asset does not count in a like-for-like pair; empty when it qualifies. */
export function lflReasons(figures: AssetFigures, utility: PortfolioUtility, fromYear: number): string[] {
  const reasons: string[] = [];
  for (const year of [fromYear, fromYear + 1]) {
    const y = figures.years.get(year);
    if (!y) {
      reasons.push(`no data for ${year}`);
      continue;
    }
    const u = y.utilities[utility];
    if (!y.standing) reasons.push(`not a standing investment in ${year}`);
    if (!y.ownedEntirePeriod) reasons.push(`not owned for the whole of ${year}`);
    if (!(u.total > 0 && u.covered >= u.total - 1e-9)) reasons.push(`coverage below 100% in ${year}`);
    if (Number.isNaN(u.consumption)) reasons.push(`no consumption in ${year}`);
  }
  return reasons;
}

/** `lflReasons(...).length === 0`, without building the sentences (run for every asset and year). */
export function lflQualifies(figures: AssetFigures, utility: PortfolioUtility, fromYear: number): boolean {
  for (const year of [fromYear, fromYear + 1]) {
    const y = figures.years.get(year);
    if (!y || !y.standing || !y.ownedEntirePeriod) return false;
    const u = y.utilities[utility];
    if (!(u.total > 0 && u.covered >= u.total - 1e-9) || Number.isNaN(u.consumption)) return false;
  }
  return true;
}

export class PortfolioModel {
  private readonly assets = new Map<string, { asset: AssetInput; figures: AssetFigures }>();
  private readonly byType: Sums = new Map();
  private readonly byCountry: Sums = new Map();
  private readonly coverage: Sums = new Map();
  private readonly lfl: Sums = new Map();
  private readonly intensity: Sums = new Map();
  private readonly renewables: Sums = new Map();

  constructor(
    private readonly opts: { areaUnit: AreaUnit; thresholds?: OutlierThresholds } = { areaUnit: 'm2' },
  ) {}

  /** Puts an asset in (or replaces it); the same object again costs nothing. */
  set(key: string, asset: AssetInput): void {
    const old = this.assets.get(key);
    if (old?.asset === asset) return;
    if (old) this.apply(old.figures, -1);
    const figures = assetFigures(asset);
    this.assets.set(key, { asset, figures });
    this.apply(figures, 1);
  }

  delete(key: string): void {
    const old = this.assets.get(key);
    if (!old) return;
    this.apply(old.figures, -1);
    this.assets.delete(key);
  }

  get size(): number {
    return this.assets.size;
  }

  private apply(f: AssetFigures, sign: 1 | -1): void {
    const totals = [1, f.size, f.gav, f.certifiedArea, f.ratedArea];
    add(this.byType, f.propertyType, totals, sign);
    add(this.byCountry, f.country, totals, sign);
    for (const y of f.years.values()) {
      const yearKey = keysOfYear(y.year);
      const typeKey = keysOfType(f.propertyType, y.year);
      for (let k = 0; k < utilities.length; k++) {
        const utility = utilities[k]!;
        const u = y.utilities[utility];
        const timed = !Number.isNaN(u.timeShare);
        add(
          this.coverage,
          yearKey[k]!,
          fill(four, u.covered, u.total, timed ? u.timeShare * u.total : 0, timed ? u.total : 0),
          sign,
        );
        if (!Number.isNaN(u.consumption))
          add(this.intensity, typeKey[k]!, fill(two, u.consumption, u.measuredArea), sign);
        if (f.years.has(y.year + 1) && lflQualifies(f, utility, y.year)) {
          const next = f.years.get(y.year + 1)!.utilities[utility];
          add(this.lfl, yearKey[k]!, fill(three, 1, u.consumption, next.consumption), sign);
        }
      }
      const energy = y.utilities.energy.consumption;
      add(
        this.renewables,
        yearKey[utilities.length]!,
        fill(two, y.renewable, Number.isNaN(energy) ? 0 : energy),
        sign,
      );
    }
  }

  totals(by: 'propertyType' | 'country'): TotalsRow[] {
    const sums = by === 'propertyType' ? this.byType : this.byCountry;
    return [...sums]
      .map(([key, [assets = 0, floorArea = 0, gav = 0, certified = 0, rated = 0]]) => ({
        key,
        assets,
        floorArea,
        gav,
        certifiedShare: ratio(certified, floorArea),
        ratedShare: ratio(rated, floorArea),
      }))
      .sort((a, b) => b.floorArea - a.floorArea || a.key.localeCompare(b.key));
  }

  coverageRows(): CoverageRow[] {
    return [...this.coverage]
      .map(([key, [covered = 0, total = 0, timed = 0, timedArea = 0]]) => {
        const [utility, year] = key.split('|') as [PortfolioUtility, string];
        return {
          utility,
          year: Number(year),
          covered,
          total,
          share: ratio(covered, total),
          timeShare: ratio(timed, timedArea),
        };
      })
      .sort((a, b) => a.year - b.year || utilities.indexOf(a.utility) - utilities.indexOf(b.utility));
  }

  lflRows(): LflRow[] {
    return [...this.lfl]
      .map(([key, [assets = 0, before = 0, after = 0]]) => {
        const [utility, year] = key.split('|') as [PortfolioUtility, string];
        const fromYear = Number(year);
        const changePercent = before > 0 ? ((after - before) / before) * 100 : null;
        return { utility, fromYear, toYear: fromYear + 1, assets, before, after, changePercent };
      })
      .sort((a, b) => a.fromYear - b.fromYear || utilities.indexOf(a.utility) - utilities.indexOf(b.utility));
  }

  /** The assets that do not count in a like-for-like pair, with why. */
  lflExclusions(
    utility: PortfolioUtility,
    fromYear: number,
  ): { key: string; name: string; reasons: string[] }[] {
    const out: { key: string; name: string; reasons: string[] }[] = [];
    for (const [key, { figures }] of this.assets) {
      if (!figures.years.has(fromYear) && !figures.years.has(fromYear + 1)) continue;
      const reasons = lflReasons(figures, utility, fromYear);
      if (reasons.length > 0) out.push({ key, name: figures.name, reasons });
    }
    return out;
  }

  intensityRows(): IntensityRow[] {
    const thresholds = this.opts.thresholds ?? defaultOutlierThresholds;
    const toM2 = this.opts.areaUnit === 'sqft' ? SQFT_TO_M2 : 1;
    return [...this.intensity]
      .map(([key, [consumption = 0, area = 0]]) => {
        const [propertyType, utility, year] = key.split('|') as [string, PortfolioUtility, string];
        const intensity = ratio(consumption, area);
        const range = (thresholds.byPropertyType[propertyType] ?? thresholds.fallback)[kpiOf[utility]];
        const perM2 = intensity === null ? null : intensity / toM2;
        const outlier = perM2 !== null && range !== undefined && (perM2 < range.min || perM2 > range.max);
        return { propertyType, utility, year: Number(year), consumption, area, intensity, outlier };
      })
      .sort((a, b) => a.propertyType.localeCompare(b.propertyType) || a.year - b.year);
  }

  renewableRows(): RenewableRow[] {
    return [...this.renewables]
      .map(([year, [renewable = 0, energy = 0]]) => ({
        year: Number(year),
        renewable,
        energy,
        share: ratio(renewable, energy),
      }))
      .sort((a, b) => a.year - b.year);
  }

  /** The assets behind a figure: those whose figures pass `filter`. */
  assetKeys(filter: (figures: AssetFigures) => boolean): string[] {
    const keys: string[] = [];
    for (const [key, { figures }] of this.assets) if (filter(figures)) keys.push(key);
    return keys;
  }

  /** Asset x utility x year coverage (0..1, null where the asset reports no floor area for it). */
  heatmap(): { key: string; name: string; utility: PortfolioUtility; year: number; share: number | null }[] {
    const cells: {
      key: string;
      name: string;
      utility: PortfolioUtility;
      year: number;
      share: number | null;
    }[] = [];
    for (const [key, { figures }] of this.assets)
      for (const y of figures.years.values())
        for (const utility of utilities) {
          const u = y.utilities[utility];
          cells.push({ key, name: figures.name, utility, year: y.year, share: ratio(u.covered, u.total) });
        }
    return cells;
  }
}
