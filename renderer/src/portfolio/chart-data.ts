/** The Portfolio view's charts' data, from the model's rows. Pure. */
import { utilities, type PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import type { PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { seriesColor, type BarSeries } from './BarChart';
import type { HeatCell } from './CoverageHeatmap';

export const utilityLabels: Record<PortfolioUtility, string> = {
  energy: 'Energy',
  ghg: 'GHG',
  water: 'Water',
  waste: 'Waste',
};

/** The charts' categories and series, from the model's rows. */
export function chartData(model: PortfolioModel) {
  const byType = model.totals('propertyType');
  const coverage = model.coverageRows();
  const lfl = model.lflRows();
  const years = [...new Set(coverage.map((r) => r.year))].sort((a, b) => a - b);
  const lflYears = [...new Set(lfl.map((r) => r.fromYear))].sort((a, b) => a - b);
  const perUtility = (values: (u: PortfolioUtility) => (number | null)[]): BarSeries[] =>
    utilities.map((u, i) => ({ label: utilityLabels[u], values: values(u), color: seriesColor(i) }));
  return {
    types: byType.map((r) => r.key),
    typeLabels: byType.map((r) => r.key || '(none)'),
    floorArea: [{ label: 'Floor area', values: byType.map((r) => r.floorArea), color: seriesColor(0) }],
    years,
    coverage: perUtility((u) =>
      years.map((y) => {
        const share = coverage.find((r) => r.year === y && r.utility === u)?.share;
        return share === undefined || share === null ? null : share * 100;
      }),
    ),
    lflYears,
    lfl: perUtility((u) =>
      lflYears.map((y) => lfl.find((r) => r.fromYear === y && r.utility === u)?.changePercent ?? null),
    ),
  };
}

/** Heat map rows: the assets with the most gaps first; the chart takes the first ones. */
export function heatData(
  cells: { key: string; utility: PortfolioUtility; year: number; share: number | null }[],
  nameOf: (key: string) => string,
) {
  const chartRows = 60;
  const tableRows = 500;
  const byAsset = new Map<string, Map<string, number | null>>();
  const years = new Set<number>();
  for (const cell of cells) {
    let row = byAsset.get(cell.key);
    if (!row) byAsset.set(cell.key, (row = new Map()));
    row.set(`${cell.utility}|${cell.year}`, cell.share);
    years.add(cell.year);
  }
  const gaps = (row: Map<string, number | null>): number =>
    [...row.values()].reduce<number>((n, v) => n + (v === null ? 0.5 : 1 - v), 0);
  const ordered = [...byAsset].sort((a, b) => gaps(b[1]) - gaps(a[1]));
  const sortedYears = [...years].sort((a, b) => a - b);
  const columns = sortedYears.flatMap((y) => utilities.map((u) => `${utilityLabels[u]} ${y}`));
  const shown = ordered.slice(0, chartRows);
  const rowNames = shown.map(([key]) => nameOf(key) || key);
  const chartCells: HeatCell[] = shown.flatMap(([key, row], i) =>
    sortedYears.flatMap((year) =>
      utilities.map((u) => ({
        x: `${utilityLabels[u]} ${year}`,
        y: rowNames[i] ?? key,
        v: row.get(`${u}|${year}`) ?? null,
        key,
        year,
      })),
    ),
  );
  return {
    cells: chartCells,
    columns,
    rowNames,
    hidden: Math.max(0, ordered.length - chartRows),
    table: ordered.slice(0, tableRows),
  };
}
