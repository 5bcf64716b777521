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
const renewableFields = ['en_ren_ons_con', 'en_ren_ons_tpt', 'en_ren_ofs_pbl', 'en_ren_ofs_pbt'];

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

const periodFields = {
  en: ['en_data_from', 'en_data_to'],
  wat: ['wat_data_from', 'wat_data_to'],
  was: ['was_data_from', 'was_data_to'],
} as const;
/**
 * The share of `year` inside a record's period, from the dates' day numbers (`dayNumber` keeps the
 * few periods a pool repeats, "2024-01-01" to "2024-12-31", parsed once): no key is built per record.
 */
function timeShare(rec: AnnualDataInput, prefix: keyof typeof periodFields, year: number): number {
  const [fromKey, toKey] = periodFields[prefix];
  const from = rec[fromKey];
  const to = rec[toKey];
  if (typeof from !== 'string' || typeof to !== 'string') return NaN;
  return periodShare(dayNumber(from), dayNumber(to), year);
}

function periodShare(from: number, to: number, year: number): number {
  if (Number.isNaN(from) || Number.isNaN(to)) return NaN;
  const first = Date.UTC(year, 0, 1) / 86_400_000;
  const next = Date.UTC(year + 1, 0, 1) / 86_400_000;
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
const combosOf: readonly (readonly number[])[] = [0, 1, 2].map((u) =>
  combos.flatMap((c, i) => (c.u === u ? [i] : [])),
);
const comboPart: readonly number[] = combos.map((c) => partIndex.get(c.part) ?? 0);
const slots = new Float64Array(combos.length * 3).fill(NaN);
const measured = new Float64Array(partIndex.size);
const touched: number[] = [];

function utilityYears(
  rec: AnnualDataInput,
  size: number,
  year: number,
): Record<PortfolioUtility, UtilityYear> {
  for (const key in rec) {
    const slot = fieldSlot.get(key);
    if (slot === undefined) continue;
    const value = num(rec[key]);
    if (Number.isNaN(value)) continue;
    slots[slot] = value;
    touched.push(slot);
  }
  const out: UtilityYear[] = [];
  const energyShare = timeShare(rec, 'en', year);
  for (let u = 0; u < 3; u++) {
    let total = 0;
    let covered = 0;
    let consumption = NaN;
    measured.fill(0);
    for (const c of combosOf[u]!) {
      const abs = slots[c * 3]!;
      const cov = slots[c * 3 + 1]!;
      const tot = slots[c * 3 + 2]!;
      if (!Number.isNaN(tot)) {
        total += tot;
        covered += Math.min(orZero(cov), tot);
      }
      if (!Number.isNaN(abs)) {
        consumption = orZero(consumption) + abs;
        // Utilities of one area part cover the same floor: the largest covered area per part counts.
        const p = comboPart[c]!;
        if (cov > measured[p]!) measured[p] = cov;
      }
    }
    let measuredArea = 0;
    for (const a of measured) measuredArea += a;
    out.push({
      covered,
      total,
      consumption,
      measuredArea,
      timeShare: u === 2 ? timeShare(rec, 'wat', year) : energyShare,
    });
  }
  for (const slot of touched) slots[slot] = NaN;
  touched.length = 0;
  const haz = num(rec['was_abs_haz']);
  const nhaz = num(rec['was_abs_nhaz']);
  const pcov = num(rec['was_pcov']);
  const wasteCovered = Number.isNaN(pcov) ? 0 : (Math.min(pcov, 100) / 100) * orZero(size);
  return {
    energy: out[0]!,
    ghg: out[1]!,
    water: out[2]!,
    waste: {
      covered: wasteCovered,
      total: Number.isNaN(pcov) ? 0 : orZero(size),
      consumption: Number.isNaN(haz) && Number.isNaN(nhaz) ? NaN : orZero(haz) + orZero(nhaz),
      measuredArea: wasteCovered,
      timeShare: timeShare(rec, 'was', year),
    },
  };
}

export function assetFigures(asset: AssetInput): AssetFigures {
  const size = num(asset.size !== undefined ? asset.size : asset.asset_size);
  const years = new Map<number, YearFigures>();
  for (const rec of Array.isArray(asset.annual_data) ? asset.annual_data : []) {
    if (!rec || typeof rec !== 'object') continue;
    const year = toNumber(rec.year);
    if (!Number.isInteger(year)) continue;
    const figures = utilityYears(rec, size, year);
    years.set(year, {
      year,
      standing: rec['ncmr_status'] === 'Standing Investment',
      ownedEntirePeriod: rec['owned_entire_period'] === true,
      utilities: figures,
      renewable: renewableFields.reduce((sum, field) => sum + orZero(num(rec[field])), 0),
    });
  }
  return {
    name: typeof asset.name === 'string' ? asset.name : '',
    propertyType: typeof asset.property_type_code === 'string' ? asset.property_type_code : '',
    country: typeof asset.country === 'string' ? asset.country : '',
    size: orZero(size),
    gav: orZero(num(asset.gav)),
    certifiedArea: coveredArea(asset.certifications, size),
    ratedArea: coveredArea(asset.energy_ratings, size),
    years,
  };
}
