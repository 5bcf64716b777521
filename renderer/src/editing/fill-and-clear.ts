/**
 * Fill down (Ctrl+D) and clear (Delete) on a grid's focused column: over the selected rows when
 * several are selected, else on the focused cell. Rows no edit may touch (a deleted asset's) are left
 * alone; so is a field that can't be empty, by a clear.
 */
import type { GridApi } from 'ag-grid-community';
import { notify } from '../store/ui';
import { dataColumns, rowAt, selectedIndexes } from './grid-cells';
import { editingOf, type CellWrite, type EditColumn, type GridEditing } from './grid-editing';
import { planFillDown } from './paste-plan';
import { keptMessage } from './range-plan';

function focusedColumn<R>(
  api: GridApi<R>,
): { editing: GridEditing<R>; rowIndex: number; column: EditColumn<R> } | null {
  const editing = editingOf(api);
  const focused = api.getFocusedCell();
  const column = focused && dataColumns(api).find((c) => c.column === focused.column)?.data;
  return editing && focused && column ? { editing, rowIndex: focused.rowIndex, column } : null;
}

export function fillDown<R>(api: GridApi<R>): void {
  const at = focusedColumn(api);
  if (!at) return;
  const { editing, column } = at;
  if (!column.editable) {
    notify('warning', 'This column cannot be edited.');
    return;
  }
  const plan = planFillDown({
    focusedRow: at.rowIndex,
    selectedRows: selectedIndexes(api),
    valueAt: (i) => {
      const row = rowAt(api, i);
      return row === undefined ? null : column.value(row);
    },
    rowEditable: (i) => editing.rowEditable(rowAt(api, i)),
  });
  const writes: CellWrite<R>[] = [];
  for (const { row: index, value } of plan) {
    const row = rowAt(api, index);
    if (row !== undefined) writes.push({ row, column, value });
  }
  if (writes.length > 0) void editing.write(writes, 'fill');
}

export function clearCells<R>(api: GridApi<R>): void {
  const at = focusedColumn(api);
  if (!at || !at.column.editable) return;
  const { editing, column } = at;
  const selected = selectedIndexes(api);
  const targets = selected.length > 1 && selected.includes(at.rowIndex) ? selected : [at.rowIndex];
  const writes: CellWrite<R>[] = [];
  for (const index of targets) {
    const row = rowAt(api, index);
    if (row !== undefined && editing.rowEditable(row)) writes.push({ row, column, value: null });
  }
  if (writes.length > 0 && column.clearable === false) notify('warning', keptMessage(writes.length));
  else if (writes.length > 0) void editing.write(writes, 'clear');
}
