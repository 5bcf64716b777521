import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatDelimited,
  formatDelimitedField,
  parseDelimited,
  UnterminatedQuoteError,
} from '../../../shared/text/delimited';

describe('delimited text (CSV files and the clipboard)', () => {
  it('reads commas, semicolons and tabs alike, with CRLF, LF or CR line ends', () => {
    expect(parseDelimited('a,b\r\nc,d\ne,f\rg,h\r\n', { delimiter: ',' })).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
    expect(parseDelimited('a;"b;c"', { delimiter: ';' })).toEqual([['a', 'b;c']]);
    expect(parseDelimited('a,b\tc', { delimiter: '\t' })).toEqual([['a,b', 'c']]);
  });

  it('opens a quoted field only at its first character', () => {
    expect(parseDelimited('say "hi",x', { delimiter: ',' })).toEqual([['say "hi"', 'x']]);
    expect(parseDelimited('"",x\n""', { delimiter: ',' })).toEqual([['', 'x'], ['']]);
  });

  it('refuses text cut short inside a quote, or closes the quote when asked', () => {
    expect(() => parseDelimited('a,"b\nc', { delimiter: ',' })).toThrow(UnterminatedQuoteError);
    expect(parseDelimited('a,"b\nc', { delimiter: ',', unterminatedQuote: 'close' })).toEqual([
      ['a', 'b\nc'],
    ]);
  });

  it('quotes what a reader would split, and edge whitespace only when asked', () => {
    expect(formatDelimitedField('a,b', { delimiter: ',' })).toBe('"a,b"');
    expect(formatDelimitedField('a\tb', { delimiter: ',' })).toBe('a\tb');
    expect(formatDelimitedField('a\tb', { delimiter: '\t' })).toBe('"a\tb"');
    expect(formatDelimitedField('say "hi"', { delimiter: '\t' })).toBe('"say ""hi"""');
    expect(formatDelimitedField(' a', { delimiter: ',' })).toBe(' a');
    expect(formatDelimitedField(' a', { delimiter: ',', quoteEdgeWhitespace: true })).toBe('" a"');
    expect(formatDelimited([['a', 'b'], ['c']], { delimiter: ';' })).toBe('a;b\r\nc');
  });

  it('round-trips any records with any delimiter', () => {
    const field = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\r', '\n', '"', ',', ';') });
    fc.assert(
      fc.property(
        fc.constantFrom('\t', ',', ';'),
        fc.boolean(),
        fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (delimiter, quoteEdgeWhitespace, records) => {
          // A lone empty field in the last record is indistinguishable from a trailing line end.
          const last = records[records.length - 1]!;
          fc.pre(!(last.length === 1 && last[0] === ''));
          const text = formatDelimited(records, { delimiter, quoteEdgeWhitespace });
          expect(parseDelimited(text, { delimiter })).toEqual(records);
        },
      ),
    );
  });
});
