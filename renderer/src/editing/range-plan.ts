/**
 * What clear, fill down and fill right write over a range of cells, the pure part: fill down copies
 * each column's top cell to the cells below it, fill right each row's leftmost cell to its right
 * (through each column's own parser, so a value lands in the column's type), clear empties each
 * cell. Read-only cells and rows are left alone; a cell whose field can't be empty (a reading's
 * quantity) is left by a clear and counted, so the analyst is told.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { CellWrite, EditColumn } from './grid-editing';

export type RangeCommand = 'clear' | 'fillDown' | 'fillRight';

/** One row of a range: its row (undefined past the rows shown) and the range's columns. */
export interface RangeRow<R> {
  row: R | undefined;
  columns: readonly EditColumn<R>[];
}

export function planRangeCommand<R>(
  cells: readonly RangeRow<R>[],
  command: RangeCommand,
  rowEditable: (row: R) => boolean,
): { writes: CellWrite<R>[]; kept: number } {
  const writes: CellWrite<R>[] = [];
  let kept = 0;
  const top = cells[0];
  cells.forEach(({ row, columns }, r) => {
    if (row === undefined || !rowEditable(row)) return;
    columns.forEach((column, k) => {
      if (!column.editable) return;
      let value: Scalar;
      if (command === 'clear') {
        if (column.clearable === false) {
          kept++;
          return;
        }
        value = null;
      } else if (command === 'fillDown') {
        if (r === 0 || top?.row === undefined) return;
        value = column.value(top.row);
      } else {
        if (k === 0) return;
        const first = columns[0]!;
        value = column.parse(first.format(first.value(row)));
      }
      writes.push({ row, column, value });
    });
  });
  return { writes, kept };
}

/** What a clear tells the analyst of the cells it left. */
export function keptMessage(kept: number): string {
  return `${kept} ${kept === 1 ? 'cell' : 'cells'} left as ${kept === 1 ? 'it was' : 'they were'}: ${kept === 1 ? 'it' : 'they'} can't be empty.`;
}
