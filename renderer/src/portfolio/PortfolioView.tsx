/**
 * Before the data is sent: the portfolio's totals, data coverage, like-for-like change, intensity
 * and renewable share, computed offline from the workspace (shared/portfolio). A coverage cell or an
 * excluded asset opens the asset in the grid.
 */
import { MeterFiguresTable } from '../meters/MeterFiguresTable';
import { useCallback, useMemo, useState } from 'react';
import { utilities, type PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import { lflQualifies } from '../../../shared/portfolio/portfolio-model';
import { bridge } from '../bridge';
import { saveDownload } from '../bridge/browser-files';
import { filterAssets, jumpTo, notify } from '../store/ui';
import { errorMessage } from '../../../shared/errors';
import { portfolioTables } from './export-tables';
import { BarChart } from './BarChart';
import { chartData, heatData, utilityLabels } from './chart-data';
import { CoverageHeatmap, type HeatCell } from './CoverageHeatmap';
import { useWorkspace } from '../store/workspace';
import { portfolioOf } from './portfolio-store';
import { areaLabel } from '../grid-model/columns';

const consumptionUnits: Record<PortfolioUtility, string> = {
  energy: 'kWh',
  ghg: 't',
  water: 'm³',
  waste: 't',
};

/**
 * An intensity per floor-area unit: GHG and waste in kg (their tonnes per m² read "0 t"), every
 * utility with three significant digits, so small values keep their figures.
 */
export function intensityText(utility: PortfolioUtility, perArea: number): string {
  const tonnes = consumptionUnits[utility] === 't';
  const value = tonnes ? perArea * 1000 : perArea;
  const digits = Math.abs(value) >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 };
  return `${value.toLocaleString(undefined, digits)} ${tonnes ? 'kg' : consumptionUnits[utility]}`;
}

const pct = (share: number | null): string => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);
const num = (n: number): string => n.toLocaleString(undefined, { maximumFractionDigits: 1 });

