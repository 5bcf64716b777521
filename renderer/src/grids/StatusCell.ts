/**
 * The staged-change marker of a row (+ new, ✎ changed, ✕ deleted, ⚠ conflict) with a per-row revert.
 * A plain-DOM grid component rather than a React one: it is drawn for every row scrolled into view,
 * and a React portal per row costs frames while scrolling 100,000 rows. (A plain function would be
 * taken for a React component by the React grid; a class with getGui is taken as a DOM component.)
 */
import type { CellClickedEvent, ICellRendererComp, ICellRendererParams } from 'ag-grid-community';
import { revertAssets } from '../editing/commands';
import type { GridRow } from '../grid-model/rows';

const labels = {
  new: { mark: '+', text: 'New, not synced yet' },
  modified: { mark: '✎', text: 'Changed, not synced yet' },
  deleted: { mark: '✕', text: 'Deleted, not synced yet' },
  clean: { mark: '', text: 'In step with the service' },
} as const;

export class StatusCell implements ICellRendererComp<GridRow> {
  private readonly root = document.createElement('span');

  init(params: ICellRendererParams<GridRow>): void {
    this.draw(params);
  }

  getGui(): HTMLElement {
    return this.root;
  }

  refresh(params: ICellRendererParams<GridRow>): boolean {
    this.draw(params);
    return true;
  }

  private draw(params: ICellRendererParams<GridRow>): void {
    const root = this.root;
    root.replaceChildren();
    root.className = '';
    const view = params.data?.view;
    if (!view) return;
    const conflict = view.conflicts.length > 0 || view.remoteDeleted;
    if (view.status === 'clean' && !conflict) return;
    const label = labels[view.status];
    root.className = `status-cell status-${view.status}${conflict ? ' status-conflict' : ''}`;
    const mark = document.createElement('span');
    mark.className = 'status-mark';
    mark.title = conflict ? 'Conflict with the service: resolve it in the Sync panel' : label.text;
    mark.textContent = conflict ? '⚠' : label.mark;
    root.append(mark);
    if (view.status !== 'clean') {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'revert-button';
      button.title = "Revert this asset to the service's copy";
      button.setAttribute('aria-label', `Revert ${String(view.doc['name'] ?? 'asset')}`);
      button.tabIndex = -1;
      button.textContent = '↺';
      root.append(button);
    }
  }
}

export function onStatusCellClicked(event: CellClickedEvent<GridRow>): void {
  const target = event.event?.target as HTMLElement | null | undefined;
  if (target?.closest('.revert-button') && event.data) void revertAssets([event.data.localId]);
}
