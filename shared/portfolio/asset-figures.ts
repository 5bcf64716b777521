/**
 * What one asset contributes to the portfolio figures, read once from its document. Pure: the
 * portfolio model caches these per asset object and adds them up (see portfolio-model.ts).
 *
 * Definitions (README, "Portfolio preview"):
 * - floor area is the asset's `size`, in the entity's area unit; GAV in millions of its currency;
 * - certified (rated) area: the floor area its green building certifications (energy ratings)
 *   cover, at most its size;
 * - coverage of a utility in a year: covered over total floor area, from the `*_cov_*` and
 *   `*_tot_*` fields (waste: `was_pcov` percent of the asset's size);
 * - consumption: the sum of a utility's `*_abs_*` fields (waste: hazardous + non-hazardous);
 * - time coverage: the share of the year inside the utility's `*_data_from`..`*_data_to` period.
 */
import { measureTriples, type MeasureTriple } from '../domain/catalog';
import { toNumber } from '../domain/values';
import { dayNumber } from '../meters/dates';
import type { AnnualDataInput, AssetInput } from '../domain/types';

export const utilities = ['energy', 'ghg', 'water', 'waste'] as const;
export type PortfolioUtility = (typeof utilities)[number];

export interface UtilityYear {
  covered: number;
  total: number;
  /** Sum of the utility's consumption fields; NaN when none is given. */
  consumption: number;
  /** Floor area the consumption was measured over (for intensity). */
  measuredArea: number;
  /** Share of the year with data (0..1); NaN when no data period is given. */
  timeShare: number;
}

export interface YearFigures {
  year: number;
  standing: boolean;
  ownedEntirePeriod: boolean;
  utilities: Record<PortfolioUtility, UtilityYear>;
  /** Renewable energy consumed (on-site and off-site purchased), kWh. */
  renewable: number;
}

export interface AssetFigures {
  name: string;
  propertyType: string;
  country: string;
  size: number;
  gav: number;
  certifiedArea: number;
  ratedArea: number;
  years: ReadonlyMap<number, YearFigures>;
}

const triplesOf: Record<Exclude<PortfolioUtility, 'waste'>, readonly MeasureTriple[]> = {
  energy: measureTriples.filter((t) => t.topic === 'energy'),
  ghg: measureTriples.filter((t) => t.topic === 'ghg'),
  water: measureTriples.filter((t) => t.topic === 'water'),
};

const num = (v: unknown): number => {
  const n = toNumber(v);
  return Number.isFinite(n) && n >= 0 ? n : NaN;
};
const orZero = (n: number): number => (Number.isNaN(n) ? 0 : n);

function coveredArea(entries: unknown, size: number): number {
  if (!Array.isArray(entries)) return 0;
  let area = 0;
  for (const entry of entries as Record<string, unknown>[]) {
    if (!entry || entry['_destroy'] === '1' || entry['_destroy'] === true) continue;
    area += orZero(num(entry['size']));
  }
  return Math.min(area, orZero(size));
}

/**
 * The share of `year` inside a period given by its dates' texts, from their day numbers (`dayNumber`
 * keeps the few periods a pool repeats, "2024-01-01" to "2024-12-31", parsed once). Callers read the
 * dates by literal names (`rec.en_data_from`): a field named by a variable is a slow keyed load.
 */
function timeShare(from: unknown, to: unknown, year: number): number {
  if (typeof from !== 'string' || typeof to !== 'string') return NaN;
  return periodShare(dayNumber(from), dayNumber(to), year);
}

/** The day number of 1 January of a year (`Date.UTC` per record and utility was a tenth of a build). */
const yearStarts = new Map<number, number>();
function yearStart(year: number): number {
  let day = yearStarts.get(year);
  if (day === undefined) {
    if (yearStarts.size > 1_000) yearStarts.clear();
    yearStarts.set(year, (day = Date.UTC(year, 0, 1) / 86_400_000));
  }
  return day;
}

function periodShare(from: number, to: number, year: number): number {
  if (Number.isNaN(from) || Number.isNaN(to)) return NaN;
  const first = yearStart(year);
  const next = yearStart(year + 1);
  const days = Math.min(to, next - 1) - Math.max(from, first) + 1;
  return Math.min(1, Math.max(0, days) / (next - first));
}

/*
 * All four utilities of one record in one pass over its keys, into reused scratch arrays: reading a
 * record by many computed keys is a slow keyed load in V8 (the validator found the same), most
 * records hold few fields, and the bench builds 60,000 of these.
 */
