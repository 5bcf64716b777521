/**
 * Fill down (Ctrl+D) and clear (Delete) on a grid's focused column: over the selected rows when
 * several are selected, else on the focused cell. Rows of deleted assets are left alone.
 */
import type { GridApi } from 'ag-grid-community';
import { dataColumnOf } from '../grid-model/data-column';
import { isRowEditable, pathOf, type GridRow } from '../grid-model/rows';
import { notify } from '../store/ui';
import { currentValue, editCells, type Edit } from './commands';
import { rowAt, selectedIndexes } from './grid-cells';
import { planFillDown } from './paste-plan';

export function fillDown(api: GridApi<GridRow>): void {
  const focused = api.getFocusedCell();
  const data = dataColumnOf(focused?.column);
  if (!focused || !data) return;
  if (!data.spec.editable) {
    notify('warning', 'This column cannot be edited.');
    return;
  }
  const field = data.spec.field;
  const plan = planFillDown({
    focusedRow: focused.rowIndex,
    selectedRows: selectedIndexes(api),
    valueAt: (i) => {
      const row = rowAt(api, i);
      return row ? currentValue(row.localId, pathOf(row, field)) : null;
    },
    rowEditable: (i) => isRowEditable(rowAt(api, i)),
  });
  const edits: Edit[] = [];
  for (const { row: index, value } of plan) {
    const row = rowAt(api, index);
    if (row) edits.push({ localId: row.localId, path: pathOf(row, field), value });
  }
  if (edits.length > 0) void editCells(edits, 'fill');
}

export function clearCells(api: GridApi<GridRow>): void {
  const focused = api.getFocusedCell();
  const data = dataColumnOf(focused?.column);
  if (!focused || !data || !data.spec.editable) return;
  const selected = selectedIndexes(api);
  const targets = selected.length > 1 && selected.includes(focused.rowIndex) ? selected : [focused.rowIndex];
  const edits: Edit[] = [];
  for (const index of targets) {
    const row = rowAt(api, index);
    if (row && isRowEditable(row))
      edits.push({ localId: row.localId, path: pathOf(row, data.spec.field), value: null });
  }
  if (edits.length > 0) void editCells(edits, 'clear');
}
