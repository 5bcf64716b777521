/**
 * Fill down (Ctrl+D) and find (Ctrl+F) on the Meters and Readings grids. The asset grids' own
 * (editing/fill-and-clear.ts, editing/find-in-grid.ts) are bound to asset rows and their cell paths;
 * what generalises is reused: the fill plan (`planFillDown`) and the matching (`findMatches`). The
 * cells are read as the grid shows them and written through `meters.edit`, one undo step.
 */
import type { Column, GridApi } from 'ag-grid-community';
import type { Scalar } from '../../../shared/sync/asset-doc';
import { findMatches, type CellPos } from '../editing/find-replace';
import { planFillDown } from '../editing/paste-plan';
import { notify } from '../store/ui';
import { editMeterCells } from './meters-edits';

const meterFieldOf = (column: Column | null | undefined): string | undefined =>
  (column?.getColDef().context as { meterField?: string } | undefined)?.meterField;

/** The displayed columns that hold data (not the tick box). */
function dataColumns<T>(api: GridApi<T>): Column[] {
  return api.getAllDisplayedColumns().filter((c) => c.getColId() !== 'select');
}

function selectedIndexes<T>(api: GridApi<T>): number[] {
  return api
    .getSelectedNodes()
    .map((n) => n.rowIndex)
    .filter((i): i is number => i !== null && i !== undefined);
}

/** Ctrl+D: the ticked rows' first value down the others, or the row above into the focused cell. */
export function fillDownMeterGrid<T extends { id: string }>(
  api: GridApi<T>,
  kind: 'meters' | 'readings',
): void {
  const focused = api.getFocusedCell();
  if (!focused) return;
  const field = meterFieldOf(focused.column);
  if (!field) {
    notify('warning', 'This column cannot be edited.');
    return;
  }
  const plan = planFillDown({
    focusedRow: focused.rowIndex,
    selectedRows: selectedIndexes(api),
    valueAt: (i) => {
      const rowNode = api.getDisplayedRowAtIndex(i);
      return rowNode ? ((api.getCellValue({ rowNode, colKey: focused.column }) ?? null) as Scalar) : null;
    },
  });
  const edits = plan.flatMap(({ row, value }) => {
    const data = api.getDisplayedRowAtIndex(row)?.data;
    return data ? [{ id: data.id, field, value: value as string | number | boolean | null }] : [];
  });
  if (edits.length > 0)
    void editMeterCells(
      kind,
      edits,
      `fill of ${edits.length} meter ${edits.length === 1 ? 'cell' : 'cells'}`,
    );
}

/** A match by identity (row id, column id), so it survives the listing being read again. */
export interface MeterMatch {
  rowId: string;
  colId: string;
  pos: CellPos;
}

/** Every cell whose shown text holds `query` (case-insensitive), row by row. */
export function findInMeterGrid<T extends { id: string }>(api: GridApi<T>, query: string): MeterMatch[] {
  const columns = dataColumns(api);
  const count = api.getDisplayedRowCount();
  const text = (r: number, c: number): string => {
    const rowNode = api.getDisplayedRowAtIndex(r);
    const column = columns[c];
    if (!rowNode || !column) return '';
    return String(api.getCellValue({ rowNode, colKey: column, useFormatter: true }) ?? '');
  };
  return findMatches(count, columns.length, text, query).map((pos) => ({
    rowId: api.getDisplayedRowAtIndex(pos.row)?.data?.id ?? '',
    colId: columns[pos.col]?.getColId() ?? '',
    pos,
  }));
}

/** Scrolls to a match and gives it the grid's focus. */
export function showMeterMatch<T>(api: GridApi<T>, match: MeterMatch): void {
  const node = api.getRowNode(match.rowId);
  const column = api.getColumn(match.colId);
  if (!node || node.rowIndex === null || node.rowIndex === undefined || !column) return;
  api.ensureNodeVisible(node);
  api.ensureColumnVisible(column);
  api.setFocusedCell(node.rowIndex, column);
}
