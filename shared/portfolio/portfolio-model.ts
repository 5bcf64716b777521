/**
 * The portfolio figures of a workspace, offline: totals, data coverage, like-for-like change,
 * intensity and the renewable share. Every figure is a sum over assets, so the model keeps each
 * asset's contribution and, when an asset changes, takes its old contribution out and puts the new
 * one in: an edit costs one asset, not the portfolio.
 */
import { SQFT_TO_M2 } from '../domain/context';
import { defaultOutlierThresholds, type OutlierThresholds } from '../domain/outliers';
import type { AreaUnit, AssetInput, OutlierKpi } from '../domain/types';
import {
  ASSET_CERTIFIED,
  ASSET_GAV,
  ASSET_HEAD,
  ASSET_RATED,
  ASSET_SIZE,
  ASSET_YEARS,
  assetNumbers,
  figuresOf,
  UTILITY_CONSUMPTION,
  UTILITY_COVERED,
  UTILITY_MEASURED,
  UTILITY_STRIDE,
  UTILITY_TIME,
  UTILITY_TOTAL,
  utilities,
  YEAR_HEAD,
  YEAR_OWNED,
  YEAR_RENEWABLE,
  YEAR_STANDING,
  YEAR_STRIDE,
  YEAR_YEAR,
  type AssetFigures,
  type PortfolioUtility,
} from './asset-figures';
import { Grid, Ids } from './sums-by-id';

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

const U = utilities.length;
const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
const kpiOf: Record<PortfolioUtility, OutlierKpi> = { energy: 'en', ghg: 'ghg', water: 'wat', waste: 'was' };

/** `lflQualifies` for one year's block of packed numbers (see `assetNumbers`). */
function yearQualifies(n: Float64Array, at: number, u: number): boolean {
  if (n[at + YEAR_STANDING] !== 1 || n[at + YEAR_OWNED] !== 1) return false;
  const o = at + YEAR_HEAD + u * UTILITY_STRIDE;
  const total = n[o + UTILITY_TOTAL]!;
  return total > 0 && n[o + UTILITY_COVERED]! >= total - 1e-9 && !Number.isNaN(n[o + UTILITY_CONSUMPTION]!);
}

