/**
 * The portfolio view's figures, computed from the workspace's assets once per change of them: the
 * model's tables, the charts' data and the heatmap's, and the names of property types and countries.
 */
import { useMemo } from 'react';
import { useWorkspace } from '../store/workspace';
import { chartData, heatData } from './chart-data';
import { portfolioOf } from './portfolio-store';

export type NameOf = (by: 'propertyType' | 'country', code: string) => string;

export function usePortfolioFigures() {
  const assets = useWorkspace((s) => s.assets);
  const meta = useWorkspace((s) => s.meta);
  const revision = useWorkspace((s) => s.revision);
  const area = meta?.entity.reporting_preferences.area_units_name ?? 'square metres';
  const figures = useMemo(() => {
    if (!meta) return null;
    const model = portfolioOf(`${meta.connectionId}:${meta.entity.id}`, area, assets);
    return {
      model,
      byType: model.totals('propertyType'),
      byCountry: model.totals('country'),
      coverage: model.coverageRows(),
      lfl: model.lflRows(),
      intensity: model.intensityRows(),
      renewables: model.renewableRows(),
      heatmap: model.heatmap(),
    };
    // `revision` moves with every change of the workspace's assets.
  }, [meta, area, assets, revision]);
  const charts = useMemo(() => (figures ? chartData(figures.model) : null), [figures]);
  const assetName = useMemo(() => (key: string) => String(assets.get(key)?.doc['name'] ?? key), [assets]);
  const heat = useMemo(() => (figures ? heatData(figures.heatmap, assetName) : null), [figures, assetName]);
  // Property types and countries by their names from the service's lists (the code on hover).
  const names = useMemo(() => {
    const of = (items: readonly { value: string; label: string }[] | undefined) =>
      new Map((items ?? []).map((i) => [i.value, i.label]));
    return {
      propertyType: of(meta?.reference.propertyTypes),
      country: of(meta?.reference.countries),
    };
  }, [meta]);
  const nameOf = useMemo<NameOf>(
    () => (by, code) => (code === '' ? '(none)' : (names[by].get(code) ?? code)),
    [names],
  );
  return { assets, meta, area, figures, charts, heat, nameOf, assetName };
}

export type PortfolioCharts = NonNullable<ReturnType<typeof usePortfolioFigures>['charts']>;
