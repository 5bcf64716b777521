/** Intensity by property type, utility and year (outliers marked), and the renewable share of energy. */
import type { IntensityRow, RenewableRow } from '../../../shared/portfolio/portfolio-model';
import { areaLabel } from '../grid-model/columns';
import { utilityLabels } from './chart-data';
import { intensityText, pct } from './portfolio-format';
import type { NameOf } from './usePortfolioFigures';

export function PortfolioIntensity(props: {
  intensity: readonly IntensityRow[];
  renewables: readonly RenewableRow[];
  area: string;
  nameOf: NameOf;
}) {
  const { nameOf } = props;
  return (
    <section>
      <h2>Intensity by property type</h2>
      <table className="portfolio-table" data-testid="portfolio-intensity">
        <thead>
          <tr>
            <th scope="col">Property type</th>
            <th scope="col">Utility</th>
            <th scope="col">Year</th>
            <th scope="col">Intensity (per {areaLabel(props.area)})</th>
          </tr>
        </thead>
        <tbody>
          {props.intensity.map((row) => (
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
        {props.renewables.map((r) => `${r.year} ${pct(r.share)}`).join(', ') || 'no energy data'}
      </p>
    </section>
  );
}
