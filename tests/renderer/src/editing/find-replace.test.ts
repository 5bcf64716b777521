import { describe, expect, it } from 'vitest';
import {
  cellMatches,
  findMatches,
  matchLabel,
  planReplace,
  replaceInText,
  replaceMessage,
  stepMatch,
} from '../../../../renderer/src/editing/find-replace';
import { parseInput } from '../../../../renderer/src/grid-model/values';

const grid = [
  ['Berlin Office', '1,200', 'DE'],
  ['Paris Retail', '800', 'FR'],
  ['Berlin Depot', '1,250', 'DE'],
];
const textAt = (r: number, c: number) => grid[r]![c]!;

describe('find and replace', () => {
  it('matches the shown text ignoring case, row by row and left to right', () => {
    expect(cellMatches('Berlin Office', 'berlin')).toBe(true);
    expect(cellMatches('Berlin Office', '')).toBe(false);
    expect(findMatches(3, 3, textAt, 'BERLIN')).toEqual([
      { row: 0, col: 0 },
      { row: 2, col: 0 },
    ]);
    expect(findMatches(3, 3, textAt, 'e')).toEqual([
      { row: 0, col: 0 },
      { row: 0, col: 2 },
      { row: 1, col: 0 },
      { row: 2, col: 0 },
      { row: 2, col: 2 },
    ]);
    expect(findMatches(3, 3, textAt, '')).toEqual([]);
  });

  it('steps to the next and previous match from where the analyst stands, wrapping round', () => {
    const matches = findMatches(3, 3, textAt, 'e');
    expect(stepMatch(matches, null, 1)).toBe(0);
    expect(stepMatch(matches, null, -1)).toBe(4);
    expect(stepMatch(matches, { row: 0, col: 0 }, 1)).toBe(1);
    expect(stepMatch(matches, { row: 0, col: 0 }, 1, true)).toBe(0);
    expect(stepMatch(matches, { row: 1, col: 2 }, 1)).toBe(3);
    expect(stepMatch(matches, { row: 2, col: 2 }, 1)).toBe(0);
    expect(stepMatch(matches, { row: 0, col: 0 }, -1)).toBe(4);
    expect(stepMatch(matches, { row: 1, col: 1 }, -1)).toBe(2);
    expect(stepMatch([], { row: 0, col: 0 }, 1)).toBe(-1);
  });

  it('replaces every occurrence literally, ignoring case, keeping the rest', () => {
    expect(replaceInText('Berlin berlin BERLIN', 'berlin', 'Bonn')).toBe('Bonn Bonn Bonn');
    expect(replaceInText('a.b.c', '.', '')).toBe('abc');
    expect(replaceInText('aa', 'a', 'aa')).toBe('aaaa');
    expect(replaceInText('text', '', 'x')).toBe('text');
  });

  it('plans a replace parsed by each column, skipping read-only cells and counting them', () => {
    const cells = grid.flatMap((row, r) =>
      row.map((text, c) => ({ row: r, col: c, text, editable: c !== 2 })),
    );
    const parse = (col: number, text: string) => parseInput(text, col === 1 ? 'number' : 'string');
    const plan = planReplace(cells, '1,2', '2,2', parse);
    expect(plan.edits).toEqual([
      { row: 0, col: 1, value: 2200 },
      { row: 2, col: 1, value: 2250 },
    ]);
    expect(plan.skipped).toBe(0);
    const de = planReplace(cells, 'de', 'AT', parse);
    // "Depot" matches too (case ignored); the country codes are read-only.
    expect(de.edits).toEqual([{ row: 2, col: 0, value: 'Berlin ATpot' }]);
    expect(de.skipped).toBe(2);
    const berlin = planReplace(cells, 'BERLIN', 'Bonn', parse);
    expect(berlin.edits.map((e) => e.value)).toEqual(['Bonn Office', 'Bonn Depot']);
  });

  it('says where the analyst is and what a replace did', () => {
    expect(matchLabel(2, 12, 'x')).toBe('3 of 12');
    expect(matchLabel(-1, 12, 'x')).toBe('12 matches');
    expect(matchLabel(-1, 0, 'x')).toBe('No matches');
    expect(matchLabel(-1, 0, '')).toBe('');
    expect(replaceMessage(9, 0)).toBe('Replaced 9 cells');
    expect(replaceMessage(1, 2)).toBe('Replaced 1 cell (2 cells read-only, skipped)');
    expect(replaceMessage(0, 1)).toBe('Nothing replaced (1 cell read-only, skipped)');
  });
});