export function PortfolioView() {
  const assets = useWorkspace((s) => s.assets);
  const meta = useWorkspace((s) => s.meta);
  const revision = useWorkspace((s) => s.revision);
  const [lflPick, setLflPick] = useState<{ utility: PortfolioUtility; fromYear: number } | null>(null);
  const prefs = meta?.entity.reporting_preferences;
  const area = prefs?.area_units_name ?? 'square metres';
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
  const heat = useMemo(
    () => (figures ? heatData(figures.heatmap, (key) => String(assets.get(key)?.doc['name'] ?? key)) : null),
    [figures, assets],
  );
  const openCell = useCallback(
    (cell: HeatCell) => jumpTo(cell.key, `annual_data/${cell.year}/year`, 'annual'),
    [],
  );
  const percent = useCallback((v: number) => `${v.toFixed(0)} %`, []);
  const areaUnit = areaLabel(area);
  const floor = useCallback((v: number) => `${num(v)} ${areaUnit}`, [areaUnit]);
  // Property types and countries by their names from the service's lists (the code on hover).
  const names = useMemo(() => {
    const of = (items: readonly { value: string; label: string }[] | undefined) =>
      new Map((items ?? []).map((i) => [i.value, i.label]));
    return {
      propertyType: of(meta?.reference.propertyTypes),
      country: of(meta?.reference.countries),
    };
  }, [meta]);
  const nameOf = (by: 'propertyType' | 'country', code: string): string =>
    code === '' ? '(none)' : (names[by].get(code) ?? code);
  // One array per change of the figures: the chart is drawn again only when its data changes.
  const typeNames = useMemo(
    () =>
      (charts?.types ?? []).map((code) => (code === '' ? '(none)' : (names.propertyType.get(code) ?? code))),
    [charts, names],
  );
  const model = figures?.model;
  const onTypeBar = useCallback(
    (i: number) => {
      const key = charts?.types[i];
      if (model && key !== undefined)
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
      const year = charts?.years[i];
      const utility = utilities[s];
      if (!model || year === undefined || !utility) return;
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
      const fromYear = charts?.lflYears[i];
      const utility = utilities[s];
      if (!model || fromYear === undefined || !utility) return;
      filterAssets(
        `counted in the ${utilityLabels[utility]} like-for-like ${fromYear} → ${fromYear + 1}`,
        model.assetKeys((f) => lflQualifies(f, utility, fromYear)),
        'annual',
      );
    },
    [charts, model],
  );
  if (!figures || !meta || !charts || !heat) return null;
  const exportTables = async (): Promise<void> => {
    const tables = portfolioTables(figures.model, { area, currency: prefs?.currency ?? '' }, (key) =>
      String(assets.get(key)?.doc['name'] ?? key),
    );
    try {
      const written = await bridge.methods['portfolio.export']({ tables });
      if (written?.downloadId) await saveDownload(written.downloadId, written.fileName);
      if (written) notify('info', `Exported ${written.tables} tables to ${written.fileName}`);
    } catch (error) {
      notify('error', `Could not export the tables: ${errorMessage(error)}`);
    }
  };
  const years = [...new Set(figures.coverage.map((r) => r.year))].sort((a, b) => a - b);
  const exclusions = lflPick ? figures.model.lflExclusions(lflPick.utility, lflPick.fromYear) : [];
  return (
    <div
      className="portfolio-view"
      data-testid="portfolio-view"
      id="workspace-view"
      role="tabpanel"
      aria-labelledby="tab-portfolio"
    >
      <div className="portfolio-actions">
        <button type="button" data-testid="portfolio-export" onClick={() => void exportTables()}>
          Export tables (XLSX)
        </button>
      </div>
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
          categories={charts.years.map(String)}
          series={charts.coverage}
          xTitle="Year"
          yTitle="Floor area with data (%)"
          format={percent}
          onBar={onCoverageBar}
        />
        <BarChart
          testId="chart-lfl"
          title="Like-for-like change by utility; a bar shows the assets it counts"
          categories={charts.lflYears.map((y) => `${y} → ${y + 1}`)}
          series={charts.lfl}
          xTitle="Years compared"
          yTitle="Change (%)"
          format={percent}
          onBar={onLflBar}
        />
      </section>
      <section>
        <h2>Totals</h2>
        {(['propertyType', 'country'] as const).map((by) => (
          <table key={by} className="portfolio-table" data-testid={`portfolio-totals-${by}`}>
            <caption>By {by === 'propertyType' ? 'property type' : 'country'}</caption>
            <thead>
              <tr>
                <th scope="col">{by === 'propertyType' ? 'Property type' : 'Country'}</th>
                <th scope="col">Assets</th>
                <th scope="col">Floor area ({area})</th>
                <th scope="col">GAV (millions {prefs?.currency})</th>
                <th scope="col">Certified</th>
                <th scope="col">Energy rated</th>
              </tr>
            </thead>
            <tbody>
              {(by === 'propertyType' ? figures.byType : figures.byCountry).map((row) => (
                <tr key={row.key}>
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      title="Show these assets in the grid"
                      onClick={() =>
                        filterAssets(
                          `${by === 'propertyType' ? 'property type' : 'country'} ${row.key || '(none)'}`,
                          figures.model.assetKeys(
                            (f) => (by === 'propertyType' ? f.propertyType : f.country) === row.key,
                          ),
                          'assets',
                        )
                      }
                    >
                      {nameOf(by, row.key)}
                    </button>
                  </th>
                  <td>{row.assets}</td>
                  <td>{num(row.floorArea)}</td>
                  <td>{num(row.gav)}</td>
                  <td>{pct(row.certifiedShare)}</td>
                  <td>{pct(row.ratedShare)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>
      <section>
        <h2>Data coverage (floor area with data over floor area where the supply exists)</h2>
        <table className="portfolio-table" data-testid="portfolio-coverage">
          <thead>
            <tr>
              <th scope="col">Year</th>
              {(Object.keys(utilityLabels) as PortfolioUtility[]).map((u) => (
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
                {(Object.keys(utilityLabels) as PortfolioUtility[]).map((u) => {
                  const row = figures.coverage.find((r) => r.year === year && r.utility === u);
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
        <details>
          <summary>Coverage by asset as a table (a cell opens the asset)</summary>
          <table className="portfolio-heatmap" data-testid="portfolio-heatmap">
            <thead>
              <tr>
                <th scope="col">Asset</th>
                {years.flatMap((year) =>
                  (Object.keys(utilityLabels) as PortfolioUtility[]).map((u) => (
                    <th scope="col" key={`${u}|${year}`}>{`${utilityLabels[u]} ${year}`}</th>
                  )),
                )}
              </tr>
            </thead>
            <tbody>
              {heat.table.map(([localId, row]) => (
                <tr key={localId}>
                  <th scope="row">{assets.get(localId)?.doc['name'] as string}</th>
                  {years.flatMap((year) =>
                    (Object.keys(utilityLabels) as PortfolioUtility[]).map((u) => {
                      const share = row.get(`${u}|${year}`) ?? null;
                      const level =
                        share === null ? 'none' : share >= 0.999 ? 'full' : share >= 0.5 ? 'part' : 'low';
                      return (
                        <td key={`${u}|${year}`} className={`heat-${level}`}>
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
      </section>
      <section>
        <h2>Like-for-like change</h2>
        <table className="portfolio-table" data-testid="portfolio-lfl">
          <thead>
            <tr>
              <th scope="col">Utility</th>
              <th scope="col">Years</th>
              <th scope="col">Assets that qualify</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Change</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {figures.lfl.map((row) => (
              <tr key={`${row.utility}|${row.fromYear}`}>
                <th scope="row">{utilityLabels[row.utility]}</th>
                <td>{`${row.fromYear} → ${row.toYear}`}</td>
                <td>{row.assets}</td>
                <td>{`${num(row.before)} ${consumptionUnits[row.utility]}`}</td>
                <td>{`${num(row.after)} ${consumptionUnits[row.utility]}`}</td>
                <td>{row.changePercent === null ? '–' : `${row.changePercent.toFixed(1)} %`}</td>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setLflPick({ utility: row.utility, fromYear: row.fromYear })}
                  >
                    Who does not qualify
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {lflPick && (
          <div data-testid="portfolio-lfl-excluded">
            <h3>{`Not in ${utilityLabels[lflPick.utility]} ${lflPick.fromYear} → ${lflPick.fromYear + 1} (${exclusions.length})`}</h3>
            <ul>
              {exclusions.slice(0, 200).map((e) => (
                <li key={e.key}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => jumpTo(e.key, 'name', 'assets')}
                  >
                    {e.name || '(unnamed asset)'}
                  </button>
                  : {e.reasons.join('; ')}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section>
        <h2>Intensity by property type</h2>
        <table className="portfolio-table" data-testid="portfolio-intensity">
          <thead>
            <tr>
              <th scope="col">Property type</th>
              <th scope="col">Utility</th>
              <th scope="col">Year</th>
              <th scope="col">Intensity (per {areaUnit})</th>
            </tr>
          </thead>
          <tbody>
            {figures.intensity.map((row) => (
              <tr
                key={`${row.propertyType}|${row.utility}|${row.year}`}
                className={row.outlier ? 'portfolio-outlier' : ''}
              >
                <th scope="row" title={row.propertyType}>
                  {nameOf('propertyType', row.propertyType)}
                </th>
                <td>{utilityLabels[row.utility]}</td>
                <td>{row.year}</td>
                <td>
                  {row.intensity === null ? '–' : intensityText(row.utility, row.intensity)}
                  {row.outlier ? ' (outside the published range)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p data-testid="portfolio-renewables">
          Renewable share of energy:{' '}
          {figures.renewables.map((r) => `${r.year} ${pct(r.share)}`).join(', ') || 'no energy data'}
        </p>
      </section>
      <MeterFiguresTable />
    </div>
  );
}
