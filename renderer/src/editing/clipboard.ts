/**
 * Copy and paste on a grid, as tab-separated text (what Excel, LibreOffice and Google Sheets put on
 * the clipboard). Copy takes the selected rows, or the focused cell alone; paste lands the block from
 * the focused cell (see `paste-plan.ts`) and, where the grid may grow, makes new assets of the rows
 * past its end. Values are formatted and parsed by each column, so a copied value pastes back as
 * itself.
 */
import type { GridApi } from 'ag-grid-community';
import type { Scalar } from '../../../shared/sync/asset-doc';
import { dataColumnOf } from '../grid-model/data-column';
import { isRowEditable, pathOf, type GridRow } from '../grid-model/rows';
import { notify } from '../store/ui';
import { createAssetsWithEdits, currentValue, editCells, type Edit } from './commands';
import { dataColumns, rowAt, selectedIndexes } from './grid-cells';
import { planPaste, type PasteColumn } from './paste-plan';
import { formatTsv, parseTsv } from './tsv';
import { rangeBounds } from './cell-range';

/** How a grid grows when a paste runs past its last row. */
export interface GrowSpec {
  /** The path a column's field is written to on a new row (created as a new asset). */
  pathFor(field: string, lastRow: GridRow | undefined): string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The text to put on the clipboard, or null when there is nothing to copy. */
export function copyText(api: GridApi<GridRow>): string | null {
  const columns = dataColumns(api);
  const focused = api.getFocusedCell();
  const selected = selectedIndexes(api);
  if (selected.length > 1 || (selected.length === 1 && focused?.rowIndex !== selected[0])) {
    const rows = selected.map((i) => {
      const row = rowAt(api, i);
      return columns.map((c) =>
        row ? c.data.format(currentValue(row.localId, pathOf(row, c.data.spec.field))) : '',
      );
    });
    notify('info', `Copied ${plural(rows.length, 'row')}`);
    return formatTsv(rows);
  }
  if (!focused) return null;
  const row = rowAt(api, focused.rowIndex);
  const data = dataColumnOf(focused.column);
  if (!row || !data) return null;
  return data.format(currentValue(row.localId, pathOf(row, data.spec.field)));
}

/** Pastes clipboard text from the focused cell; rows past the end become new assets when `grow` is set. */
export function pasteText(api: GridApi<GridRow>, text: string, grow: GrowSpec | undefined): void {
  const focused = api.getFocusedCell();
  if (!focused) {
    notify('warning', 'Select a cell to paste into.');
    return;
  }
  const columns = dataColumns(api);
  const startCol = Math.max(
    0,
    columns.findIndex((c) => c.column === focused.column),
  );
  const block = parseTsv(text);
  const rowCount = api.getDisplayedRowCount();
  const pasteColumns: PasteColumn[] = columns.map((c) => ({
    id: c.data.spec.field,
    editable: c.data.spec.editable,
    parse: c.data.parse,
  }));
  const plan = planPaste({
    block,
    startRow: focused.rowIndex,
    startCol,
    rowCount,
    columns: pasteColumns,
    selectedRows: selectedIndexes(api),
    range: rangeBounds(api),
    allowGrow: grow !== undefined,
    rowEditable: (i) => isRowEditable(rowAt(api, i)),
  });
  const edits: Edit[] = [];
  const newRows = new Map<number, Array<{ field: string; value: Scalar }>>();
  for (const cell of plan.cells) {
    if (cell.row < rowCount) {
      const row = rowAt(api, cell.row);
      if (row) edits.push({ localId: row.localId, path: pathOf(row, cell.col), value: cell.value });
    } else {
      const list = newRows.get(cell.row) ?? [];
      list.push({ field: cell.col, value: cell.value });
      newRows.set(cell.row, list);
    }
  }
  const count = plan.cells.length;
  const skipped = plan.skipped > 0 ? ` (${plural(plan.skipped, 'read-only cell')} skipped)` : '';
  if (newRows.size > 0 && grow) {
    const lastRow = rowAt(api, rowCount - 1);
    // An asset needs its name: a pasted row without one is not created (it would be a nameless
    // asset the service refuses), and the analyst is told how many were left out.
    const named = [...newRows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, cells]) => cells)
      .filter((cells) =>
        cells.some((c) => c.field === 'name' && typeof c.value === 'string' && c.value.trim() !== ''),
      );
    const nameless = newRows.size - named.length;
    const rows = named.map((cells) => ({
      fields: Object.fromEntries(cells.filter((c) => c.field === 'name').map((c) => [c.field, c.value])),
      edits: cells
        .filter((c) => c.field !== 'name')
        .map((c) => ({ path: grow.pathFor(c.field, lastRow), value: c.value })),
    }));
    const left = nameless > 0 ? `; ${plural(nameless, 'row')} without a name not created` : '';
    if (rows.length === 0) {
      if (edits.length > 0) void editCells(edits, 'paste');
      notify('warning', `No new assets: every pasted row past the end lacks a name${skipped}`);
      return;
    }
    if (!confirmLargePaste(rows.length, count)) return;
    if (rows.length > 50) notify('info', `Pasting ${plural(rows.length, 'new asset')}…`);
    void createAssetsWithEdits(rows, edits, 'paste').then((ok) => {
      if (ok)
        notify('info', `Pasted ${plural(count, 'cell')}, ${plural(rows.length, 'new row')}${skipped}${left}`);
    });
    return;
  }
  if (!confirmLargePaste(0, count)) return;
  if (edits.length === 0) {
    notify('warning', `Nothing to paste here${skipped}`);
    return;
  }
  void editCells(edits, 'paste').then((ok) => {
    if (ok) notify('info', `Pasted ${plural(count, 'cell')}${skipped}`);
  });
}

/** Past these, a paste asks first, saying what it will create and change. */
const ASK_ABOVE_ROWS = 200;
const ASK_ABOVE_CELLS = 2_000;

function confirmLargePaste(newRows: number, cells: number): boolean {
  if (newRows <= ASK_ABOVE_ROWS && cells <= ASK_ABOVE_CELLS) return true;
  const creates = newRows > 0 ? ` and create ${plural(newRows, 'new asset')}` : '';
  return window.confirm(`This paste will change ${plural(cells, 'cell')}${creates}. Continue?`);
}
