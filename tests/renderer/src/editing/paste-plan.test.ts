import { describe, expect, it } from 'vitest';
import { planFillDown, planPaste, type PasteColumn } from '../../../../renderer/src/editing/paste-plan';
import { parseInput } from '../../../../renderer/src/grid-model/values';

const col = (id: string, editable = true): PasteColumn => ({
  id,
  editable,
  parse: (text) => parseInput(text, 'number'),
});
const columns = [col('a'), col('b'), col('ro', false), col('c'), col('d')];

describe('paste planning', () => {
  it('places a 3x4 block from the focused cell, stepping over read-only columns', () => {
    const plan = planPaste({
      block: [
        ['1', '2', '3', '4'],
        ['5', '6', '7', '8'],
        ['9', '10', '11', '12'],
      ],
      startRow: 2,
      startCol: 1,
      rowCount: 10,
      columns,
      allowGrow: false,
    });
    expect(plan.newRows).toBe(0);
    expect(plan.skipped).toBe(3);
    expect(plan.cells.filter((c) => c.row === 2)).toEqual([
      { row: 2, col: 'b', value: 1 },
      { row: 2, col: 'c', value: 3 },
      { row: 2, col: 'd', value: 4 },
    ]);
    expect(plan.cells).toHaveLength(9);
  });

  it('fills a range of cells with a single value and starts a block at its top-left', () => {
    const range = { top: 1, bottom: 3, left: 1, right: 3 };
    const fill = planPaste({
      block: [['7']],
      startRow: 3,
      startCol: 3,
      range,
      rowCount: 10,
      columns,
      allowGrow: false,
      rowEditable: (row) => row !== 2,
    });
    // 3 rows x 3 columns: the read-only column and the refused row are skipped, never shifted.
    expect(fill.cells).toEqual([
      { row: 1, col: 'b', value: 7 },
      { row: 1, col: 'c', value: 7 },
      { row: 3, col: 'b', value: 7 },
      { row: 3, col: 'c', value: 7 },
    ]);
    expect(fill.skipped).toBe(5);
    const block = planPaste({
      block: [['1', '2']],
      startRow: 3,
      startCol: 3,
      range,
      rowCount: 10,
      columns,
      allowGrow: false,
    });
    expect(block.cells).toEqual([{ row: 1, col: 'b', value: 1 }]);
    expect(block.skipped).toBe(1);
  });

  it('drops columns past the last one', () => {
    const plan = planPaste({
      block: [['1', '2', '3']],
      startRow: 0,
      startCol: 3,
      rowCount: 1,
      columns,
      allowGrow: false,
    });
    expect(plan.cells).toEqual([
      { row: 0, col: 'c', value: 1 },
      { row: 0, col: 'd', value: 2 },
    ]);
    expect(plan.skipped).toBe(1);
  });

  it('grows rows at the bottom when allowed, and not otherwise', () => {
    const block = [['1'], ['2'], ['3']];
    const grown = planPaste({ block, startRow: 8, startCol: 0, rowCount: 10, columns, allowGrow: true });
    expect(grown.newRows).toBe(1);
    expect(grown.cells.map((c) => c.row)).toEqual([8, 9, 10]);
    const fixed = planPaste({ block, startRow: 8, startCol: 0, rowCount: 10, columns, allowGrow: false });
    expect(fixed.cells.map((c) => c.row)).toEqual([8, 9]);
    expect(fixed.skipped).toBe(1);
  });

  it('puts a single value into every selected row of the focused column', () => {
    const plan = planPaste({
      block: [['42']],
      startRow: 3,
      startCol: 0,
      rowCount: 10,
      columns,
      selectedRows: [5, 3, 7],
      allowGrow: false,
    });
    expect(plan.cells).toEqual([
      { row: 3, col: 'a', value: 42 },
      { row: 5, col: 'a', value: 42 },
      { row: 7, col: 'a', value: 42 },
    ]);
  });

  it('skips rows that cannot be edited (deleted assets)', () => {
    const plan = planPaste({
      block: [['1'], ['2']],
      startRow: 0,
      startCol: 0,
      rowCount: 5,
      columns,
      allowGrow: false,
      rowEditable: (row) => row !== 1,
    });
    expect(plan.cells).toEqual([{ row: 0, col: 'a', value: 1 }]);
  });
});

describe('fill down', () => {
  const values = [10, 20, 30, 40];
  it('copies the row above into the focused row', () => {
    expect(planFillDown({ focusedRow: 2, selectedRows: [], valueAt: (r) => values[r]! })).toEqual([
      { row: 2, value: 20 },
    ]);
    expect(planFillDown({ focusedRow: 0, selectedRows: [], valueAt: (r) => values[r]! })).toEqual([]);
  });
  it('copies the top selected row into the other selected rows', () => {
    expect(planFillDown({ focusedRow: 1, selectedRows: [3, 1, 2], valueAt: (r) => values[r]! })).toEqual([
      { row: 2, value: 20 },
      { row: 3, value: 20 },
    ]);
  });
});
