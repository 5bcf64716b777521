/**
 * Outlier detection as the service runs it after each write, so the app can predict `_outliers`
 * offline. Ranges are data (per property type) because the published ones change between years.
 */
import type { AnnualDataInput, AreaUnit, AssetInput, Outlier, OutlierKpi } from './types';
import { measureTriples } from './catalog';
import { SQFT_TO_M2 } from './context';
import { usableSize } from './rules/asset-rules';
import { toNumber } from './values';

/** Intensity range per square metre: en kWh, ghg tonnes, wat m3, was tonnes. */
export type IntensityRange = { readonly min: number; readonly max: number };
export type KpiRanges = Readonly<Partial<Record<OutlierKpi, IntensityRange>>>;

export type OutlierThresholds = {
  /** Keyed by property type code; KPIs missing here fall back to `fallback`. */
  readonly byPropertyType: Readonly<Record<string, KpiRanges>>;
  readonly fallback: KpiRanges;
  /** A like-for-like change beyond +/- this percentage is an outlier. */
  readonly lflMaxChangePercent: number;
};

/**
 * Ranges as the service's docs publish them per property type (energy kWh/m², GHG kg/m², water
 * l/m², waste kg/m²), here in the units the maths uses (kWh, tonnes, m³ per m²).
 */
const ranges = (en: [number, number], ghgKg: number, watL: number, wasKg: number): KpiRanges => ({
  en: { min: en[0], max: en[1] },
  ghg: { min: 0, max: ghgKg / 1000 },
  wat: { min: 0, max: watL / 1000 },
  was: { min: 0, max: wasKg / 1000 },
});
const office = ranges([80, 600], 400, 4000, 300);
const retailStreet = ranges([40, 800], 400, 5000, 400);
const residential = ranges([40, 600], 300, 4000, 300);
const other = ranges([10, 800], 400, 5000, 400);

/** Keyed by the codes of the `equity_asset_type` list (see `defaultPropertyTypes`). */
export const defaultOutlierThresholds: OutlierThresholds = {
  byPropertyType: {
    OCHI: office,
    OCMI: office,
    OCLO: office,
    OBPK: office,
    OMED: ranges([20, 600], 400, 4000, 300),
    RHST: retailStreet,
    RSCC: retailStreet,
    RWRH: ranges([10, 400], 300, 3000, 400),
    IDWH: ranges([10, 400], 200, 2000, 200),
    IBPK: ranges([1, 400], 200, 2000, 200),
    IMFG: ranges([10, 400], 300, 3000, 400),
    RMFA: residential,
    RFHO: residential,
    RSNH: residential,
    RSTU: residential,
    HTL: ranges([40, 800], 400, 5000, 300),
    HCAR: ranges([80, 800], 400, 4000, 300),
    LLRE: ranges([20, 600], 300, 4000, 300),
    DATC: ranges([500, 8000], 3000, 5000, 200),
    SSTO: ranges([10, 400], 200, 3000, 200),
    PARK: ranges([1, 400], 200, 3000, 200),
  },
  fallback: other,
  lflMaxChangePercent: 50,
};

export type OutlierOptions = {
  areaUnit: AreaUnit;
  thresholds?: OutlierThresholds;
  /** Year to check; defaults to the latest year in `annual_data`. */
  year?: number;
};

const kpis: readonly OutlierKpi[] = ['en', 'ghg', 'wat', 'was'];
const decimals: Record<OutlierKpi, number> = { en: 1, ghg: 4, wat: 3, was: 4 };
const triplesByTopic = {
  en: measureTriples.filter((t) => t.topic === 'energy'),
  ghg: measureTriples.filter((t) => t.topic === 'ghg'),
  wat: measureTriples.filter((t) => t.topic === 'water'),
} as const;