const combos = (['energy', 'ghg', 'water'] as const).flatMap((utility, u) =>
  triplesOf[utility].map((t) => ({ t, u, part: `${utility}:${t.areaPart}` })),
);
const partIndex = new Map([...new Set(combos.map((c) => c.part))].map((part, i) => [part, i]));
const fieldSlot: ReadonlyMap<string, number> = new Map(
  combos.flatMap((c, i) =>
    (['abs', 'cov', 'tot'] as const).map((measure, m) => [c.t[measure], i * 3 + m] as const),
  ),
);
const comboUtility = Int32Array.from(combos, (c) => c.u);
const comboPart = Int32Array.from(combos, (c) => partIndex.get(c.part) ?? 0);
const partUtility = Int32Array.from(partIndex.keys(), (part) =>
  (['energy', 'ghg', 'water'] as const).indexOf(part.slice(0, part.indexOf(':')) as 'energy'),
);
/** Per utility (energy, GHG, water): covered, total, consumption, measured area. */
const acc = new Float64Array(12);
const consumed = new Uint8Array(3);
const slots = new Float64Array(combos.length * 3).fill(NaN);
const measured = new Float64Array(partIndex.size);
const touched: number[] = [];

/**
 * An asset's numbers, packed: its own (`ASSET_*`), then per annual record (`YEAR_*`) its year, state
 * and renewable energy, and per utility (`UTILITY_*`, in `utilities` order) the five figures of a
 * `UtilityYear`. The portfolio model keeps these instead of objects (issue 33: building a few
 * objects per asset and year, and summing them under string keys, cost three times reading them).
 */
export const ASSET_SIZE = 0;
export const ASSET_GAV = 1;
export const ASSET_CERTIFIED = 2;
export const ASSET_RATED = 3;
export const ASSET_YEARS = 4;
export const ASSET_HEAD = 5;
export const YEAR_YEAR = 0;
export const YEAR_STANDING = 1;
export const YEAR_OWNED = 2;
export const YEAR_RENEWABLE = 3;
export const YEAR_HEAD = 4;
export const UTILITY_COVERED = 0;
export const UTILITY_TOTAL = 1;
export const UTILITY_CONSUMPTION = 2;
export const UTILITY_MEASURED = 3;
export const UTILITY_TIME = 4;
export const UTILITY_STRIDE = 5;
export const YEAR_STRIDE = YEAR_HEAD + utilities.length * UTILITY_STRIDE;

/** One record's four utilities into `out` from `at` (a year's block past its head). */
function utilityYears(rec: AnnualDataInput, size: number, year: number, out: Float64Array, at: number): void {
  for (const key in rec) {
    const slot = fieldSlot.get(key);
    if (slot === undefined) continue;
    const value = num(rec[key]);
    if (Number.isNaN(value)) continue;
    slots[slot] = value;
    touched.push(slot);
  }
  const energyShare = timeShare(rec['en_data_from'], rec['en_data_to'], year);
  // Only the slots the record filled are visited (most records hold a few of the catalog's fields).
  acc.fill(0);
  consumed.fill(0);
  measured.fill(0);
  for (const slot of touched) {
    const m = slot % 3;
    const c = (slot - m) / 3;
    const u = comboUtility[c]!;
    if (m === 2) {
      const tot = slots[slot]!;
      acc[u * 4] = acc[u * 4]! + Math.min(orZero(slots[slot - 1]!), tot);
      acc[u * 4 + 1] = acc[u * 4 + 1]! + tot;
    } else if (m === 0) {
      consumed[u] = 1;
      acc[u * 4 + 2] = acc[u * 4 + 2]! + slots[slot]!;
      // Utilities of one area part cover the same floor: the largest covered area per part counts.
      const p = comboPart[c]!;
      const cov = slots[slot + 1]!;
      if (cov > measured[p]!) measured[p] = cov;
    }
  }
  for (let p = 0; p < measured.length; p++) {
    const u = partUtility[p]!;
    acc[u * 4 + 3] = acc[u * 4 + 3]! + measured[p]!;
  }
  for (let u = 0; u < 3; u++) {
    const o = at + u * UTILITY_STRIDE;
    out[o + UTILITY_COVERED] = acc[u * 4]!;
    out[o + UTILITY_TOTAL] = acc[u * 4 + 1]!;
    out[o + UTILITY_CONSUMPTION] = consumed[u] ? acc[u * 4 + 2]! : NaN;
    out[o + UTILITY_MEASURED] = acc[u * 4 + 3]!;
    out[o + UTILITY_TIME] = u === 2 ? timeShare(rec['wat_data_from'], rec['wat_data_to'], year) : energyShare;
  }
  for (const slot of touched) slots[slot] = NaN;
  touched.length = 0;
  const haz = num(rec['was_abs_haz']);
  const nhaz = num(rec['was_abs_nhaz']);
  const pcov = num(rec['was_pcov']);
  const wasteCovered = Number.isNaN(pcov) ? 0 : (Math.min(pcov, 100) / 100) * orZero(size);
  const o = at + 3 * UTILITY_STRIDE;
  out[o + UTILITY_COVERED] = wasteCovered;
  out[o + UTILITY_TOTAL] = Number.isNaN(pcov) ? 0 : orZero(size);
  out[o + UTILITY_CONSUMPTION] = Number.isNaN(haz) && Number.isNaN(nhaz) ? NaN : orZero(haz) + orZero(nhaz);
  out[o + UTILITY_MEASURED] = wasteCovered;
  out[o + UTILITY_TIME] = timeShare(rec['was_data_from'], rec['was_data_to'], year);
}

