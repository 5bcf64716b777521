import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatTsv, parseTsv } from '../../../../renderer/src/editing/tsv';

describe('TSV as spreadsheets put it on the clipboard', () => {
  it('splits rows and cells and drops the trailing newline', () => {
    expect(parseTsv('a\tb\tc\r\n1\t2\t3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(parseTsv('x\ny')).toEqual([['x'], ['y']]);
    expect(parseTsv('one')).toEqual([['one']]);
    expect(parseTsv('')).toEqual([]);
  });

  it('keeps empty cells, including trailing ones', () => {
    expect(parseTsv('a\t\tc\n\t\t')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
    ]);
  });

  it('reads quoted cells with tabs, newlines and doubled quotes', () => {
    expect(parseTsv('"a\tb"\t"line1\nline2"\t"say ""hi"""\n')).toEqual([
      ['a\tb', 'line1\nline2', 'say "hi"'],
    ]);
  });

  it('round-trips any grid of strings', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', '1', ' ', '\t', '\n', '"', ',', 'é') });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          // A lone empty cell in the last row is indistinguishable from a trailing newline.
          fc.pre(!(rows[rows.length - 1]!.length === 1 && rows[rows.length - 1]![0] === ''));
          expect(parseTsv(formatTsv(rows))).toEqual(rows);
        },
      ),
    );
  });
});
