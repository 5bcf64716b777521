import { describe, expect, it } from 'vitest';
import { parseQuantity, parseReadingsCsv, recogniseHeaders } from '../../../shared/meters/import-rows';

const file = 'readings.csv';

describe('readings file import', () => {
  it('reads a flat CSV with the documented headers into meters and readings', () => {
    const text = [
      'meter_id,meter_name,asset_partners_id,utility,space,area_served,start_date,end_date,quantity,unit,estimated',
      'M1,Main,P-1,electricity,whole_building,1200,2023-12-01,2024-01-31,"6,200.5",kWh,no',
      'M1,Main,P-1,Electricity,Whole building,,2024-02-01,2024-02-29,300,MWh,yes',
      'W1,Water,P-1,water,tc_t,80,2024-01-01,2024-01-31,12,m3,',
      'X1,Skip,P-1,waste_hazardous,,,2024-01-01,2024-12-31,100,kg,E',
    ].join('\r\n');
    const result = parseReadingsCsv(text, ',', { file });
    expect(result.errors).toEqual([]);
    expect(result.meters).toEqual([
      {
        key: 'M1',
        meterId: 'M1',
        name: 'Main',
        asset: { partnersId: 'P-1', name: null },
        utility: 'electricity',
        space: 'whole_building',
        areaServed: 1200,
        unit: 'kWh',
        row: 2,
      },
      {
        key: 'W1',
        meterId: 'W1',
        name: 'Water',
        asset: { partnersId: 'P-1', name: null },
        utility: 'water',
        space: 'tenant_tenant',
        areaServed: 80,
        unit: 'm3',
        row: 4,
      },
      {
        key: 'X1',
        meterId: 'X1',
        name: 'Skip',
        asset: { partnersId: 'P-1', name: null },
        utility: 'waste_hazardous',
        space: 'whole_building',
        areaServed: null,
        unit: 'kg',
        row: 5,
      },
    ]);
    expect(result.readings.at(0)).toEqual({
      meterKey: 'M1',
      start: '2023-12-01',
      end: '2024-01-31',
      quantity: 6200.5,
      unit: 'kWh',
      estimated: false,
      source: { kind: 'file', file, row: 2 },
    });
    expect(result.readings.map((r) => r.estimated)).toEqual([false, true, false, true]);
  });

  it('recognises headers case-insensitively with synonyms, the analyst mapping first', () => {
    const header = [
      'Meter Number',
      'Property Name',
      'Commodity',
      'Space Type',
      'Period Start',
      'Period End',
      'Usage',
      'UOM',
      'My Flag',
    ];
    const mapping = recogniseHeaders(header, { estimated: 'my flag' });
    expect(mapping).toEqual({
      meter_id: 0,
      meter_name: null,
      asset_partners_id: null,
      asset_name: 1,
      utility: 2,
      space: 3,
      area_served: null,
      start_date: 4,
      end_date: 5,
      quantity: 6,
      unit: 7,
      estimated: 8,
    });
  });

  it('names the row and column of every bad value and keeps the good rows', () => {
    const text = [
      'Meter ID;Asset Name;Utility;Space;Start;End;Quantity;Unit',
      'M1;Tower;electricity;w;2024-01-01;2024-01-31;12abc;kWh',
      'M1;Tower;electricity;w;2024-02-30;2024-03-31;5;kWh',
      'M1;Tower;steam;w;2024-01-01;2024-01-31;5;bananas',
      'M1;Tower;electricity;w;2024-04-01;2024-04-30;1,234;kWh',
      'M1;Tower;water;w;2024-05-01;2024-05-31;5;m3',
      'M1;Tower;electricity;w;2024-06-01;2024-06-30;7;kWh',
      'M2;Tower;water;w;2024-06-01;2024-06-30;7;kWh',
    ].join('\n');
    const result = parseReadingsCsv(text, ';', { file });
    expect(result.errors).toEqual([
      { file, row: 2, column: 'Quantity', message: '"12abc" is not a number.' },
      { file, row: 3, column: 'Start', message: '"2024-02-30" is not a date (YYYY-MM-DD).' },
      { file, row: 4, column: 'Unit', message: 'Unknown unit "bananas".' },
      {
        file,
        row: 4,
        column: 'Utility',
        message: expect.stringContaining('"steam" is not a utility') as string,
      },
      {
        file,
        row: 5,
        column: 'Quantity',
        message: expect.stringContaining('thousands or a decimal comma') as string,
      },
      // The first good row (6, water) sets the meter; row 7 contradicts it.
      { file, row: 7, column: 'Utility', message: "Differs from the meter's row 6." },
      { file, row: 8, column: 'Unit', message: 'The unit "kWh" (energy) doesn\'t fit a water meter.' },
    ]);
    expect(result.readings.map((r) => r.source.row)).toEqual([6]);
  });

  it('reads day/month dates only when the file is unambiguous, else asks', () => {
    const header = 'meter_id,asset_name,utility,space,start_date,end_date,quantity,unit';
    const dmy = parseReadingsCsv(`${header}\nM,T,electricity,w,01/02/2024,29/02/2024,5,kWh`, ',', { file });
    expect(dmy.errors).toEqual([]);
    expect(dmy.readings.at(0)).toMatchObject({ start: '2024-02-01', end: '2024-02-29' });
    const mdy = parseReadingsCsv(`${header}\nM,T,electricity,w,02/01/2024,02/29/2024,5,kWh`, ',', { file });
    expect(mdy.readings.at(0)).toMatchObject({ start: '2024-02-01', end: '2024-02-29' });
    const unsure = parseReadingsCsv(`${header}\nM,T,electricity,w,01/02/2024,03/04/2024,5,kWh`, ',', {
      file,
    });
    expect(unsure.needsDateOrder).toBe(true);
    expect([...unsure.readings]).toEqual([]);
    expect(unsure.errors[0]).toMatchObject({ row: 1, column: 'start_date' });
    const answered = parseReadingsCsv(`${header}\nM,T,electricity,w,01/02/2024,03/04/2024,5,kWh`, ',', {
      file,
      dateOrder: 'mdy',
    });
    expect(answered.readings.at(0)).toMatchObject({ start: '2024-01-02', end: '2024-03-04' });
  });

  it('refuses a file without the columns it needs, saying which', () => {
    const result = parseReadingsCsv('foo,bar\n1,2', ',', { file });
    expect(result.errors).toEqual([
      {
        file,
        row: 1,
        column: null,
        message: expect.stringContaining(
          'start_date, end_date, quantity, utility, meter_id, asset_partners_id',
        ) as string,
      },
    ]);
  });

  it('reads quantities as spreadsheets write them', () => {
    expect(parseQuantity('1234.5')).toBe(1234.5);
    expect(parseQuantity('1,234,567')).toBe(1234567);
    expect(parseQuantity('1.234,5')).toBe(1234.5);
    expect(parseQuantity('12,5')).toBe(12.5);
    expect(parseQuantity('1,234')).toBe('ambiguous');
    expect(parseQuantity('abc')).toBeNull();
  });
});
