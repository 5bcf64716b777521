/**
 * Copy and paste on a grid, as tab-separated text (what Excel, LibreOffice and Google Sheets put on
 * the clipboard). Copy takes the selected rows, or the focused cell alone; paste lands the block from
 * the focused cell (see `paste-plan.ts`) and, where the grid may grow, makes new rows of the rows
 * past its end (`GridEditing.grow`). Values are formatted and parsed by each column, so a copied
 * value pastes back as itself.
 */
import type { GridApi } from 'ag-grid-community';
import { notify } from '../store/ui';
import { dataColumns, rowAt, selectedIndexes } from './grid-cells';
import { editingOf, type CellWrite, type EditColumn, type NewRowCells } from './grid-editing';
import { planPaste, type PasteColumn } from './paste-plan';
import { formatTsv, parseTsv } from './tsv';
import { rangeBounds } from './cell-range';

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The text to put on the clipboard, or null when there is nothing to copy. */
export function copyText<R>(api: GridApi<R>): string | null {
  const columns = dataColumns(api);
  const focused = api.getFocusedCell();
  const selected = selectedIndexes(api);
  const text = (row: R | undefined, c: EditColumn<R>): string => (row ? c.format(c.value(row)) : '');
  if (selected.length > 1 || (selected.length === 1 && focused?.rowIndex !== selected[0])) {
    const rows = selected.map((i) => {
      const row = rowAt(api, i);
      return columns.map((c) => text(row, c.data));
    });
    notify('info', `Copied ${plural(rows.length, 'row')}`);
    return formatTsv(rows);
  }
  if (!focused) return null;
  const row = rowAt(api, focused.rowIndex);
  const data = columns.find((c) => c.column === focused.column)?.data;
  if (!row || !data) return null;
  return text(row, data);
}

/** Pastes clipboard text from the focused cell (or a range's top-left), as one step. */
export function pasteText<R>(api: GridApi<R>, text: string): void {
  const editing = editingOf(api);
  const focused = api.getFocusedCell();
  if (!editing) return;
  if (!focused) {
    notify('warning', 'Select a cell to paste into.');
    return;
  }
  const columns = dataColumns(api);
  const startCol = Math.max(
    0,
    columns.findIndex((c) => c.column === focused.column),
  );
  const grow = editing.grow();
  const byField = new Map(columns.map((c) => [c.data.field, c.data]));
  const rowCount = api.getDisplayedRowCount();
  const pasteColumns: PasteColumn[] = columns.map((c) => ({
    id: c.data.field,
    editable: c.data.editable,
    parse: (t) => c.data.parse(t),
  }));
  const plan = planPaste({
    block: parseTsv(text),
    startRow: focused.rowIndex,
    startCol,
    rowCount,
    columns: pasteColumns,
    selectedRows: selectedIndexes(api),
    range: rangeBounds(api),
    allowGrow: grow !== undefined,
    rowEditable: (i) => editing.rowEditable(rowAt(api, i)),
  });
  const writes: CellWrite<R>[] = [];
  const newRows = new Map<number, NewRowCells>();
  for (const cell of plan.cells) {
    if (cell.row < rowCount) {
      const row = rowAt(api, cell.row);
      const column = byField.get(cell.col);
      if (row !== undefined && column) writes.push({ row, column, value: cell.value });
    } else {
      const list = newRows.get(cell.row) ?? [];
      list.push({ field: cell.col, value: cell.value });
      newRows.set(cell.row, list);
    }
  }
  if (newRows.size > 0 && grow) {
    const rows = [...newRows.entries()].sort(([a], [b]) => a - b).map(([, cells]) => cells);
    grow(rows, writes, rowAt(api, rowCount - 1), plan.skipped);
    return;
  }
  const count = plan.cells.length;
  const skipped = skippedNote(plan.skipped);
  if (!confirmLargePaste(0, count)) return;
  if (writes.length === 0) {
    notify('warning', `Nothing to paste here${skipped}`);
    return;
  }
  void editing.write(writes, 'paste').then((ok) => {
    if (ok) notify('info', `Pasted ${plural(count, 'cell')}${skipped}`);
  });
}

/** " (2 read-only cells skipped)", or nothing. */
export function skippedNote(skipped: number): string {
  return skipped > 0 ? ` (${plural(skipped, 'read-only cell')} skipped)` : '';
}

/** Past these, a paste asks first, saying what it will create and change. */
const ASK_ABOVE_ROWS = 200;
const ASK_ABOVE_CELLS = 2_000;

export function confirmLargePaste(newRows: number, cells: number): boolean {
  if (newRows <= ASK_ABOVE_ROWS && cells <= ASK_ABOVE_CELLS) return true;
  const creates = newRows > 0 ? ` and create ${plural(newRows, 'new asset')}` : '';
  return window.confirm(`This paste will change ${plural(cells, 'cell')}${creates}. Continue?`);
}
