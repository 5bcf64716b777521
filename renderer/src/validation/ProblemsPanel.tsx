/** Every error (and, on request, warning) in the workspace; a click jumps to the cell. */
import { useDeferredValue, useMemo, useState } from 'react';
import { assetName, cellOfPath } from '../grid-model/rows';
import { filterAssets, jumpTo, useUi } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import { MeterProblemsSummary } from '../meters/MeterProblemsSummary';
import { fixedHereNote, type Issue } from './issues';
import { fieldLabel, messageWithLabels } from './labels';
import { useValidation, validation } from './validation-store';

const LIMIT = 500;

interface Group {
  localId: string;
  /** The field, the same across years and entries: "Energy consumption, whole building, fuel". */
  field: string;
  issues: Issue[];
}

/** Issues by asset, then by field; the first issue of a group is where a click jumps. */
function groupIssues(issues: readonly Issue[]): Map<string, Group[]> {
  const byAsset = new Map<string, Map<string, Group>>();
  for (const issue of issues) {
    let fields = byAsset.get(issue.localId);
    if (!fields) byAsset.set(issue.localId, (fields = new Map()));
    const field = fieldLabel(issue.path.split('/').at(-1) ?? issue.path);
    let group = fields.get(field);
    if (!group) fields.set(field, (group = { localId: issue.localId, field, issues: [] }));
    group.issues.push(issue);
  }
  return new Map([...byAsset].map(([id, fields]) => [id, [...fields.values()]]));
}

/** Where an issue sits within its field's group: the year or the entry, if any. */
function whereIn(issue: Issue): string {
  const [head, key] = issue.path.split('/');
  if (key === undefined) return '';
  if (head === 'annual_data') return key;
  return key.startsWith('id:') ? `#${key.slice(3)}` : 'new';
}

export function ProblemsPanel() {
  // Deferred: the list (up to 500 groups of a 100k-row workspace's issues) is drawn after the edited
  // cell, not before it.
  const version = useDeferredValue(useValidation((s) => s.version));
  const { errors, warnings, complete } = useValidation();
  const order = useDeferredValue(useWorkspace((s) => s.order));
  const assets = useDeferredValue(useWorkspace((s) => s.assets));
  const tab = useUi((s) => s.tab);
  const [showWarnings, setShowWarnings] = useState(false);
  const issues = useMemo(() => {
    void version;
    void assets;
    // A value fixed here since the service flagged it is no error any more: a note among warnings.
    return validation.all(order).filter((i) => showWarnings || (i.severity === 'error' && !i.fixedHere));
  }, [version, order, assets, showWarnings]);
  const groups = useMemo(() => groupIssues(issues), [issues]);

  const open = (issue: Issue) =>
    jumpTo(issue.localId, issue.path, cellOfPath(issue.localId, issue.path).grid);
  const onlyProblemRows = () => {
    const grid = tab === 'annual' || tab === 'certifications' || tab === 'energy_ratings' ? tab : 'assets';
    filterAssets(`with ${showWarnings ? 'problems' : 'errors'}`, groups.keys(), grid);
  };

  // Two assets of one name would be two identical groups: the service's id (or "new") tells them apart.
  const nameCounts = new Map<string, number>();
  for (const localId of groups.keys()) {
    const view = assets.get(localId);
    const name = view ? assetName(view) : '';
    nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
  }
  const which = (localId: string): string | null => {
    const view = assets.get(localId);
    if (!view || (nameCounts.get(assetName(view)) ?? 0) < 2) return null;
    return view.serviceAssetId !== null ? `#${view.serviceAssetId}` : 'new, not synced yet';
  };

  let shown = 0;
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
      {groups.size > 0 && (
        <button type="button" className="link-button" data-testid="problems-only" onClick={onlyProblemRows}>
          Show only the {groups.size} assets with {showWarnings ? 'problems' : 'errors'} in the grid
        </button>
      )}
      <MeterProblemsSummary showWarnings={showWarnings} />
      {issues.length === 0 && !complete ? (
        <p className="empty" role="status">
          Checking the workspace with the shared rules…
        </p>
      ) : issues.length === 0 ? (
        <p className="empty">
          No {showWarnings ? 'problems' : 'errors'}: the shared rules accept every asset.
        </p>
      ) : (
        <ul className="problem-list">
          {[...groups].map(([localId, fields]) => {
            if (shown >= LIMIT) return null;
            const view = assets.get(localId);
            const count = fields.reduce((n, g) => n + g.issues.length, 0);
            return (
              <li key={localId} className="problem-asset" data-testid="problem-asset">
                <h3>
                  {view ? assetName(view) : 'Asset'}{' '}
                  {which(localId) && (
                    <span className="hint" data-testid="problem-asset-which">
                      {which(localId)}
                    </span>
                  )}{' '}
                  <span className="count">({count})</span>
                </h3>
                <ul>
                  {fields.map((group) => {
                    shown += 1;
                    return <ProblemGroup key={group.field} group={group} localId={localId} onOpen={open} />;
                  })}
                </ul>
              </li>
            );
          })}
          {issues.length > LIMIT && <li className="hint">Only the first {LIMIT} fields are listed.</li>}
        </ul>
      )}
    </section>
  );
}

/** One field's issues of an asset, as one button that jumps to the first of them. */
function ProblemGroup({
  group,
  localId,
  onOpen,
}: {
  group: Group;
  localId: string;
  onOpen(issue: Issue): void;
}) {
  const first = group.issues[0]!;
  const ours = [...new Set(group.issues.filter((i) => i.source === 'local').map((i) => i.message))];
  const theirs = [
    ...new Set(group.issues.filter((i) => i.source === 'service' && !i.fixedHere).map((i) => i.message)),
  ];
  const fixed = [...new Set(group.issues.filter((i) => i.fixedHere).map((i) => i.message))];
  const where = [...new Set(group.issues.map(whereIn).filter((w) => w !== ''))];
  const severity = group.issues.some((i) => i.severity === 'error' && !i.fixedHere) ? 'error' : 'warning';
  return (
    <li>
      <button
        type="button"
        className={`problem problem-${severity}`}
        data-testid="problem"
        data-path={first.path}
        data-local-id={localId}
        onClick={() => onOpen(first)}
      >
        <span className="problem-where">
          {group.field}
          {where.length > 0 && ` · ${where.join(', ')}`}
          {group.issues.length > 1 && ` (${group.issues.length})`}
        </span>
        {ours.map((message) => (
          <span className="problem-message" key={`l:${message}`}>
            {group.issues.some((i) => i.confirmed && i.message === message) && (
              <span className="tag">also the service</span>
            )}
            {severity === 'warning' && <span className="tag tag-warning">warning</span>}
            {messageWithLabels(message)}
          </span>
        ))}
        {theirs.map((message) => (
          <span className="problem-message" key={`s:${message}`}>
            <span className="tag">service</span>
            {message}
          </span>
        ))}
        {fixed.map((message) => (
          <span className="problem-message" key={`f:${message}`} data-testid="fixed-here">
            <span className="tag">{fixedHereNote}</span>
            <s>{message}</s>
          </span>
        ))}
      </button>
    </li>
  );
}
