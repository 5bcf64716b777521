import { measureTriples } from '../../shared/domain/catalog';
import type { AssetInput } from '../../shared/domain';
import { dayNumber } from '../../shared/meters/dates';

/*
 * The Portfolio view's floor: one pass over the same assets' numbers, doing only what its figures
 * need and nothing twice, with no object made per asset or per record.
 *
 * Why this is the least work that gives the same figures (issue 33):
 * - every figure (totals, coverage, like-for-like, intensity, renewable share, the heatmap) is a sum
 *   by property type, country or year of numbers read from the assets' documents, so each number the
 *   view uses must be read once: each record's fields are walked once and each one the figures use
 *   is dropped into its slot (a record holds dozens of fields; naming each of the catalog's fields
 *   in turn would read more);
 * - coverage caps each covered area by its total, and the measured area takes the largest covered
 *   area per part of the building, so a record's utilities are worked out from its slots before
 *   they are summed (summing the raw fields, as this floor did before, gives other figures);
 * - time coverage needs each period's dates as day numbers: one memo look-up per date text;
 * - like-for-like needs each asset's consecutive years side by side, and the heatmap one share per
 *   asset, year and utility: both come from the asset's own record figures, kept in typed arrays.
 * What the view does beyond this (its rows as objects, their order, outlier ranges, the incremental
 * upkeep that makes an edit cost one asset) is its own cost, and what the ratio shows.
 * Returns a checksum so the work cannot be left out.
 */

const topics = ['energy', 'ghg', 'water'] as const;
const triples = measureTriples.filter((t) => (topics as readonly string[]).includes(t.topic));
/** Field name -> triple * 3 + measure (abs, cov, tot). */
const slotOf = new Map(
  triples.flatMap((t, i) => [t.abs, t.cov, t.tot].map((field, m) => [field, i * 3 + m] as const)),
);
const utilityOf = Int32Array.from(triples, (t) => topics.indexOf(t.topic as (typeof topics)[number]));
const parts = [...new Set(triples.map((t) => `${t.topic}:${t.areaPart}`))];
const partOf = Int32Array.from(triples, (t) => parts.indexOf(`${t.topic}:${t.areaPart}`));
const partUtility = Int32Array.from(parts, (p) =>
  topics.indexOf(p.slice(0, p.indexOf(':')) as (typeof topics)[number]),
);
const MAX_RECORDS = 64;
/** Per utility (4) of a record: covered, total, consumption, measured area, time share. */
const U = 4;
const F = 5;

function share(from: unknown, to: unknown, first: number, next: number): number {
  if (typeof from !== 'string' || typeof to !== 'string') return NaN;
  const a = dayNumber(from);
  const b = dayNumber(to);
  return Math.min(1, Math.max(0, Math.min(b, next - 1) - Math.max(a, first) + 1) / (next - first));
}

const numberOr = (v: unknown): number => (typeof v === 'number' && v >= 0 ? v : NaN);
const zeroIfNaN = (n: number): number => (Number.isNaN(n) ? 0 : n);

/** A record's utility at `i` counts in like-for-like: fully covered, with consumption. */
function fullyCovered(records: Float64Array, i: number): boolean {
  return records[i + 1]! > 0 && records[i]! >= records[i + 1]! - 1e-9 && !Number.isNaN(records[i + 2]!);
}

/** The floor's sums, as it leaves them (the test compares them with the view's figures). */
export interface FloorFigures {
  checksum: number;
  /** By property type and by country: assets, floor area, GAV, certified area, rated area. */
  byType: ReadonlyMap<string, Float64Array>;
  byCountry: ReadonlyMap<string, Float64Array>;
  /** By property type, then year; per utility 6: covered, total, timed, timed area, consumption, measured. */
  byTypeYear: ReadonlyMap<string, ReadonlyMap<number, Float64Array>>;
  /** By year: renewable, energy, then per utility 3 for like-for-like: assets, before, after. */
  byYear: ReadonlyMap<number, Float64Array>;
  /** Per asset, record and utility: covered over total (NaN without a total). */
  heat: readonly number[];
}

