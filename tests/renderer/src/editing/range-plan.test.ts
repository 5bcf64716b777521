import { describe, expect, it } from 'vitest';
import type { Scalar } from '../../../../shared/sync/asset-doc';
import type { EditColumn } from '../../../../renderer/src/editing/grid-editing';
import { keptMessage, planRangeCommand, type RangeRow } from '../../../../renderer/src/editing/range-plan';

/** Readings as the Readings grid has them: quantity and unit can't be empty, estimated can. */
interface Reading {
  id: string;
  quantity: number;
  unit: string;
  estimated: string;
}

const col = (
  field: keyof Reading,
  opts: { editable?: boolean; clearable?: boolean } = {},
): EditColumn<Reading> => ({
  field,
  editable: opts.editable ?? true,
  ...(opts.clearable === false ? { clearable: false } : {}),
  value: (row) => row[field],
  format: (value) => (value === null || value === undefined ? '' : String(value)),
  parse: (text) => text,
});

const quantity = col('quantity', { clearable: false });
const unit = col('unit', { clearable: false });
const estimated = col('estimated');
const id = col('id', { editable: false });

const rows: Reading[] = [
  { id: 'r1', quantity: 6100, unit: 'kWh', estimated: 'no' },
  { id: 'r2', quantity: 33.5, unit: 'MWh', estimated: 'yes' },
  { id: 'r3', quantity: 3100, unit: 'kWh', estimated: 'no' },
];
const range = (columns: EditColumn<Reading>[], from = 0, to = rows.length - 1): RangeRow<Reading>[] =>
  rows.slice(from, to + 1).map((row) => ({ row, columns }));
const written = (plan: ReturnType<typeof planRangeCommand<Reading>>): Array<[string, string, Scalar]> =>
  plan.writes.map((w) => [w.row.id, w.column.field, w.value]);

describe('clear, fill down and fill right over a range', () => {
  it('fills each column down from its top cell, leaving read-only columns alone', () => {
    const plan = planRangeCommand(range([id, quantity, unit]), 'fillDown', () => true);
    expect(written(plan)).toEqual([
      ['r2', 'quantity', 6100],
      ['r2', 'unit', 'kWh'],
      ['r3', 'quantity', 6100],
      ['r3', 'unit', 'kWh'],
    ]);
    expect(plan.kept).toBe(0);
  });

  it("fills each row right from its leftmost cell through the column's parser", () => {
    const plan = planRangeCommand(range([unit, estimated], 1, 1), 'fillRight', () => true);
    expect(written(plan)).toEqual([['r2', 'estimated', 'MWh']]);
  });

  it("clears what may be empty and counts the cells that can't be, for the message", () => {
    const plan = planRangeCommand(range([quantity, unit, estimated], 0, 1), 'clear', () => true);
    expect(written(plan)).toEqual([
      ['r1', 'estimated', null],
      ['r2', 'estimated', null],
    ]);
    expect(plan.kept).toBe(4);
    expect(keptMessage(plan.kept)).toBe("4 cells left as they were: they can't be empty.");
    expect(keptMessage(1)).toBe("1 cell left as it was: it can't be empty.");
  });

  it('leaves rows no edit may touch, and rows past the end', () => {
    const cells: RangeRow<Reading>[] = [...range([estimated]), { row: undefined, columns: [estimated] }];
    const plan = planRangeCommand(cells, 'clear', (row) => row.id !== 'r2');
    expect(written(plan)).toEqual([
      ['r1', 'estimated', null],
      ['r3', 'estimated', null],
    ]);
  });
});
