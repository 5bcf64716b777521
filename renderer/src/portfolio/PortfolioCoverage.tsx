/** Data coverage: per year and utility, and per asset (the heat map and its table); a cell opens the asset. */
import { useCallback } from 'react';
import type { PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import type { CoverageRow } from '../../../shared/portfolio/portfolio-model';
import type { AssetTable } from '../store/asset-table';
import { jumpTo } from '../store/ui';
import { utilityLabels, type heatData } from './chart-data';
import { CoverageHeatmap, coverageLevel, type HeatCell } from './CoverageHeatmap';
import { pct } from './portfolio-format';

const utilityKeys = Object.keys(utilityLabels) as PortfolioUtility[];

export function PortfolioCoverage(props: {
  coverage: readonly CoverageRow[];
  years: readonly number[];
  heat: ReturnType<typeof heatData>;
  assets: AssetTable;
}) {
  const { coverage, years, heat } = props;
  const openCell = useCallback(
    (cell: HeatCell) => jumpTo(cell.key, `annual_data/${cell.year}/year`, 'annual'),
    [],
  );
  return (
    <section>
      <h2>Data coverage (floor area with data over floor area where the supply exists)</h2>
      <table className="portfolio-table" data-testid="portfolio-coverage">
        <thead>
          <tr>
            <th scope="col">Year</th>
            {utilityKeys.map((u) => (
              <th scope="col" key={u}>
                {utilityLabels[u]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {years.map((year) => (
            <tr key={year}>
              <th scope="row">{year}</th>
              {utilityKeys.map((u) => {
                const row = coverage.find((r) => r.year === year && r.utility === u);
                return (
                  <td
                    key={u}
                    title={row?.timeShare != null ? `time coverage ${pct(row.timeShare)}` : undefined}
                  >
                    {pct(row?.share ?? null)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <CoverageHeatmap cells={heat.cells} columns={heat.columns} rows={heat.rowNames} onCell={openCell} />
      {heat.hidden > 0 && (
        <p className="hint">{`${heat.hidden} more assets, with fewer gaps, are in the table and the export.`}</p>
      )}
      <CoverageByAsset table={heat.table} years={years} assets={props.assets} />
    </section>
  );
}

function CoverageByAsset(props: {
  table: ReturnType<typeof heatData>['table'];
  years: readonly number[];
  assets: AssetTable;
}) {
  const { years } = props;
  return (
    <details>
      <summary>Coverage by asset as a table (a cell opens the asset)</summary>
      <table className="portfolio-heatmap" data-testid="portfolio-heatmap">
        <thead>
          <tr>
            <th scope="col">Asset</th>
            {years.flatMap((year) =>
              utilityKeys.map((u) => (
                <th scope="col" key={`${u}|${year}`}>{`${utilityLabels[u]} ${year}`}</th>
              )),
            )}
          </tr>
        </thead>
        <tbody>
          {props.table.map(([localId, row]) => (
            <tr key={localId}>
              <th scope="row">{props.assets.get(localId)?.doc['name'] as string}</th>
              {years.flatMap((year) =>
                utilityKeys.map((u) => {
                  const share = row.get(`${u}|${year}`) ?? null;
                  return (
                    <td key={`${u}|${year}`} className={`heat-${coverageLevel(share)}`}>
                      <button
                        type="button"
                        onClick={() => jumpTo(localId, `annual_data/${year}/year`, 'annual')}
                      >
                        {pct(share)}
                      </button>
                    </td>
                  );
                }),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