export function onePassOverNumbers(assets: readonly AssetInput[]): FloorFigures {
  const slots = new Float64Array(triples.length * 3).fill(NaN);
  const measured = new Float64Array(parts.length);
  const touched: number[] = [];
  const records = new Float64Array(MAX_RECORDS * U * F);
  const recordYears = new Int32Array(MAX_RECORDS);
  const recordOk = new Uint8Array(MAX_RECORDS);
  const heat: number[] = [];
  // Sums by property type or country (assets, area, GAV, certified, rated), by type and year
  // (per utility: covered, total, timed, timed area, consumption, measured), by year (renewable,
  // energy) and by year for like-for-like (per utility: assets, before, after).
  const byType = new Map<string, Float64Array>();
  const byCountry = new Map<string, Float64Array>();
  const byTypeYear = new Map<string, Map<number, Float64Array>>();
  const byYear = new Map<number, Float64Array>();
  const yearStart = new Map<number, number>();
  const startOf = (year: number): number => {
    let day = yearStart.get(year);
    if (day === undefined) yearStart.set(year, (day = Date.UTC(year, 0, 1) / 86_400_000));
    return day;
  };
  let checksum = 0;
  for (const asset of assets) {
    const type = typeof asset.property_type_code === 'string' ? asset.property_type_code : '';
    const country = typeof asset.country === 'string' ? asset.country : '';
    const size = zeroIfNaN(numberOr(asset.size));
    let certified = 0;
    for (const c of Array.isArray(asset.certifications) ? asset.certifications : [])
      certified += zeroIfNaN(numberOr((c as { size?: unknown }).size));
    let rated = 0;
    for (const r of Array.isArray(asset.energy_ratings) ? asset.energy_ratings : [])
      rated += zeroIfNaN(numberOr((r as { size?: unknown }).size));
    const gav = zeroIfNaN(numberOr(asset.gav));
    for (let k = 0; k < 2; k++) {
      const sumsBy = k === 0 ? byType : byCountry;
      const key = k === 0 ? type : country;
      let sums = sumsBy.get(key);
      if (!sums) sumsBy.set(key, (sums = new Float64Array(5)));
      sums[0] = sums[0]! + 1;
      sums[1] = sums[1]! + size;
      sums[2] = sums[2]! + gav;
      sums[3] = sums[3]! + Math.min(certified, size);
      sums[4] = sums[4]! + Math.min(rated, size);
    }
    let years = byTypeYear.get(type);
    if (!years) byTypeYear.set(type, (years = new Map()));
    const recs = Array.isArray(asset.annual_data) ? asset.annual_data : [];
    const n = Math.min(recs.length, MAX_RECORDS);
    for (let r = 0; r < n; r++) {
      const rec = recs[r]!;
      const year = rec.year;
      recordYears[r] = typeof year === 'number' ? year : -1;
      if (typeof year !== 'number') continue;
      for (const field in rec) {
        const slot = slotOf.get(field);
        if (slot === undefined) continue;
        const value = numberOr(rec[field]);
        if (Number.isNaN(value)) continue;
        slots[slot] = value;
        touched.push(slot);
      }
      const first = startOf(year);
      const next = startOf(year + 1);
      const energyShare = share(rec['en_data_from'], rec['en_data_to'], first, next);
      const o = r * U * F;
      records.fill(0, o, o + U * F);
      for (let u = 0; u < U; u++) records[o + u * F + 2] = NaN;
      measured.fill(0);
      for (const slot of touched) {
        if (slot % 3 !== 0) continue;
        // Each triple once, through its `abs` (its `cov` and `tot` sit beside it).
        const t = slot / 3;
        const u = utilityOf[t]!;
        const cov = slots[slot + 1]!;
        const abs = slots[slot]!;
        records[o + u * F + 2] = zeroIfNaN(records[o + u * F + 2]!) + abs;
        if (cov > measured[partOf[t]!]!) measured[partOf[t]!] = cov;
      }
      for (const slot of touched) {
        if (slot % 3 !== 2) continue;
        const u = utilityOf[(slot - 2) / 3]!;
        const tot = slots[slot]!;
        records[o + u * F] = records[o + u * F]! + Math.min(zeroIfNaN(slots[slot - 1]!), tot);
        records[o + u * F + 1] = records[o + u * F + 1]! + tot;
      }
      for (let p = 0; p < parts.length; p++) {
        const i = o + partUtility[p]! * F + 3;
        records[i] = records[i]! + measured[p]!;
      }
      for (const slot of touched) slots[slot] = NaN;
      touched.length = 0;
      records[o + 4] = energyShare;
      records[o + F + 4] = energyShare;
      records[o + 2 * F + 4] = share(rec['wat_data_from'], rec['wat_data_to'], first, next);
      const pcov = numberOr(rec['was_pcov']);
      const haz = numberOr(rec['was_abs_haz']);
      const nhaz = numberOr(rec['was_abs_nhaz']);
      const wasteCovered = Number.isNaN(pcov) ? 0 : (Math.min(pcov, 100) / 100) * size;
      records[o + 3 * F] = wasteCovered;
      records[o + 3 * F + 1] = Number.isNaN(pcov) ? 0 : size;
      records[o + 3 * F + 2] =
        Number.isNaN(haz) && Number.isNaN(nhaz) ? NaN : zeroIfNaN(haz) + zeroIfNaN(nhaz);
      records[o + 3 * F + 3] = wasteCovered;
      records[o + 3 * F + 4] = share(rec['was_data_from'], rec['was_data_to'], first, next);
      recordOk[r] =
        rec['ncmr_status'] === 'Standing Investment' && rec['owned_entire_period'] === true ? 1 : 0;
      let sums = years.get(year);
      if (!sums) years.set(year, (sums = new Float64Array(U * 6)));
      let yearSums = byYear.get(year);
      if (!yearSums) byYear.set(year, (yearSums = new Float64Array(2 + U * 3)));
      for (let u = 0; u < U; u++) {
        const covered = records[o + u * F]!;
        const total = records[o + u * F + 1]!;
        const consumption = records[o + u * F + 2]!;
        const timeShare = records[o + u * F + 4]!;
        sums[u * 6]! += covered;
        sums[u * 6 + 1]! += total;
        if (!Number.isNaN(timeShare)) {
          sums[u * 6 + 2]! += timeShare * total;
          sums[u * 6 + 3]! += total;
        }
        if (!Number.isNaN(consumption)) {
          sums[u * 6 + 4]! += consumption;
          sums[u * 6 + 5]! += records[o + u * F + 3]!;
        }
        heat.push(total > 0 ? covered / total : NaN);
      }
      yearSums[0]! +=
        zeroIfNaN(numberOr(rec['en_ren_ons_con'])) +
        zeroIfNaN(numberOr(rec['en_ren_ons_tpt'])) +
        zeroIfNaN(numberOr(rec['en_ren_ofs_pbl'])) +
        zeroIfNaN(numberOr(rec['en_ren_ofs_pbt']));
      yearSums[1]! += zeroIfNaN(records[o + 2]!);
    }
    // Like-for-like: each year beside the next one of the same asset.
    for (let a = 0; a < n; a++) {
      if (recordYears[a]! < 0 || !recordOk[a]) continue;
      for (let b = 0; b < n; b++) {
        if (recordYears[b] !== recordYears[a]! + 1 || !recordOk[b]) continue;
        const lfl = byYear.get(recordYears[a]!)!;
        for (let u = 0; u < U; u++) {
          const x = a * U * F + u * F;
          const y = b * U * F + u * F;
          if (!fullyCovered(records, x) || !fullyCovered(records, y)) continue;
          lfl[2 + u * 3]! += 1;
          lfl[2 + u * 3 + 1]! += records[x + 2]!;
          lfl[2 + u * 3 + 2]! += records[y + 2]!;
        }
      }
    }
  }
  for (const sums of byType.values()) checksum += sums[1]!;
  for (const sums of byCountry.values()) checksum += sums[2]!;
  for (const years of byTypeYear.values()) for (const sums of years.values()) checksum += sums[0]!;
  for (const sums of byYear.values()) checksum += sums[0]! + sums[2]!;
  return { checksum: checksum + heat.length, byType, byCountry, byTypeYear, byYear, heat };
}
