/** The portfolio's three charts; a bar shows its assets in the grid. */
import { useCallback, useMemo } from 'react';
import { utilities, type AssetFigures, type PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import { lflQualifies, type PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { areaLabel } from '../grid-model/columns';
import { filterAssets } from '../store/ui';
import { BarChart } from './BarChart';
import { utilityLabels } from './chart-data';
import { num } from './portfolio-format';
import type { NameOf, PortfolioCharts } from './usePortfolioFigures';

const percent = (v: number): string => `${v.toFixed(0)} %`;

/**
 * A bar of a chart by year (its category) and utility (its series): shows the assets `match` picks
 * in the annual grid, under the filter's `label`.
 */
function yearUtilityBar(
  years: readonly number[],
  model: PortfolioModel,
  label: (utility: PortfolioUtility, year: number) => string,
  match: (figures: AssetFigures, utility: PortfolioUtility, year: number) => boolean,
): (i: number, s: number) => void {
  return (i, s) => {
    const year = years[i];
    const utility = utilities[s];
    if (year === undefined || !utility) return;
    filterAssets(
      label(utility, year),
      model.assetKeys((f) => match(f, utility, year)),
      'annual',
    );
  };
}

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
  const onCoverageBar = useMemo(
    () =>
      yearUtilityBar(
        charts.years,
        model,
        (utility, year) => `${utilityLabels[utility]} coverage below 100 % in ${year}`,
        (f, utility, year) => {
          const u = f.years.get(year)?.utilities[utility];
          return u !== undefined && u.total > 0 && u.covered < u.total - 1e-9;
        },
      ),
    [charts, model],
  );
  const onLflBar = useMemo(
    () =>
      yearUtilityBar(
        charts.lflYears,
        model,
        (utility, fromYear) =>
          `counted in the ${utilityLabels[utility]} like-for-like ${fromYear} → ${fromYear + 1}`,
        lflQualifies,
      ),
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