/** Consumption over covered floor area (m2), or NaN when there is nothing to divide. */
function intensity(kpi: OutlierKpi, rec: AnnualDataInput, size: number, toM2: number): number {
  let consumption = 0;
  let area = 0;
  if (kpi === 'was') {
    const haz = toNumber(rec.was_abs_haz);
    const nhaz = toNumber(rec.was_abs_nhaz);
    if (Number.isNaN(haz) && Number.isNaN(nhaz)) return NaN;
    consumption = (Number.isNaN(haz) ? 0 : haz) + (Number.isNaN(nhaz) ? 0 : nhaz);
    const pcov = toNumber(rec.was_pcov);
    area = Number.isNaN(size) ? NaN : (size * (Number.isNaN(pcov) ? 100 : pcov)) / 100;
  } else if (kpi === 'ghg') {
    // Scopes cover the same floor area, so the area is the largest covered one, not a sum.
    for (const t of triplesByTopic.ghg) {
      const a = toNumber(rec[t.abs]);
      const c = toNumber(rec[t.cov]);
      if (a >= 0 && c > 0) {
        consumption += a;
        if (c > area) area = c;
      }
    }
  } else {
    // Utilities of one area part cover the same floor area: take the largest per part, sum over parts.
    const perPart = new Map<string, number>();
    for (const t of triplesByTopic[kpi]) {
      const a = toNumber(rec[t.abs]);
      const c = toNumber(rec[t.cov]);
      if (a >= 0 && c > 0) {
        consumption += a;
        perPart.set(t.areaPart, Math.max(perPart.get(t.areaPart) ?? 0, c));
      }
    }
    for (const c of perPart.values()) area += c;
  }
  const areaM2 = area * toM2;
  return areaM2 > 0 ? consumption / areaM2 : NaN;
}

function annualRecords(asset: AssetInput): AnnualDataInput[] {
  return Array.isArray(asset.annual_data)
    ? asset.annual_data.filter((r) => r !== null && typeof r === 'object')
    : [];
}

function previousAccepted(asset: AssetInput, kpi: OutlierKpi, type: Outlier['type']): boolean {
  const prior = asset._outliers;
  if (!Array.isArray(prior)) return false;
  for (const o of prior as unknown[]) {
    if (o !== null && typeof o === 'object') {
      const r = o as Record<string, unknown>;
      if (r.kpi === kpi && r.type === type && r.accepted === true) return true;
    }
  }
  return false;
}

/**
 * `_outliers` for one asset: an intensity outside the property type's range, and a like-for-like
 * intensity change against the previous year beyond the threshold. `accepted` is kept from the
 * asset's existing `_outliers` (an analyst's acceptance survives recomputation), else false.
 */
export function computeOutliers(asset: AssetInput, opts: OutlierOptions): Outlier[] {
  const thresholds = opts.thresholds ?? defaultOutlierThresholds;
  const records = annualRecords(asset);
  let year = opts.year;
  if (year === undefined) {
    for (const r of records) {
      const y = toNumber(r.year);
      if (Number.isInteger(y) && (year === undefined || y > year)) year = y;
    }
  }
  if (year === undefined) return [];
  const current = records.find((r) => toNumber(r.year) === year);
  if (!current) return [];
  const previous = records.find((r) => toNumber(r.year) === (year as number) - 1);
  const toM2 = opts.areaUnit === 'sqft' ? SQFT_TO_M2 : 1;
  const size = usableSize(asset);
  const ptype = typeof asset.property_type_code === 'string' ? asset.property_type_code : '';
  const ranges = thresholds.byPropertyType[ptype];

  const out: Outlier[] = [];
  for (const kpi of kpis) {
    const value = intensity(kpi, current, size, toM2);
    if (Number.isNaN(value)) continue;
    const range = ranges?.[kpi] ?? thresholds.fallback[kpi];
    if (range && (value < range.min || value > range.max)) {
      out.push({
        kpi,
        type: 'intensity',
        accepted: previousAccepted(asset, kpi, 'intensity'),
        value: value.toFixed(decimals[kpi]),
      });
    }
    if (previous) {
      const before = intensity(kpi, previous, size, toM2);
      if (before > 0) {
        const change = ((value - before) / before) * 100;
        if (Math.abs(change) > thresholds.lflMaxChangePercent) {
          out.push({
            kpi,
            type: 'lfl',
            accepted: previousAccepted(asset, kpi, 'lfl'),
            value: change.toFixed(1),
          });
        }
      }
    }
  }
  return out;
}
