/**
 * Where a pasted block lands, Excel style: from the focused cell rightwards and downwards over the
 * displayed columns and rows. Read-only columns are stepped over (their cells are skipped, never
 * shifted). Rows past the end are "new rows" the caller creates when the grid may grow. A single
 * value pasted while several rows are selected goes into every selected row of the focused column.
 * Over a range of cells the block lands at the range's top-left, and a single value fills the range.
 * Pure: indexes in, target cells out.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';

export interface PasteColumn {
  id: string;
  editable: boolean;
  parse(text: string): Scalar;
}

export interface PasteInput {
  block: string[][];
  /** Display index of the focused row and column. */
  startRow: number;
  startCol: number;
  rowCount: number;
  columns: readonly PasteColumn[];
  /** Display indexes of selected rows (used for a single value). */
  selectedRows?: readonly number[];
  /** A selected range of cells (display indexes): the block starts at its top-left corner. */
  range?: { top: number; bottom: number; left: number; right: number } | null;
  /** Whether rows past the end may be created; when false they are dropped. */
  allowGrow: boolean;
  /** Refuses a row (e.g. a deleted asset's row): its cells are skipped. */
  rowEditable?: (row: number) => boolean;
}

export interface PlannedCell {
  /** Display row index; `>= rowCount` means the n-th new row (`row - rowCount`). */
  row: number;
  col: string;
  value: Scalar;
}

export interface PastePlan {
  cells: PlannedCell[];
  newRows: number;
  skipped: number;
}

export function planPaste(input: PasteInput): PastePlan {
  const { block, rowCount, columns, range } = input;
  const startRow = range ? range.top : input.startRow;
  const startCol = range ? range.left : input.startCol;
  const cells: PlannedCell[] = [];
  let skipped = 0;
  if (block.length === 0 || startCol < 0 || startCol >= columns.length) return { cells, newRows: 0, skipped };

  const single = block.length === 1 && block[0]!.length === 1;
  if (single && range) {
    for (let row = range.top; row <= Math.min(range.bottom, rowCount - 1); row++) {
      for (let c = range.left; c <= range.right; c++) {
        const col = columns[c];
        if (!col || !col.editable || input.rowEditable?.(row) === false) skipped++;
        else cells.push({ row, col: col.id, value: col.parse(block[0]![0]!) });
      }
    }
    return { cells, newRows: 0, skipped };
  }
  const selected = [...new Set(input.selectedRows ?? [])].sort((a, b) => a - b);
  if (single && selected.length > 1 && selected.includes(startRow)) {
    const col = columns[startCol]!;
    for (const row of selected) {
      if (!col.editable || input.rowEditable?.(row) === false) skipped++;
      else cells.push({ row, col: col.id, value: col.parse(block[0]![0]!) });
    }
    return { cells, newRows: 0, skipped };
  }

  let newRows = 0;
  for (let r = 0; r < block.length; r++) {
    const row = startRow + r;
    if (row >= rowCount) {
      if (!input.allowGrow) {
        skipped += block[r]!.length;
        continue;
      }
      newRows = Math.max(newRows, row - rowCount + 1);
    } else if (input.rowEditable?.(row) === false) {
      skipped += block[r]!.length;
      continue;
    }
    const values = block[r]!;
    for (let c = 0; c < values.length; c++) {
      const col = columns[startCol + c];
      if (!col || !col.editable) {
        skipped++;
        continue;
      }
      cells.push({ row, col: col.id, value: col.parse(values[c]!) });
    }
  }
  return { cells, newRows, skipped };
}

/**
 * Fill down (Ctrl+D): with several rows selected, the top selected row's value of the focused column
 * goes into the others; with none, the value of the row above goes into the focused row.
 */
export function planFillDown(input: {
  focusedRow: number;
  selectedRows: readonly number[];
  valueAt(row: number): Scalar;
  rowEditable?: (row: number) => boolean;
}): Array<{ row: number; value: Scalar }> {
  const selected = [...new Set(input.selectedRows)].sort((a, b) => a - b);
  let source: number;
  let targets: number[];
  if (selected.length > 1) {
    source = selected[0]!;
    targets = selected.slice(1);
  } else {
    if (input.focusedRow <= 0) return [];
    source = input.focusedRow - 1;
    targets = [input.focusedRow];
  }
  const value = input.valueAt(source);
  return targets.filter((row) => input.rowEditable?.(row) !== false).map((row) => ({ row, value }));
}
