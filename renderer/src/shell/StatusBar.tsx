/** Counts the analyst checks at a glance: assets, pending changes, errors, warnings, outliers, last sync. */
import { useShallow } from 'zustand/react/shallow';
import type { ReferenceData } from '../../../shared/bridge/types';
import { setPanel, setTab, useUi } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';
import { useValidation } from '../validation/validation-store';

/**
 * Made once: `toLocaleString` with options builds a formatter on every call, which cost the status
 * bar ~15 ms a render (it renders with each page of a 100k-row workspace's first read).
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ago(iso: string | null | undefined): string {
  if (!iso) return 'never';
  return dateTime.format(new Date(iso));
}

/**
 * Where the dropdowns and list checks come from. The service's lists (fetched or cached) decide;
 * while they never loaded, the app's built-in lists stand in and a value outside them only warns.
 */
function ListsState({ reference }: { reference: ReferenceData }) {
  const shipped = Object.values(reference.sources).some((source) => source === 'shipped');
  const text = shipped
    ? "Built-in lists (the service's could not be loaded)"
    : reference.problem
      ? `Lists cached ${ago(reference.fetchedAt)}`
      : `Service lists ${ago(reference.fetchedAt)}`;
  return (
    <span
      data-testid="status-lists"
      className={shipped || reference.problem ? 'status-lists-stale' : ''}
      title={
        reference.problem ??
        "The service's lists of property types, countries, certifications and energy ratings"
      }
    >
      {text}
    </span>
  );
}

/** A large workspace is drawn from its first page; the rest is read meanwhile (or why it stopped). */
function PartialLoad({
  loaded,
  total,
  problem,
}: {
  loaded: number;
  total: number;
  problem?: string | undefined;
}) {
  if (!problem)
    return (
      <span data-testid="status-loading" role="status">
        Reading assets: {loaded} of {total}
      </span>
    );
  return (
    <span data-testid="status-loading" className="status-lists-stale" role="alert">
      Only {loaded} of {total} assets could be read ({problem}).{' '}
      <button type="button" className="link-button" onClick={() => void loadAll()}>
        Read again
      </button>
    </span>
  );
}

export function StatusBar() {
  const status = useWorkspace((s) => s.status);
  const counts = useWorkspace((s) => s.counts);
  const lastSync = useWorkspace((s) => s.lastSyncAt);
  const partial = useWorkspace((s) => s.partial);
  const loaded = useWorkspace((s) => s.assets.size);
  const reference = useWorkspace((s) => s.meta?.reference);
  // Not the whole state: a new version with the same counts (most keypresses) draws nothing here.
  const { errors, warnings, complete } = useValidation(
    useShallow((s) => ({ errors: s.errors, warnings: s.warnings, complete: s.complete })),
  );
  const canUndo = useUi((s) => s.canUndo);
  const shownRows = useUi((s) => s.shownRows);
  const rangeStats = useUi((s) => s.rangeStats);
  const tab = useUi((s) => s.tab);
  if (status === 'loading') return <footer className="status-bar">Loading…</footer>;
  return (
    <footer className="status-bar" aria-live="polite" data-testid="status-bar">
      <span data-testid="status-assets">{counts.assets} assets</span>
      {partial && <PartialLoad loaded={loaded} {...partial} />}
      {shownRows && shownRows.grid === tab && (
        <span data-testid="status-shown" className="has-pending">
          {shownRows.shown} of {shownRows.total} rows shown (filtered)
        </span>
      )}
      <span data-testid="status-pending" className={counts.pending > 0 ? 'has-pending' : ''}>
        {counts.pending} pending changes
        {counts.pending > 0 &&
          ` (${counts.created} new, ${counts.modified} changed, ${counts.deleted} deleted)`}
      </span>
      <button
        type="button"
        className={`link-button${errors > 0 ? ' status-errors' : ''}`}
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
          {counts.conflicts} conflict{counts.conflicts === 1 ? '' : 's'}
        </button>
      )}
      {rangeStats && (
        <span data-testid="status-range">
          {rangeStats.count} cells
          {rangeStats.numbers > 0 &&
            ` · ${rangeStats.numbers} numbers, sum ${rangeStats.sum.toLocaleString(undefined, { maximumFractionDigits: 3 })}`}
        </span>
      )}
      <span className="spacer" />
      {reference && <ListsState reference={reference} />}
      {canUndo && <span className="hint">Ctrl+Z undoes</span>}
      <span data-testid="status-last-sync">Last sync: {ago(lastSync)}</span>
    </footer>
  );
}
