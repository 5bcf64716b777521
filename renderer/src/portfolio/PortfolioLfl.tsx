/** Like-for-like change per utility and pair of years, and which assets a pair does not count, and why. */
import { useState } from 'react';
import type { PortfolioUtility } from '../../../shared/portfolio/asset-figures';
import type { LflRow, PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { jumpTo } from '../store/ui';
import { utilityLabels } from './chart-data';
import { consumptionUnits, num } from './portfolio-format';

export function PortfolioLfl(props: { model: PortfolioModel; lfl: readonly LflRow[] }) {
  const [lflPick, setLflPick] = useState<{ utility: PortfolioUtility; fromYear: number } | null>(null);
  const exclusions = lflPick ? props.model.lflExclusions(lflPick.utility, lflPick.fromYear) : [];
  return (
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
          {props.lfl.map((row) => (
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
                <button type="button" className="link-button" onClick={() => jumpTo(e.key, 'name', 'assets')}>
                  {e.name || '(unnamed asset)'}
                </button>
                : {e.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
