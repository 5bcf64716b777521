/**
 * The numbers behind an outlier, per asset and KPI: the intensity in every year, the like-for-like
 * change year on year, and the thresholds. Computed with the shared outlier maths (`computeOutliers`)
 * run once per year with thresholds that flag everything, so this view and the flags cannot disagree.
 * Pure.
 */
import {
  computeOutliers,
  defaultOutlierThresholds,
  type AreaUnit,
  type AssetInput,
  type IntensityRange,
  type Outlier,
  type OutlierKpi,
  type OutlierThresholds,
} from '../../../shared/domain';

export const kpiLabels: Record<OutlierKpi, { name: string; unit: string }> = {
  en: { name: 'Energy intensity', unit: 'kWh/m²' },
  ghg: { name: 'GHG intensity', unit: 't/m²' },
  wat: { name: 'Water intensity', unit: 'm³/m²' },
  was: { name: 'Waste intensity', unit: 't/m²' },
};

const everything: OutlierThresholds = {
  byPropertyType: {},
  fallback: {
    en: { min: Infinity, max: -Infinity },
    ghg: { min: Infinity, max: -Infinity },
    wat: { min: Infinity, max: -Infinity },
    was: { min: Infinity, max: -Infinity },
  },
  lflMaxChangePercent: -1,
};

export interface KpiSeries {
  kpi: OutlierKpi;
  points: Array<{ year: number; intensity: number; lfl: number | null; outside: boolean }>;
  range: IntensityRange | undefined;
  lflLimit: number;
  /** Flags for the latest year: offline (shared rules) and what the service said. */
  flags: Outlier[];
  serviceFlags: Outlier[];
}

export function outlierSeries(
  asset: AssetInput,
  areaUnit: AreaUnit,
  serviceOutliers: readonly Outlier[] = [],
  thresholds: OutlierThresholds = defaultOutlierThresholds,
): KpiSeries[] {
  const years = (Array.isArray(asset.annual_data) ? asset.annual_data : [])
    .map((r) => Number(r?.year))
    .filter((y) => Number.isInteger(y))
    .sort((a, b) => a - b);
  const ptype = typeof asset.property_type_code === 'string' ? asset.property_type_code : '';
  const flags = computeOutliers(asset, { areaUnit, thresholds });
  const byKpi = new Map<OutlierKpi, KpiSeries>();
  const kpis: OutlierKpi[] = ['en', 'ghg', 'wat', 'was'];
  for (const kpi of kpis) {
    const range = thresholds.byPropertyType[ptype]?.[kpi] ?? thresholds.fallback[kpi];
    byKpi.set(kpi, {
      kpi,
      points: [],
      range,
      lflLimit: thresholds.lflMaxChangePercent,
      flags: flags.filter((f) => f.kpi === kpi),
      serviceFlags: serviceOutliers.filter((f) => f.kpi === kpi),
    });
  }
  for (const year of years) {
    const all = computeOutliers(asset, { areaUnit, year, thresholds: everything });
    for (const kpi of kpis) {
      const intensity = all.find((o) => o.kpi === kpi && o.type === 'intensity');
      if (!intensity) continue;
      const lfl = all.find((o) => o.kpi === kpi && o.type === 'lfl');
      const value = Number(intensity.value);
      const series = byKpi.get(kpi)!;
      const range = series.range;
      series.points.push({
        year,
        intensity: value,
        lfl: lfl ? Number(lfl.value) : null,
        outside: range !== undefined && (value < range.min || value > range.max),
      });
    }
  }
  return [...byKpi.values()].filter((s) => s.points.length > 0);
}
