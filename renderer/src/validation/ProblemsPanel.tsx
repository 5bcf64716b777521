/** Every error (and, on request, warning) in the workspace; a click jumps to the cell. */
import { useMemo, useState } from 'react';
import { assetName, cellOfPath } from '../grid-model/rows';
import { jumpTo } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import type { Issue } from './issues';
import { pathLabel } from './labels';
import { useValidation, validation } from './validation-store';

const LIMIT = 500;

export function ProblemsPanel() {
  const version = useValidation((s) => s.version);
  const { errors, warnings } = useValidation();
  const order = useWorkspace((s) => s.order);
  const assets = useWorkspace((s) => s.assets);
  const [showWarnings, setShowWarnings] = useState(false);
  const issues = useMemo(() => {
    void version;
    void assets;
    return validation.all(order).filter((i) => showWarnings || i.severity === 'error');
  }, [version, order, assets, showWarnings]);

  const open = (issue: Issue) =>
    jumpTo(issue.localId, issue.path, cellOfPath(issue.localId, issue.path).grid);

  return (
    <section
      className="side-panel problems-panel"
      aria-labelledby="problems-title"
      data-testid="problems-panel"
    >
      <header className="panel-header">
        <h2 id="problems-title">Problems</h2>
        <span className="counts">
          {errors} errors · {warnings} warnings
        </span>
      </header>
      <label className="inline-label">
        <input type="checkbox" checked={showWarnings} onChange={(e) => setShowWarnings(e.target.checked)} />{' '}
        Show warnings
      </label>
      {issues.length === 0 ? (
        <p className="empty">
          No {showWarnings ? 'problems' : 'errors'}: the shared rules accept every asset.
        </p>
      ) : (
        <ul className="problem-list">
          {issues.slice(0, LIMIT).map((issue, i) => {
            const view = assets.get(issue.localId);
            return (
              <li key={`${issue.localId}|${issue.path}|${issue.message}|${i}`}>
                <button
                  type="button"
                  className={`problem problem-${issue.severity}`}
                  data-testid="problem"
                  data-path={issue.path}
                  data-local-id={issue.localId}
                  onClick={() => open(issue)}
                >
                  <span className="problem-where">
                    {view ? assetName(view) : 'Asset'} · {pathLabel(issue.path)}
                  </span>
                  <span className="problem-message">
                    {issue.source === 'service' && <span className="tag">service</span>}
                    {issue.confirmed && <span className="tag">also the service</span>}
                    {issue.severity === 'warning' && <span className="tag tag-warning">warning</span>}
                    {issue.message}
                  </span>
                </button>
              </li>
            );
          })}
          {issues.length > LIMIT && <li className="hint">and {issues.length - LIMIT} more…</li>}
        </ul>
      )}
    </section>
  );
}
