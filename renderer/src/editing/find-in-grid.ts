/**
 * Find and replace on a live grid: reads the displayed data columns and rows (see `grid-cells.ts`),
 * formats each cell as the column shows it, and writes replacements through the grid's editing model
 * (`grid-editing.ts`), so a whole replace is one call, one undo step in main. The matching itself is `find-replace.ts`.
 */
import type { GridApi, IRowNode } from 'ag-grid-community';
import { notify } from '../store/ui';
import { findMatches, planReplace, replaceMessage, type CellPos, type ReplaceCell } from './find-replace';
import { dataColumns, selectedIndexes, type DisplayedDataColumn } from './grid-cells';
import { editingOf, type CellWrite } from './grid-editing';

/** A match by identity (row id and column id), so it survives a re-sort; `pos` is where it was found. */
export interface GridMatch {
  rowId: string;
  colId: string;
  pos: CellPos;
}

function textOf<R>(row: R | undefined, column: DisplayedDataColumn<R>): string {
  return row === undefined ? '' : column.data.format(column.data.value(row));
}

/** Every matching cell of the grid as displayed now. */
export function findInGrid<R>(api: GridApi<R>, query: string): GridMatch[] {
  const columns = dataColumns(api);
  const nodes: Array<IRowNode<R> | undefined> = [];
  const count = api.getDisplayedRowCount();
  for (let i = 0; i < count; i++) nodes.push(api.getDisplayedRowAtIndex(i));
  return findMatches(nodes.length, columns.length, (r, c) => textOf(nodes[r]?.data, columns[c]!), query).map(
    (pos) => ({ rowId: nodes[pos.row]?.id ?? '', colId: columns[pos.col]!.column.getColId(), pos }),
  );
}

/** The grid's focused cell as a display position among the data columns (null when none is). */
export function focusedPos<R>(api: GridApi<R>): CellPos | null {
  const focused = api.getFocusedCell();
  if (!focused) return null;
  const col = dataColumns(api).findIndex((c) => c.column === focused.column);
  return { row: focused.rowIndex, col: Math.max(0, col) };
}

/** Where a match is now (rows move when sorted or edited), or null when it is gone. */
export function currentPos<R>(api: GridApi<R>, match: GridMatch): CellPos | null {
  const node = api.getRowNode(match.rowId);
  const col = dataColumns(api).findIndex((c) => c.column.getColId() === match.colId);
  if (!node || node.rowIndex === null || node.rowIndex === undefined || col < 0) return null;
  return { row: node.rowIndex, col };
}

/** Scrolls to a match and gives it the grid's focus. */
export function showMatch<R>(api: GridApi<R>, match: GridMatch): void {
  const node = api.getRowNode(match.rowId);
  const column = api.getColumn(match.colId);
  if (!node || node.rowIndex === null || node.rowIndex === undefined || !column) return;
  api.ensureNodeVisible(node);
  api.ensureColumnVisible(column);
  api.setFocusedCell(node.rowIndex, column);
}

export type ReplaceScope = 'column' | 'selection';

function cellAt<R>(
  api: GridApi<R>,
  row: number,
  col: number,
  columns: DisplayedDataColumn<R>[],
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
function scopeCells<R>(api: GridApi<R>, scope: ReplaceScope, focusCol: number): ReplaceCell[] {
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

async function send<R>(
  api: GridApi<R>,
  cells: ReplaceCell[],
  query: string,
  replacement: string,
): Promise<number> {
  const columns = dataColumns(api);
  const plan = planReplace(cells, query, replacement, (col, text) => columns[col]!.data.parse(text));
  const writes: CellWrite<R>[] = [];
  for (const e of plan.edits) {
    const row = api.getDisplayedRowAtIndex(e.row)?.data;
    if (row !== undefined) writes.push({ row, column: columns[e.col]!.data, value: e.value });
  }
  const editing = editingOf(api);
  const ok = writes.length === 0 || (editing !== undefined && (await editing.write(writes, 'replace')));
  if (ok) notify('info', replaceMessage(writes.length, plan.skipped));
  return ok ? writes.length : 0;
}

/** Replaces within one cell (the current match); resolves to the number of cells changed. */
export function replaceAt<R>(
  api: GridApi<R>,
  pos: CellPos,
  query: string,
  replacement: string,
): Promise<number> {
  return send(api, [cellAt(api, pos.row, pos.col, dataColumns(api))], query, replacement);
}

/** Replaces every match in the scope as one edit (one undo step). */
export function replaceAll<R>(
  api: GridApi<R>,
  scope: ReplaceScope,
  focusCol: number,
  query: string,
  replacement: string,
): Promise<number> {
  return send(api, scopeCells(api, scope, focusCol), query, replacement);
}
