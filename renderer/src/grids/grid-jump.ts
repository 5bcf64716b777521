/** "Jump to cell" from the problems panel, the sync results and the outliers view. */
import { useEffect, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import { dataColumns } from '../editing/grid-cells';
import { cellOfPath, type GridKind, type GridRow } from '../grid-model/rows';
import { notify, useUi } from '../store/ui';

export function useJumpTarget(kind: GridKind, apiRef: RefObject<GridApi<GridRow> | null>): void {
  useEffect(() => {
    const run = (): void => {
      const target = useUi.getState().jump;
      const api = apiRef.current;
      if (!target || !api) return;
      const cell = cellOfPath(target.localId, target.path);
      if (cell.grid !== kind) return;
      useUi.setState({ jump: null });
      focusCell(api, target.localId, cell.rowId, cell.colId);
    };
    run();
    return useUi.subscribe((s, prev) => {
      if (s.jump !== prev.jump && s.jump) run();
    });
  }, [kind]);
}

/** A jump requested before this grid existed, honoured once the grid is ready. */
export function jumpOnReady(kind: GridKind, api: GridApi<GridRow>): void {
  const target = useUi.getState().jump;
  if (!target) return;
  const cell = cellOfPath(target.localId, target.path);
  if (cell.grid !== kind) return;
  useUi.setState({ jump: null });
  setTimeout(() => focusCell(api, target.localId, cell.rowId, cell.colId), 0);
}

/** "Jump to cell": scrolls to the cell and focuses it, clearing a filter that hides its row. */
function focusCell(api: GridApi<GridRow>, localId: string, rowId: string, colId: string | null): void {
  let node = api.getRowNode(rowId);
  if (!node) {
    // A year or entry that is not a row (yet): the asset's first row.
    api.forEachNode((candidate) => {
      if (!node && candidate.data?.localId === localId) node = candidate;
    });
  }
  if (node && (node.rowIndex === null || node.rowIndex === undefined)) {
    api.setFilterModel(null);
    node = api.getRowNode(node.id ?? rowId) ?? node;
  }
  if (!node || node.rowIndex === null || node.rowIndex === undefined) {
    notify('warning', 'That row is not in this grid any more.');
    return;
  }
  const columns = dataColumns(api);
  const column = (colId && api.getColumn(colId)) || columns[0]?.column;
  if (!column) return;
  api.ensureNodeVisible(node, 'middle');
  api.ensureColumnVisible(column, 'middle');
  api.setFocusedCell(node.rowIndex, column);
}
