/**
 * Find and replace on a live grid: reads the displayed data columns and rows (see `grid-cells.ts`),
 * formats each cell as the column shows it, and writes replacements through `editCells`, so a whole
 * replace is one call, one undo step in main. The matching itself is `find-replace.ts`.
 */
import type { GridApi } from 'ag-grid-community';
import { pathOf, type GridRow } from '../grid-model/rows';
import { notify } from '../store/ui';
import { currentValue, editCells, type Edit } from './commands';
import { findMatches, planReplace, replaceMessage, type CellPos, type ReplaceCell } from './find-replace';
import { dataColumns, selectedIndexes, type DisplayedDataColumn } from './grid-cells';

/** A match by identity (row id and column id), so it survives a re-sort; `pos` is where it was found. */
export interface GridMatch {
  rowId: string;
  colId: string;
  pos: CellPos;
}

function textOf(row: GridRow | undefined, column: DisplayedDataColumn): string {
  if (!row) return '';
  return column.data.format(currentValue(row.localId, pathOf(row, column.data.spec.field)));
}

/** Every matching cell of the grid as displayed now. */
export function findInGrid(api: GridApi<GridRow>, query: string): GridMatch[] {
  const columns = dataColumns(api);
  const rows: Array<GridRow | undefined> = [];
  const count = api.getDisplayedRowCount();
  for (let i = 0; i < count; i++) rows.push(api.getDisplayedRowAtIndex(i)?.data);
  return findMatches(rows.length, columns.length, (r, c) => textOf(rows[r], columns[c]!), query).map(
    (pos) => ({ rowId: rows[pos.row]?.id ?? '', colId: columns[pos.col]!.column.getColId(), pos }),
  );
}

/** The grid's focused cell as a display position among the data columns (null when none is). */
export function focusedPos(api: GridApi<GridRow>): CellPos | null {
  const focused = api.getFocusedCell();
  if (!focused) return null;
  const col = dataColumns(api).findIndex((c) => c.column === focused.column);
  return { row: focused.rowIndex, col: Math.max(0, col) };
}

/** Where a match is now (rows move when sorted or edited), or null when it is gone. */
export function currentPos(api: GridApi<GridRow>, match: GridMatch): CellPos | null {
  const node = api.getRowNode(match.rowId);
  const col = dataColumns(api).findIndex((c) => c.column.getColId() === match.colId);
  if (!node || node.rowIndex === null || node.rowIndex === undefined || col < 0) return null;
  return { row: node.rowIndex, col };
}

/** Scrolls to a match and gives it the grid's focus. */
export function showMatch(api: GridApi<GridRow>, match: GridMatch): void {
  const node = api.getRowNode(match.rowId);
  const column = api.getColumn(match.colId);
  if (!node || node.rowIndex === null || node.rowIndex === undefined || !column) return;
  api.ensureNodeVisible(node);
  api.ensureColumnVisible(column);
  api.setFocusedCell(node.rowIndex, column);
}

export type ReplaceScope = 'column' | 'selection';

function cellAt(
  api: GridApi<GridRow>,
  row: number,
  col: number,
  columns: DisplayedDataColumn[],
): ReplaceCell {
  const node = api.getDisplayedRowAtIndex(row);
  const column = columns[col]!;
  return {
    row,
    col,
    text: textOf(node?.data, column),
    editable: node !== undefined && column.column.isCellEditable(node),
  };
}

/** The cells a "Replace all" covers: the focused column's, or the ticked rows' (else the focused column). */
function scopeCells(api: GridApi<GridRow>, scope: ReplaceScope, focusCol: number): ReplaceCell[] {
  const columns = dataColumns(api);
  const out: ReplaceCell[] = [];
  const ticked = scope === 'selection' ? selectedIndexes(api) : [];
  if (ticked.length > 0) {
    for (const row of ticked) for (let c = 0; c < columns.length; c++) out.push(cellAt(api, row, c, columns));
    return out;
  }
  if (focusCol < 0 || focusCol >= columns.length) return out;
  const count = api.getDisplayedRowCount();
  for (let row = 0; row < count; row++) out.push(cellAt(api, row, focusCol, columns));
  return out;
}

async function send(
  api: GridApi<GridRow>,
  cells: ReplaceCell[],
  query: string,
  replacement: string,
): Promise<number> {
  const columns = dataColumns(api);
  const plan = planReplace(cells, query, replacement, (col, text) => columns[col]!.data.parse(text));
  const edits: Edit[] = [];
  for (const e of plan.edits) {
    const row = api.getDisplayedRowAtIndex(e.row)?.data;
    if (row)
      edits.push({
        localId: row.localId,
        path: pathOf(row, columns[e.col]!.data.spec.field),
        value: e.value,
      });
  }
  const ok = edits.length === 0 || (await editCells(edits, 'replace'));
  if (ok) notify('info', replaceMessage(edits.length, plan.skipped));
  return ok ? edits.length : 0;
}

/** Replaces within one cell (the current match); resolves to the number of cells changed. */
export function replaceAt(
  api: GridApi<GridRow>,
  pos: CellPos,
  query: string,
  replacement: string,
): Promise<number> {
  return send(api, [cellAt(api, pos.row, pos.col, dataColumns(api))], query, replacement);
}

/** Replaces every match in the scope as one edit (one undo step). */
export function replaceAll(
  api: GridApi<GridRow>,
  scope: ReplaceScope,
  focusCol: number,
  query: string,
  replacement: string,
): Promise<number> {
  return send(api, scopeCells(api, scope, focusCol), query, replacement);
}
