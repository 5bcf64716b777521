/** The mounted grids' APIs by kind, for commands that act on "the current grid" from outside it. */
import type { GridApi } from 'ag-grid-community';
import type { GridKind, GridRow } from '../grid-model/rows';

const grids = new Map<GridKind, GridApi<GridRow>>();

export function registerGrid(kind: GridKind, api: GridApi<GridRow> | null): void {
  if (api) grids.set(kind, api);
  else grids.delete(kind);
}

export function gridApi(kind: GridKind): GridApi<GridRow> | undefined {
  const api = grids.get(kind);
  return api && !api.isDestroyed() ? api : undefined;
}

export function selectedRows(kind: GridKind): GridRow[] {
  return gridApi(kind)?.getSelectedRows() ?? [];
}

export function focusedRow(kind: GridKind): GridRow | undefined {
  const api = gridApi(kind);
  const cell = api?.getFocusedCell();
  return cell ? api?.getDisplayedRowAtIndex(cell.rowIndex)?.data : undefined;
}
