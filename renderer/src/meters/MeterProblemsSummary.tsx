/**
 * The readings' rule problems (shared/meters/rules.ts) in the Problems panel: how many, the first
 * few, and a way to the Meters tab where each is in its cell.
 */
import { plural } from '../import-export/format';
import { setTab } from '../store/ui';
import { useMeters } from './meters-store';

export function MeterProblemsSummary({ showWarnings }: { showWarnings: boolean }) {
  const listing = useMeters((s) => s.listing);
  const issues = (listing?.issues ?? []).filter((i) => showWarnings || i.severity === 'error');
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === 'error').length;
  return (
    <div className="problem-asset" data-testid="meter-problems">
      <h3>
        Meter readings <span className="count">({issues.length})</span>
      </h3>
      <p className="hint">
        {plural(errors, 'error')}
        {showWarnings ? ` · ${plural(issues.length - errors, 'warning')}` : ''} in the readings.{' '}
        <button type="button" className="link-button" onClick={() => setTab('meters')}>
          Show them in the Meters tab
        </button>
      </p>
      <ul>
        {issues.slice(0, 5).map((i, n) => (
          <li key={n} className={i.severity}>
            {i.meterId}: {i.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
