/** The portfolio's three charts; a bar shows its assets in the grid. */
import { useCallback, useMemo } from 'react';
import { utilities } from '../../../shared/portfolio/asset-figures';
import { lflQualifies, type PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { areaLabel } from '../grid-model/columns';
import { filterAssets } from '../store/ui';
import { BarChart } from './BarChart';
import { utilityLabels } from './chart-data';
import { num } from './portfolio-format';
import type { NameOf, PortfolioCharts } from './usePortfolioFigures';

const percent = (v: number): string => `${v.toFixed(0)} %`;

export function PortfolioChartsRow(props: {
  model: PortfolioModel;
  charts: PortfolioCharts;
  area: string;
  nameOf: NameOf;
}) {
  const { model, charts, area, nameOf } = props;
  const areaUnit = areaLabel(area);
  const floor = useCallback((v: number) => `${num(v)} ${areaUnit}`, [areaUnit]);
  // One array per change of the figures: the chart is drawn again only when its data changes.
  const typeNames = useMemo(() => charts.types.map((code) => nameOf('propertyType', code)), [charts, nameOf]);
  const onTypeBar = useCallback(
    (i: number) => {
      const key = charts.types[i];
      if (key !== undefined)
        filterAssets(
          `property type ${key || '(none)'}`,
          model.assetKeys((f) => f.propertyType === key),
          'assets',
        );
    },
    [charts, model],
  );
  const onCoverageBar = useCallback(
    (i: number, s: number) => {
      const year = charts.years[i];
      const utility = utilities[s];
      if (year === undefined || !utility) return;
      filterAssets(
        `${utilityLabels[utility]} coverage below 100 % in ${year}`,
        model.assetKeys((f) => {
          const u = f.years.get(year)?.utilities[utility];
          return u !== undefined && u.total > 0 && u.covered < u.total - 1e-9;
        }),
        'annual',
      );
    },
    [charts, model],
  );
  const onLflBar = useCallback(
    (i: number, s: number) => {
      const fromYear = charts.lflYears[i];
      const utility = utilities[s];
      if (fromYear === undefined || !utility) return;
      filterAssets(
        `counted in the ${utilityLabels[utility]} like-for-like ${fromYear} → ${fromYear + 1}`,
        model.assetKeys((f) => lflQualifies(f, utility, fromYear)),
        'annual',
      );
    },
    [charts, model],
  );
  const yearNames = useMemo(() => charts.years.map(String), [charts]);
  const lflNames = useMemo(() => charts.lflYears.map((y) => `${y} → ${y + 1}`), [charts]);
  return (
    <section className="portfolio-charts">
      <BarChart
        testId="chart-floor-area"
        title={`Floor area by property type (${area}); a bar shows its assets`}
        categories={typeNames}
        series={charts.floorArea}
        xTitle="Property type"
        yTitle={area}
        format={floor}
        onBar={onTypeBar}
      />
      <BarChart
        testId="chart-coverage"
        title="Data coverage by utility and year; a bar shows the assets below 100 %"
        categories={yearNames}
        series={charts.coverage}
        xTitle="Year"
        yTitle="Floor area with data (%)"
        format={percent}
        onBar={onCoverageBar}
      />
      <BarChart
        testId="chart-lfl"
        title="Like-for-like change by utility; a bar shows the assets it counts"
        categories={lflNames}
        series={charts.lfl}
        xTitle="Years compared"
        yTitle="Change (%)"
        format={percent}
        onBar={onLflBar}
      />
    </section>
  );
}
