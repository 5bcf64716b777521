/**
 * Rectangular ranges of cells, by display position: Shift+click or Shift+arrows from the focused
 * cell (the anchor) to another. Copy, clear, fill down and fill right act on the range when there is
 * one; the status bar shows its count and, over numbers, their sum. AG Grid Community has no ranges.
 *
 * Event order: AG Grid moves its focus at once (a click's on mousedown, `setFocusedCell` in the
 * call), but hands `cellFocused` and `cellClicked` to the grid's callbacks later, in a zero-delay
 * timer. Chromium's scheduler puts waiting input before a waiting timer, so on a quiet machine a
 * key typed right after a click is handled before the click's callbacks. So a click is taken from
 * the browser's event on the grid's container (`clickedCell`), a Shift+arrow starts from the grid's
 * focused cell, and a late focus event that lands on a corner of the range keeps it.
 */
import type { CellClassParams, Column, GridApi, GridOptions } from 'ag-grid-community';
import { notify, useUi } from '../store/ui';
import { dataColumns, rowAt } from './grid-cells';
import { editingOf } from './grid-editing';
import { keptMessage, planRangeCommand, type RangeCommand, type RangeRow } from './range-plan';

export interface CellPosition {
  row: number;
  col: number;
}
interface RangeState {
  anchor: CellPosition;
  focus: CellPosition;
}

// Keyed by the grid's API, whatever its rows.
const ranges = new WeakMap<object, RangeState>();
/** The range before the last focus move: a Shift+click focuses the cell before it reports the click. */
const previous = new WeakMap<object, RangeState>();
/** Focus moves the range made itself and AG Grid has yet to report (keys repeat faster than it). */
const expected = new WeakMap<object, CellPosition[]>();

function positionOf<R>(api: GridApi<R>, rowIndex: number, column: Column): CellPosition | null {
  const col = dataColumns(api).findIndex((c) => c.column === column);
  return col < 0 ? null : { row: rowIndex, col };
}

/** The range's corners, top-left and bottom-right; null when it is a single cell or none. */
export function rangeBounds<R>(
  api: GridApi<R>,
): { top: number; bottom: number; left: number; right: number } | null {
  const range = ranges.get(api);
  if (!range) return null;
  const { anchor, focus } = range;
  if (anchor.row === focus.row && anchor.col === focus.col) return null;
  return {
    top: Math.min(anchor.row, focus.row),
    bottom: Math.max(anchor.row, focus.row),
    left: Math.min(anchor.col, focus.col),
    right: Math.max(anchor.col, focus.col),
  };
}

export function inRange<R>(api: GridApi<R>, rowIndex: number | null, column: Column): boolean {
  const bounds = rangeBounds(api);
  if (!bounds || rowIndex === null || rowIndex < bounds.top || rowIndex > bounds.bottom) return false;
  const col = dataColumns(api).findIndex((c) => c.column === column);
  return col >= bounds.left && col <= bounds.right;
}

function changed<R>(api: GridApi<R>): void {
  api.refreshCells({ force: true });
  useUi.setState({ rangeStats: stats(api) });
}

/**
 * The grid's focus moved: by the analyst (a new anchor) or by the range itself, onto its moving
 * corner (AG Grid reports focus moves after the fact, so the corner is how the range knows its own).
 */
export function onFocusMoved<R>(api: GridApi<R>, rowIndex: number | null, column: Column | null): void {
  if (rowIndex === null || !column) return;
  const at = positionOf(api, rowIndex, column);
  if (!at) return;
  const range = ranges.get(api);
  const queue = expected.get(api) ?? [];
  const mine = queue.findIndex((p) => p.row === at.row && p.col === at.col);
  if (mine >= 0) {
    queue.splice(0, mine + 1);
    return;
  }
  // The range's own corners reported again (a click's focus arrives twice, and late) keep it.
  if (range && [range.focus, range.anchor].some((p) => p.row === at.row && p.col === at.col)) return;
  const had = rangeBounds(api) !== null;
  if (range) previous.set(api, range);
  ranges.set(api, { anchor: at, focus: at });
  if (had) changed(api);
}

/** Plain navigation keys drop the range; the focus move that follows sets the new anchor. */
export function dropRange<R>(api: GridApi<R>): void {
  const had = rangeBounds(api) !== null;
  ranges.delete(api);
  if (had) changed(api);
}

/**
 * A click on one of the grid's cells, as the browser hands it to the grid's container (after AG Grid
 * has focused the cell, on mousedown): the cell is the new anchor, or with Shift the range spans to
 * it. Never from AG Grid's deferred `cellClicked`: a key typed in between would be undone by it.
 */
export function clickedCell<R>(api: GridApi<R>, shift: boolean): void {
  const focused = api.getFocusedCell();
  if (!focused) return;
  if (shift) extendTo(api, focused.rowIndex, focused.column);
  else collapseTo(api, focused.rowIndex, focused.column);
}

