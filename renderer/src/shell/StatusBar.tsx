/** Counts the analyst checks at a glance: assets, pending changes, errors, warnings, outliers, last sync. */
import { setPanel, setTab, useUi } from '../store/ui';
import { useWorkspace, workspaceCounts } from '../store/workspace';
import { useValidation } from '../validation/validation-store';

function ago(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function StatusBar() {
  const status = useWorkspace((s) => s.status);
  const counts = useWorkspace((s) => workspaceCounts(s));
  const lastSync = useWorkspace((s) => s.meta?.lastSyncAt);
  const { errors, warnings, complete } = useValidation();
  const canUndo = useUi((s) => s.canUndo);
  if (status === 'loading') return <footer className="status-bar">Loading…</footer>;
  return (
    <footer className="status-bar" aria-live="polite" data-testid="status-bar">
      <span data-testid="status-assets">{counts.assets} assets</span>
      <span data-testid="status-pending" className={counts.pending > 0 ? 'has-pending' : ''}>
        {counts.pending} pending changes
        {counts.pending > 0 &&
          ` (${counts.created} new, ${counts.modified} changed, ${counts.deleted} deleted)`}
      </span>
      <button
        type="button"
        className="link-button status-errors"
        data-testid="status-errors"
        onClick={() => setPanel('problems')}
      >
        {errors} errors
      </button>
      <span className="status-warnings" data-testid="status-warnings">
        {warnings} warnings{complete ? '' : ' (checking…)'}
      </span>
      <button
        type="button"
        className="link-button"
        data-testid="status-outliers"
        onClick={() => setTab('outliers')}
      >
        {counts.outliers} outliers
      </button>
      {counts.conflicts > 0 && (
        <button type="button" className="link-button status-conflicts" onClick={() => setPanel('sync')}>
          {counts.conflicts} conflicts
        </button>
      )}
      <span className="spacer" />
      {canUndo && <span className="hint">Ctrl+Z undoes</span>}
      <span data-testid="status-last-sync">Last sync: {ago(lastSync)}</span>
    </footer>
  );
}