interface Entry {
  asset: AssetInput;
  numbers: Float64Array;
  type: number;
  country: number;
}

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
  private readonly assets = new Map<string, Entry>();
  private readonly years = new Ids<number>();
  private readonly types = new Ids<string>();
  private readonly countries = new Ids<string>();
  /** By property type and by country: assets, floor area, GAV, certified and rated area. */
  private readonly byType = new Grid(5);
  private readonly byCountry = new Grid(5);
  /** By year and utility (id year * U + utility): covered, total, time-weighted and timed area. */
  private readonly coverage = new Grid(4);
  /** By year and utility: assets, consumption before and after (the year and the next). */
  private readonly lfl = new Grid(3);
  /** By property type, then year and utility: consumption and measured area. */
  private readonly intensity: Grid[] = [];
  /** By year: renewable energy and all energy. */
  private readonly renewables = new Grid(2);

  constructor(
    private readonly opts: { areaUnit: AreaUnit; thresholds?: OutlierThresholds } = { areaUnit: 'm2' },
  ) {}

  /** Puts an asset in (or replaces it); the same object again costs nothing. */
  set(key: string, asset: AssetInput): void {
    const old = this.assets.get(key);
    if (old?.asset === asset) return;
    if (old) this.apply(old, -1);
    const entry: Entry = {
      asset,
      numbers: assetNumbers(asset),
      type: this.types.of(typeof asset.property_type_code === 'string' ? asset.property_type_code : ''),
      country: this.countries.of(typeof asset.country === 'string' ? asset.country : ''),
    };
    this.assets.set(key, entry);
    this.apply(entry, 1);
  }

  delete(key: string): void {
    const old = this.assets.get(key);
    if (!old) return;
    this.apply(old, -1);
    this.assets.delete(key);
  }

  get size(): number {
    return this.assets.size;
  }

  private apply({ numbers: n, type, country }: Entry, sign: 1 | -1): void {
    const size = n[ASSET_SIZE]!;
    const gav = n[ASSET_GAV]!;
    this.byType.add(type, sign, 1, size, gav, n[ASSET_CERTIFIED], n[ASSET_RATED]);
    this.byCountry.add(country, sign, 1, size, gav, n[ASSET_CERTIFIED], n[ASSET_RATED]);
    const intensity = (this.intensity[type] ??= new Grid(2));
    const end = ASSET_HEAD + n[ASSET_YEARS]! * YEAR_STRIDE;
    for (let at = ASSET_HEAD; at < end; at += YEAR_STRIDE) {
      const year = n[at + YEAR_YEAR]!;
      const y = this.years.of(year);
      let next = ASSET_HEAD;
      while (next < end && n[next + YEAR_YEAR] !== year + 1) next += YEAR_STRIDE;
      for (let u = 0; u < U; u++) {
        const o = at + YEAR_HEAD + u * UTILITY_STRIDE;
        const total = n[o + UTILITY_TOTAL]!;
        const timeShare = n[o + UTILITY_TIME]!;
        const consumption = n[o + UTILITY_CONSUMPTION]!;
        const timed = !Number.isNaN(timeShare);
        this.coverage.add(
          y * U + u,
          sign,
          n[o + UTILITY_COVERED]!,
          total,
          timed ? timeShare * total : 0,
          timed ? total : 0,
        );
        if (!Number.isNaN(consumption)) intensity.add(y * U + u, sign, consumption, n[o + UTILITY_MEASURED]!);
        if (next < end && yearQualifies(n, at, u) && yearQualifies(n, next, u))
          this.lfl.add(
            y * U + u,
            sign,
            1,
            consumption,
            n[next + YEAR_HEAD + u * UTILITY_STRIDE + UTILITY_CONSUMPTION]!,
          );
      }
      const energy = n[at + YEAR_HEAD + UTILITY_CONSUMPTION]!;
      this.renewables.add(y, sign, n[at + YEAR_RENEWABLE]!, Number.isNaN(energy) ? 0 : energy);
    }
  }

  /** Each row of a grid by (year, utility) that holds something. */
  private byYearUtility<T>(
    grid: Grid,
    make: (row: Float64Array, year: number, utility: PortfolioUtility) => T,
  ): T[] {
    const out: T[] = [];
    for (let id = 0; id < Math.min(grid.rows, this.years.keys.length * U); id++) {
      const row = grid.row(id);
      if (row) out.push(make(row, this.years.keys[Math.floor(id / U)]!, utilities[id % U]!));
    }
    return out;
  }

  totals(by: 'propertyType' | 'country'): TotalsRow[] {
    const grid = by === 'propertyType' ? this.byType : this.byCountry;
    const keys = by === 'propertyType' ? this.types.keys : this.countries.keys;
    const out: TotalsRow[] = [];
    keys.forEach((key, id) => {
      const row = grid.row(id);
      if (!row) return;
      const [assets = 0, floorArea = 0, gav = 0, certified = 0, rated = 0] = row;
      out.push({
        key,
        assets,
        floorArea,
        gav,
        certifiedShare: ratio(certified, floorArea),
        ratedShare: ratio(rated, floorArea),
      });
    });
    return out.sort((a, b) => b.floorArea - a.floorArea || a.key.localeCompare(b.key));
  }

  coverageRows(): CoverageRow[] {
    return this.byYearUtility(
      this.coverage,
      ([covered = 0, total = 0, timed = 0, timedArea = 0], year, utility) => ({
        utility,
        year,
        covered,
        total,
        share: ratio(covered, total),
        timeShare: ratio(timed, timedArea),
      }),
    ).sort((a, b) => a.year - b.year || utilities.indexOf(a.utility) - utilities.indexOf(b.utility));
  }

  lflRows(): LflRow[] {
    return this.byYearUtility(this.lfl, ([assets = 0, before = 0, after = 0], fromYear, utility) => {
      const changePercent = before > 0 ? ((after - before) / before) * 100 : null;
      return { utility, fromYear, toYear: fromYear + 1, assets, before, after, changePercent };
    }).sort((a, b) => a.fromYear - b.fromYear || utilities.indexOf(a.utility) - utilities.indexOf(b.utility));
  }

  /** The assets that do not count in a like-for-like pair, with why. */
  lflExclusions(
    utility: PortfolioUtility,
    fromYear: number,
  ): { key: string; name: string; reasons: string[] }[] {
    const out: { key: string; name: string; reasons: string[] }[] = [];
    for (const [key, { asset, numbers }] of this.assets) {
      const figures = figuresOf(asset, numbers);
      if (!figures.years.has(fromYear) && !figures.years.has(fromYear + 1)) continue;
      const reasons = lflReasons(figures, utility, fromYear);
      if (reasons.length > 0) out.push({ key, name: figures.name, reasons });
    }
    return out;
  }

  intensityRows(): IntensityRow[] {
    const thresholds = this.opts.thresholds ?? defaultOutlierThresholds;
    const toM2 = this.opts.areaUnit === 'sqft' ? SQFT_TO_M2 : 1;
    return this.types.keys
      .flatMap((propertyType, t) =>
        this.intensity[t]
          ? this.byYearUtility(this.intensity[t], ([consumption = 0, area = 0], year, utility) => {
              const intensity = ratio(consumption, area);
              const range = (thresholds.byPropertyType[propertyType] ?? thresholds.fallback)[kpiOf[utility]];
              const perM2 = intensity === null ? null : intensity / toM2;
              const outlier =
                perM2 !== null && range !== undefined && (perM2 < range.min || perM2 > range.max);
              return { propertyType, utility, year, consumption, area, intensity, outlier };
            })
          : [],
      )
      .sort(
        (a, b) =>
          a.propertyType.localeCompare(b.propertyType) ||
          a.year - b.year ||
          utilities.indexOf(a.utility) - utilities.indexOf(b.utility),
      );
  }

  renewableRows(): RenewableRow[] {
    const out: RenewableRow[] = [];
    this.years.keys.forEach((year, id) => {
      const row = this.renewables.row(id);
      if (!row) return;
      const [renewable = 0, energy = 0] = row;
      out.push({ year, renewable, energy, share: ratio(renewable, energy) });
    });
    return out.sort((a, b) => a.year - b.year);
  }

  /** The assets behind a figure: those whose figures pass `filter` (made per asset for the call). */
  assetKeys(filter: (figures: AssetFigures) => boolean): string[] {
    const keys: string[] = [];
    for (const [key, { asset, numbers }] of this.assets)
      if (filter(figuresOf(asset, numbers))) keys.push(key);
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
    for (const [key, { asset, numbers: n }] of this.assets) {
      const name = typeof asset.name === 'string' ? asset.name : '';
      const end = ASSET_HEAD + n[ASSET_YEARS]! * YEAR_STRIDE;
      for (let at = ASSET_HEAD; at < end; at += YEAR_STRIDE)
        for (let u = 0; u < U; u++) {
          const o = at + YEAR_HEAD + u * UTILITY_STRIDE;
          cells.push({
            key,
            name,
            utility: utilities[u]!,
            year: n[at + YEAR_YEAR]!,
            share: ratio(n[o + UTILITY_COVERED]!, n[o + UTILITY_TOTAL]!),
          });
        }
    }
    return cells;
  }
}