/** A plain click: the clicked cell is the new anchor, the range none. */
function collapseTo<R>(api: GridApi<R>, rowIndex: number, column: Column): void {
  const at = positionOf(api, rowIndex, column);
  if (!at) return;
  const had = rangeBounds(api) !== null;
  ranges.set(api, { anchor: at, focus: at });
  if (had) changed(api);
}

/** Shift+click: the range from the anchor to the clicked cell. */
function extendTo<R>(api: GridApi<R>, rowIndex: number, column: Column): void {
  const at = positionOf(api, rowIndex, column);
  let range = ranges.get(api);
  // The click's own focus move made the clicked cell an anchor: span from the one before it.
  const moved = range && range.anchor.row === at?.row && range.anchor.col === at.col;
  if (moved) range = previous.get(api) ?? range;
  if (!at || !range) return;
  ranges.set(api, { anchor: range.anchor, focus: at });
  changed(api);
}

/** Shift+arrow: the range's moving corner one cell further, the grid's focus with it. */
export function extendBy<R>(api: GridApi<R>, rows: number, cols: number): void {
  const columns = dataColumns(api);
  const focused = api.getFocusedCell();
  const at = focused ? positionOf(api, focused.rowIndex, focused.column) : null;
  let range = ranges.get(api);
  // The grid's focus is on the range's moving corner unless something moved it since (a jump, a
  // key of AG Grid's own) whose focus event has not come yet: the range starts from it then.
  if (at && !(range && range.focus.row === at.row && range.focus.col === at.col))
    range = { anchor: at, focus: at };
  if (!range) return;
  const focus = {
    row: Math.max(0, Math.min(api.getDisplayedRowCount() - 1, range.focus.row + rows)),
    col: Math.max(0, Math.min(columns.length - 1, range.focus.col + cols)),
  };
  ranges.set(api, { anchor: range.anchor, focus });
  const column = columns[focus.col]?.column;
  if (column) {
    api.ensureIndexVisible(focus.row);
    api.ensureColumnVisible(column);
    expected.set(api, [...(expected.get(api) ?? []).slice(-8), focus]);
    api.setFocusedCell(focus.row, column);
  }
  changed(api);
}

/** The cells of the range, row by row; none when there is no range. */
export function rangeCells<R>(api: GridApi<R>): RangeRow<R>[] {
  const bounds = rangeBounds(api);
  if (!bounds) return [];
  const columns = dataColumns(api)
    .slice(bounds.left, bounds.right + 1)
    .map((c) => c.data);
  const out: RangeRow<R>[] = [];
  for (let i = bounds.top; i <= bounds.bottom; i++) out.push({ row: rowAt(api, i), columns });
  return out;
}

/** The range as text rows (each cell as its column shows it), for the clipboard. */
export function rangeText<R>(api: GridApi<R>): string[][] | null {
  const cells = rangeCells(api);
  if (cells.length === 0) return null;
  return cells.map(({ row, columns }) => columns.map((c) => (row ? c.format(c.value(row)) : '')));
}

function stats<R>(api: GridApi<R>): { count: number; numbers: number; sum: number } | null {
  const cells = rangeCells(api);
  if (cells.length === 0) return null;
  let count = 0;
  let numbers = 0;
  let sum = 0;
  for (const { row, columns } of cells) {
    for (const c of columns) {
      count++;
      const value = row ? c.value(row) : null;
      if (typeof value === 'number' && Number.isFinite(value)) {
        numbers++;
        sum += value;
      }
    }
  }
  return { count, numbers, sum };
}

/**
 * Clear, fill down or fill right over the range, as one step (`range-plan.ts` says which cells get
 * what). Answers false when there is no range (the single-cell command applies).
 */
export function rangeCommand<R>(api: GridApi<R>, command: RangeCommand): boolean {
  const editing = editingOf(api);
  const cells = rangeCells(api);
  if (!editing || cells.length === 0) return false;
  const plan = planRangeCommand(cells, command, (row) => editing.rowEditable(row));
  if (plan.kept > 0) notify('warning', keptMessage(plan.kept));
  // The status bar's sum follows the new values once main has written them.
  if (plan.writes.length > 0)
    void editing.write(plan.writes, command === 'clear' ? 'clear' : 'fill').then(() => changed(api));
  return true;
}

/** The grid's rows were read again (the Meters tab's listing after a write): the range's sum follows. */
export function rowsChanged<R>(api: GridApi<R>): void {
  if (rangeBounds(api)) changed(api);
}

/** The range's cells highlighted: a class rule for every grid's data columns. */
export const rangeClassRules = {
  'cell-in-range': <R>(p: CellClassParams<R>): boolean => inRange(p.api, p.node.rowIndex, p.column),
};

/** The grid event ranges follow: a focus move (a click's comes through `clickedCell` first). */
export function rangeGridOptions<R>(): Pick<GridOptions<R>, 'onCellFocused'> {
  return {
    onCellFocused: (e) =>
      onFocusMoved(e.api, e.rowIndex ?? null, (e.column as Column | null | undefined) ?? null),
  };
}
