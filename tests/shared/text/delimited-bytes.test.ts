/**
 * Delimited text read from its bytes gives the records and fields the text reader gives the same
 * text decoded: quotes, doubled quotes, delimiters and line breaks inside quotes, CRLF, LF and CR,
 * empty fields and lines, a delimiter ending the text, non-ASCII text; fields past those held are
 * still read; a record repeating the one before's first fields has them found the same.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDelimited, UnterminatedQuoteError } from '../../../shared/text/delimited';
import { DelimitedBytes } from '../../../shared/text/delimited-bytes';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Every record read from the bytes, each field through `text`, holding only `keep` fields. */
function recordsOf(text: string, delimiter = ',', keep?: number): string[][] {
  const reader = new DelimitedBytes(encode(text), delimiter.charCodeAt(0), 0, keep);
  const out: string[][] = [];
  while (reader.next()) out.push(Array.from({ length: reader.fields }, (_, k) => reader.text(k)));
  return out;
}

describe('delimited text read from its bytes', () => {
  it('reads what the text reader reads, field for field', () => {
    const texts = [
      'a,b\r\nc,d\ne,f\rg,h\r\n',
      'meter,"Main, east",x\n"two\nlines","say ""hi""",\n',
      '"",x\n""',
      ',,\n\n,\r\n',
      'say "hi",x\n"ab"cd,"e""f"g',
      'Zürich,Ünïcødé,日本\n"Zürich, Süd",€',
      'a,b,',
      'no line end',
    ];
    for (const text of texts) expect(recordsOf(text), text).toEqual(parseDelimited(text, { delimiter: ',' }));
    expect(recordsOf('a;"b;c"\n1;2', ';')).toEqual([
      ['a', 'b;c'],
      ['1', '2'],
    ]);
  });

  it('reads any text as the text reader does, or refuses it alike', () => {
    const alphabet = fc.constantFrom('a', 'é', ',', '"', '\n', '\r', ' ', '1', '-');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (chars, keep) => {
        const text = chars.join('');
        let expected: string[][] | 'unterminated';
        try {
          expected = parseDelimited(text, { delimiter: ',' });
        } catch (error) {
          expect(error).toBeInstanceOf(UnterminatedQuoteError);
          expected = 'unterminated';
        }
        if (expected === 'unterminated')
          expect(() => recordsOf(text, ',', keep)).toThrow(UnterminatedQuoteError);
        else expect(recordsOf(text, ',', keep)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads records repeating the one before in part (fields taken from it) as the text reader does', () => {
    // Few distinct fields, so a record often starts with the bytes of the one before.
    const field = fc.constantFrom('M1', 'M2', '', '"a,b"', '"x\ny"', '"q""q"', 'é', ' ', '"', '2024-01-01');
    const record = fc.array(field, { minLength: 1, maxLength: 5 }).map((f) => f.join(','));
    const end = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(record, end), { maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (rows, keep) => {
          const text = rows.map(([r, e]) => r + e).join('');
          let expected: string[][] | 'unterminated';
          try {
            expected = parseDelimited(text, { delimiter: ',' });
          } catch {
            expected = 'unterminated';
          }
          if (expected === 'unterminated')
            expect(() => recordsOf(text, ',', keep)).toThrow(UnterminatedQuoteError);
          else expect(recordsOf(text, ',', keep)).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds a record repeating the one before its fields the same, and gives their bytes', () => {
    const reader = new DelimitedBytes(encode('M1,Tower,2024-01-01\nM1,Tower,2024-02-01\nM1,Tall,x\n'), 44);
    reader.next();
    expect(reader.sameFields).toBe(0);
    reader.next();
    // The third field differs in its bytes; the first two are the record before's.
    expect(reader.sameFields).toBe(2);
    expect([reader.start(2), reader.end(2)]).toEqual([29, 39]);
    expect(reader.text(2)).toBe('2024-02-01');
    reader.next();
    expect(reader.sameFields).toBe(1);
    expect([reader.text(0), reader.text(1), reader.text(2), reader.text(3)]).toEqual(['M1', 'Tall', 'x', '']);
    expect(reader.next()).toBe(false);
  });

  it('refuses bytes cut short inside a quote', () => {
    expect(() => recordsOf('a,"b\nc')).toThrow(UnterminatedQuoteError);
  });
});
