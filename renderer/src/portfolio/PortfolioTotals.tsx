/** The portfolio's totals by property type and by country; a row's name shows its assets in the grid. */
import type { PortfolioModel, TotalsRow } from '../../../shared/portfolio/portfolio-model';
import { filterAssets } from '../store/ui';
import { num, pct } from './portfolio-format';
import type { NameOf } from './usePortfolioFigures';

export function PortfolioTotals(props: {
  model: PortfolioModel;
  byType: readonly TotalsRow[];
  byCountry: readonly TotalsRow[];
  area: string;
  currency: string | undefined;
  nameOf: NameOf;
}) {
  const { model, area, currency, nameOf } = props;
  return (
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
              <th scope="col">GAV (millions {currency})</th>
              <th scope="col">Certified</th>
              <th scope="col">Energy rated</th>
            </tr>
          </thead>
          <tbody>
            {(by === 'propertyType' ? props.byType : props.byCountry).map((row) => (
              <tr key={row.key}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    title="Show these assets in the grid"
                    onClick={() =>
                      filterAssets(
                        `${by === 'propertyType' ? 'property type' : 'country'} ${row.key || '(none)'}`,
                        model.assetKeys(
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
  );
}
