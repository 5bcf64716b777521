/**
 * The staged-change marker of a row (+ new, ✎ changed, ✕ deleted, ⚠ conflict) with a per-row revert.
 * The revert button is handled by the cell's click event rather than its own handler so a click on it
 * never moves the grid's focus first.
 */
import type { CellClickedEvent } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { revertAssets } from '../editing/commands';
import type { GridRow } from './rows';

const labels = {
  new: { mark: '+', text: 'New, not synced yet' },
  modified: { mark: '✎', text: 'Changed, not synced yet' },
  deleted: { mark: '✕', text: 'Deleted, not synced yet' },
  clean: { mark: '', text: 'In step with the service' },
} as const;

export function StatusCell(props: CustomCellRendererProps<GridRow>) {
  const view = props.data?.view;
  if (!view) return null;
  const conflict = view.conflicts.length > 0 || view.remoteDeleted;
  if (view.status === 'clean' && !conflict) return null;
  const label = labels[view.status];
  return (
    <span className={`status-cell status-${view.status}${conflict ? ' status-conflict' : ''}`}>
      <span
        className="status-mark"
        title={conflict ? 'Conflict with the service: resolve it in the Sync panel' : label.text}
      >
        {conflict ? '⚠' : label.mark}
      </span>
      {view.status !== 'clean' && (
        <button
          type="button"
          className="revert-button"
          title="Revert this asset to the service's copy"
          aria-label={`Revert ${String(view.doc['name'] ?? 'asset')}`}
          tabIndex={-1}
        >
          ↺
        </button>
      )}
    </span>
  );
}

export function onStatusCellClicked(event: CellClickedEvent<GridRow>): void {
  const target = event.event?.target as HTMLElement | null | undefined;
  if (target?.closest('.revert-button') && event.data) void revertAssets([event.data.localId]);
}