/**
 * An asset's numbers, packed (see `ASSET_HEAD`): one record per year, the last of a year kept, in the
 * order the years first appear.
 */
export function assetNumbers(asset: AssetInput): Float64Array {
  const size = num(asset.size !== undefined ? asset.size : asset.asset_size);
  const records = Array.isArray(asset.annual_data) ? asset.annual_data : [];
  const out = new Float64Array(ASSET_HEAD + records.length * YEAR_STRIDE);
  let years = 0;
  for (const rec of records) {
    if (!rec || typeof rec !== 'object') continue;
    const year = toNumber(rec.year);
    if (!Number.isInteger(year)) continue;
    let at = ASSET_HEAD;
    while (at < ASSET_HEAD + years * YEAR_STRIDE && out[at + YEAR_YEAR] !== year) at += YEAR_STRIDE;
    if (at === ASSET_HEAD + years * YEAR_STRIDE) years++;
    out[at + YEAR_YEAR] = year;
    out[at + YEAR_STANDING] = rec['ncmr_status'] === 'Standing Investment' ? 1 : 0;
    out[at + YEAR_OWNED] = rec['owned_entire_period'] === true ? 1 : 0;
    // By literal names, as the dates: renewable energy consumed on-site and off-site purchased.
    out[at + YEAR_RENEWABLE] =
      orZero(num(rec['en_ren_ons_con'])) +
      orZero(num(rec['en_ren_ons_tpt'])) +
      orZero(num(rec['en_ren_ofs_pbl'])) +
      orZero(num(rec['en_ren_ofs_pbt']));
    utilityYears(rec, size, year, out, at + YEAR_HEAD);
  }
  out[ASSET_SIZE] = orZero(size);
  out[ASSET_GAV] = orZero(num(asset.gav));
  out[ASSET_CERTIFIED] = coveredArea(asset.certifications, size);
  out[ASSET_RATED] = coveredArea(asset.energy_ratings, size);
  out[ASSET_YEARS] = years;
  return out;
}

/** The figures of an asset's packed numbers, as objects (for the few callers that ask per asset). */
export function figuresOf(asset: AssetInput, numbers: Float64Array): AssetFigures {
  const years = new Map<number, YearFigures>();
  for (let y = 0; y < numbers[ASSET_YEARS]!; y++) {
    const at = ASSET_HEAD + y * YEAR_STRIDE;
    const year = numbers[at + YEAR_YEAR]!;
    const utility = (u: number): UtilityYear => {
      const o = at + YEAR_HEAD + u * UTILITY_STRIDE;
      return {
        covered: numbers[o + UTILITY_COVERED]!,
        total: numbers[o + UTILITY_TOTAL]!,
        consumption: numbers[o + UTILITY_CONSUMPTION]!,
        measuredArea: numbers[o + UTILITY_MEASURED]!,
        timeShare: numbers[o + UTILITY_TIME]!,
      };
    };
    years.set(year, {
      year,
      standing: numbers[at + YEAR_STANDING] === 1,
      ownedEntirePeriod: numbers[at + YEAR_OWNED] === 1,
      utilities: { energy: utility(0), ghg: utility(1), water: utility(2), waste: utility(3) },
      renewable: numbers[at + YEAR_RENEWABLE]!,
    });
  }
  return {
    name: typeof asset.name === 'string' ? asset.name : '',
    propertyType: typeof asset.property_type_code === 'string' ? asset.property_type_code : '',
    country: typeof asset.country === 'string' ? asset.country : '',
    size: numbers[ASSET_SIZE]!,
    gav: numbers[ASSET_GAV]!,
    certifiedArea: numbers[ASSET_CERTIFIED]!,
    ratedArea: numbers[ASSET_RATED]!,
    years,
  };
}

export function assetFigures(asset: AssetInput): AssetFigures {
  return figuresOf(asset, assetNumbers(asset));
}
