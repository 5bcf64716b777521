import { describe, expect, it } from 'vitest';
import {
  coerceCell,
  excelSerialToIso,
  isoDateSerial,
  toCellValue,
  type ColumnSpec,
} from '../../../shared/workbook/cells';
import { columnKeyFromLabel } from '../../../shared/workbook/layout';

const num: ColumnSpec = { type: 'number' };
const int: ColumnSpec = { type: 'integer' };
const bool: ColumnSpec = { type: 'boolean' };
const date: ColumnSpec = { type: 'date' };
const code: ColumnSpec = { type: 'code', codes: ['BUN', 'UNB'] };
const value = (raw: Parameters<typeof coerceCell>[0], spec: ColumnSpec) => {
  const r = coerceCell(raw, spec);
  return r.ok ? r.value : `!${r.reason}`;
};

describe('cell coercion', () => {
  it('numbers: typed, text, thousands separators; ambiguous and non-numbers refused', () => {
    expect(value(12.5, num)).toBe(12.5);
    expect(value(' 12,345.6 ', num)).toBe(12_345.6);
    expect(value('-1,000', num)).toBe(-1000);
    expect(value('1e3', num)).toBe(1000);
    expect(value('1.234,5', num)).toMatch(/^!"1\.234,5" is ambiguous/);
    expect(value('1,5', num)).toMatch(/ambiguous/);
    expect(value('12 apples', num)).toMatch(/is not a number/);
    expect(value(true, num)).toMatch(/TRUE is not a number/);
    expect(value(3.5, int)).toMatch(/not a whole number/);
    expect(value('', num)).toBeNull();
  });

  it('booleans: TRUE/FALSE, true/false, yes/no, 1/0; empty is no value', () => {
    for (const t of [true, 'TRUE', 'true', 'Yes', 1, '1']) expect(value(t, bool)).toBe(true);
    for (const f of [false, 'FALSE', 'false', 'no', 0, '0']) expect(value(f, bool)).toBe(false);
    expect(value(null, bool)).toBeNull();
    expect(value('  ', bool)).toBeNull();
    expect(value(2, bool)).toMatch(/not TRUE or FALSE/);
  });

  it('dates: Date cells, serials (1900 and 1904), ISO and unambiguous text', () => {
    expect(value(new Date('2024-03-01T00:00:00Z'), date)).toBe('2024-03-01');
    expect(value(45_352, date)).toBe('2024-03-01');
    expect(excelSerialToIso(45_352 - 1462, true)).toBe('2024-03-01');
    expect(excelSerialToIso(59)).toBe('1900-02-28');
    expect(excelSerialToIso(61)).toBe('1900-03-01');
    expect(value('2024-03-01', date)).toBe('2024-03-01');
    expect(value('2024-03-01T10:00:00Z', date)).toBe('2024-03-01');
    expect(value('1.3.2024', date)).toBe('2024-03-01');
    expect(value('25/12/2024', date)).toBe('2024-12-25');
    expect(value('12/25/2024', date)).toBe('2024-12-25');
    expect(value('03/04/2024', date)).toMatch(/ambiguous/);
    expect(value('2024-02-30', date)).toMatch(/not a calendar date/);
    expect(value('next week', date)).toMatch(/not a date/);
  });

  it('codes match case-insensitively to the canonical code', () => {
    expect(value('bun', code)).toBe('BUN');
    expect(value('XYZ', code)).toMatch(/not one of BUN, UNB/);
  });
});

describe('label fallback', () => {
  it('maps visible labels (any area unit) back to variable names', () => {
    expect(columnKeyFromLabel('Asset ID')).toBe('gresb_asset_id');
    expect(columnKeyFromLabel('Floor area (sq ft)')).toBe('size');
    expect(columnKeyFromLabel('Energy consumption, whole building, fuel (kWh) 2024')).toBe(
      'annual_data[2024].en_abs_wf',
    );
    expect(columnKeyFromLabel('Level 2', 'Energy Ratings')).toBe('energy_ratings[1].level');
    expect(columnKeyFromLabel('Level 2', 'Building Certifications')).toBe('certifications[1].level');
    expect(columnKeyFromLabel('Favourite colour')).toBeUndefined();
  });
});

describe('isoDateSerial', () => {
  /** What the writer wrote before: `toCellValue`'s date as a serial, or -1 where it keeps the text. */
  const byDate = (text: string): number => {
    const d = toCellValue(text, date);
    return d instanceof Date ? (d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : -1;
  };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');

  it('gives the serial toCellValue gives, for every day and non-day of whole years', () => {
    for (const y of [1899, 1900, 1904, 1999, 2000, 2023, 2024, 2100, 2400, 9999])
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          const serial = isoDateSerial(text);
          // Years before 1900 are left to toCellValue, which may read them.
          if (y >= 1900 || serial >= 0) expect([text, serial]).toEqual([text, byDate(text)]);
        }
  });

  it('leaves any other text to toCellValue', () => {
    for (const text of [
      '2024-1-01',
      ' 2024-01-01',
      '2024-01-01 ',
      '2024/01/01',
      '20240101',
      '2024-0a-01',
      '０２０２-01-01',
      '',
      '0099-01-01',
    ])
      expect(isoDateSerial(text)).toBe(-1);
    expect(isoDateSerial('2024-01-01')).toBe(45_292);
  });
});
