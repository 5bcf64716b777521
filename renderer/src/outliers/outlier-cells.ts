/**
 * Which annual cells an outlier points at, so the grid can mark them: for each flagged KPI (the
 * service's `_outliers` and the offline check), the consumption fields of that topic in the year
 * checked (the latest). Cached per asset view: views are replaced when their asset changes.
 */
import {
  annualFieldCatalog,
  areaUnitFromName,
  computeOutliers,
  type OutlierKpi,
} from '../../../shared/domain';
import type { AssetView } from '../../../shared/sync/types';
import { useWorkspace } from '../store/workspace';

const topicOf: Record<OutlierKpi, string> = { en: 'energy', ghg: 'ghg', wat: 'water', was: 'waste' };
const consumptionFields: Record<string, string[]> = {};
for (const def of annualFieldCatalog) {
  if (def.measure !== 'abs') continue;
  (consumptionFields[def.topic] ??= []).push(def.name);
}

const consumption: ReadonlySet<string> = new Set(Object.values(consumptionFields).flat());

/** Whether an annual field can be an outlier's cell at all (a grid's column asks once, not per cell). */
export function isOutlierField(field: string): boolean {
  return consumption.has(field);
}

const cache = new WeakMap<AssetView, ReadonlySet<string>>();

export function outlierCells(view: AssetView): ReadonlySet<string> {
  const hit = cache.get(view);
  if (hit) return hit;
  const areaUnit = areaUnitFromName(
    useWorkspace.getState().meta?.entity.reporting_preferences.area_units_name,
  );
  const flagged = new Set<OutlierKpi>([
    ...view.outliers.map((o) => o.kpi),
    ...computeOutliers(view.doc, { areaUnit }).map((o) => o.kpi),
  ]);
  const cells = new Set<string>();
  const records = Array.isArray(view.doc['annual_data'])
    ? (view.doc['annual_data'] as Record<string, unknown>[])
    : [];
  const latest = records.reduce<Record<string, unknown> | undefined>(
    (best, rec) => (!best || Number(rec['year']) > Number(best['year']) ? rec : best),
    undefined,
  );
  if (latest) {
    for (const kpi of flagged)
      for (const field of consumptionFields[topicOf[kpi]] ?? [])
        if (latest[field] !== undefined && latest[field] !== null)
          cells.add(`annual_data/${String(latest['year'])}/${field}`);
  }
  cache.set(view, cells);
  return cells;
}
