/** The Portfolio view's tables as rows for the XLSX export (main writes the workbook). */
import { utilities, type PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import type { PortfolioModel } from '../../../shared/portfolio/portfolio-model';

type Cell = string | number | null;
export interface ExportTable {
  name: string;
  columns: string[];
  rows: Cell[][];
}

const share = (v: number | null): Cell => (v === null ? null : Math.round(v * 10_000) / 100);

export function portfolioTables(
  model: PortfolioModel,
  units: { area: string; currency: string },
  names: (key: string) => string,
): ExportTable[] {
  const totals = (by: 'propertyType' | 'country'): ExportTable => ({
    name: by === 'propertyType' ? 'By property type' : 'By country',
    columns: [
      by === 'propertyType' ? 'Property type' : 'Country',
      'Assets',
      `Floor area (${units.area})`,
      `GAV (millions ${units.currency})`,
      'Certified (%)',
      'Energy rated (%)',
    ],
    rows: model
      .totals(by)
      .map((r) => [r.key, r.assets, r.floorArea, r.gav, share(r.certifiedShare), share(r.ratedShare)]),
  });
  const utilityName = (u: PortfolioUtility): string => u;
  return [
    totals('propertyType'),
    totals('country'),
    {
      name: 'Data coverage',
      columns: [
        'Utility',
        'Year',
        `Covered (${units.area})`,
        `Total (${units.area})`,
        'Coverage (%)',
        'Time coverage (%)',
      ],
      rows: model
        .coverageRows()
        .map((r) => [utilityName(r.utility), r.year, r.covered, r.total, share(r.share), share(r.timeShare)]),
    },
    {
      name: 'Coverage by asset',
      columns: ['Asset', 'Utility', 'Year', 'Coverage (%)'],
      rows: model.heatmap().map((c) => [names(c.key), c.utility, c.year, share(c.share)]),
    },
    {
      name: 'Like-for-like',
      columns: ['Utility', 'From', 'To', 'Assets', 'Before', 'After', 'Change (%)'],
      rows: model
        .lflRows()
        .map((r) => [r.utility, r.fromYear, r.toYear, r.assets, r.before, r.after, r.changePercent]),
    },
    {
      name: 'Not like-for-like',
      columns: ['Asset', 'Utility', 'From', 'Why'],
      rows: model
        .lflRows()
        .flatMap((r) =>
          utilities.includes(r.utility)
            ? model
                .lflExclusions(r.utility, r.fromYear)
                .map((e) => [e.name, r.utility, r.fromYear, e.reasons.join('; ')])
            : [],
        ),
    },
    {
      name: 'Intensity',
      columns: [
        'Property type',
        'Utility',
        'Year',
        'Consumption',
        `Area (${units.area})`,
        `Intensity (per ${units.area})`,
        'Outlier',
      ],
      rows: model
        .intensityRows()
        .map((r) => [
          r.propertyType,
          r.utility,
          r.year,
          r.consumption,
          r.area,
          r.intensity,
          r.outlier ? 'yes' : 'no',
        ]),
    },
    {
      name: 'Renewable share',
      columns: ['Year', 'Renewable (kWh)', 'Energy (kWh)', 'Share (%)'],
      rows: model.renewableRows().map((r) => [r.year, r.renewable, r.energy, share(r.share)]),
    },
  ];
}
