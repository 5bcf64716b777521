import { describe, expect, it } from 'vitest';
import { columnAt, numberAt, plainInline } from '../../../electron/workbook/cell-bytes';

describe('a number read from its bytes', () => {
  it('is what Number reads, or left to it', () => {
    for (const text of [
      '1',
      '-1',
      '3.14159',
      '1e-5',
      '12345678901234.5',
      '5e-324',
      '-0.0',
      '1.E5',
      '000.5',
    ]) {
      const got = numberAt(Buffer.from(text), 0, text.length);
      if (got !== undefined) expect(Object.is(got, Number(text)), text).toBe(true);
    }
    expect(numberAt(Buffer.from('1234567890123456'), 0, 16)).toBeUndefined();
    expect(numberAt(Buffer.from('+1'), 0, 2)).toBeUndefined();
  });
});

describe('a cell reference and an inline string read from their bytes', () => {
  it('gives the column of the letters, and a plain run only', () => {
    const ref = Buffer.from('AB12"');
    expect(columnAt(ref, 0, ref.length)).toBe(28);
    expect(columnAt(Buffer.from('12"'), 0, 3)).toBe(0);
    const plain = Buffer.from('<is><t>Genève</t></is></c>');
    expect(plainInline(plain, 0, plain.indexOf('</c>'))).toBe('Genève');
    const escaped = Buffer.from('<is><t>a &amp; b</t></is></c>');
    expect(plainInline(escaped, 0, escaped.indexOf('</c>'))).toBeUndefined();
  });
});
