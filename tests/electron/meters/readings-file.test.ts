/**
 * A large readings CSV is parsed from its bytes: the readings, rows and problems are those of the
 * whole text read at once, quoted values with delimiters and line breaks, a BOM, CRLF, empty cells,
 * bad values and a meter's changed attributes included; a file over the import's limit is refused
 * on its size before a byte of it is read.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSteps, type ImportOptions } from '../../../shared/meters/import-rows';
import { loadReadings, parseReadingsBytes, parseReadingsText } from '../../../electron/meters/readings-file';

const header = 'meter_id,meter_name,asset_name,utility,space,start_date,end_date,quantity,unit,estimated';

function bigCsv(): string {
  const rows = [header];
  let bytes = header.length + 1;
  for (let i = 0; bytes < 2_300_000; i++) {
    // Around each megabyte's end, a meter name quoted over a line break (and a quote doubled).
    const near = Math.abs((bytes % (1024 * 1024)) - 1024 * 1024) < 400 || bytes % (1024 * 1024) < 400;
    const name = near ? `"Main ""east""\nmeter ${i}"` : `Meter ${i % 50}`;
    const id = near ? `Q${i}` : `M${i % 50}`;
    const month = String((i % 12) + 1).padStart(2, '0');
    const year = 2000 + Math.floor(i / 12);
    const row = `${id},${name},Tower,electricity,whole_building,${year}-${month}-01,${year}-${month}-28,${i % 7 === 0 ? 'lots' : i},kWh,no`;
    rows.push(row);
    bytes += Buffer.byteLength(row) + 1;
  }
  return rows.join('\r\n');
}

describe('readings CSV read from its bytes', () => {
  it('reads the same readings, rows and problems as the whole text', () => {
    const text = bigCsv();
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const options = { file: 'big.csv' };
    const whole = runSteps(parseReadingsText(text, options));
    const sliced = runSteps(parseReadingsBytes(Buffer.from(`\uFEFF${text}`, 'utf8'), options));
    expect(sliced.headers).toEqual(whole.headers);
    expect(sliced.parsed.readings.length).toBeGreaterThan(20_000);
    expect([...sliced.parsed.readings]).toEqual([...whole.parsed.readings]);
    expect(sliced.parsed.errors).toEqual(whole.parsed.errors);
    expect(sliced.parsed.meters).toEqual(whole.parsed.meters);
    expect(whole.parsed.meters.some((m) => m.name.includes('\n'))).toBe(true);
  });

  it('reads quoted cells, a BOM, CRLF, empty cells and bad values as the text reader does', () => {
    const rows = [
      'Meter ID,Meter Name,Asset Name,Utility,Space,Area Served,Start Date,End Date,Quantity,Unit,Estimated,Notes',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-01-01,2024-01-31,10.5,kWh,no,',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-02-01,2024-02-29, 11 ,kWh,yes,"a note, with a comma"',
      'M1,"Main, east",Tower,electricity,whole_building,100,"2024-03-01",2024-03-31,"1,5",kWh,,',
      '',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-04-01,2024-04-31,12,kWh,no,',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-05-01,2024-05-31,lots,kWh,maybe,',
      'M1,"Main, east",Tower,electricity,whole_building,200,2024-06-01,2024-06-30,13,kWh,no,',
      'M2,"Two\nlines ""quoted""",Tower,water,w,,2024-01-01,2024-01-31,-0,m3,est,"line\nbreak"',
      'M2,"Two\nlines ""quoted""",Tower,water,w,,2024-02-01,2024-02-29,1234567890123456789,m3,no',
      'M3,Gas,Zürich Süd,fuel,w,50,2024-01-01,2024-01-31,7,therms,no,',
      'M3,Gas,Zürich Süd,fuel,w,50,2024-02-01,2024-02-29,1.5e3,furlongs,no,',
      'M4,,,district,nowhere,x,2024-13-01,,,,',
      ',,,,,,,,,,,',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-07-01,2024-07-31,0.1,kWh,no,',
      // A day outside the years read by index, and a repeated row's impossible day.
      'M1,"Main, east",Tower,electricity,whole_building,100,1899-12-01,1899-12-31,0.2,kWh,no,',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-08-01,2024-08-32,0.3,kWh,no,',
      'M1,"Main, east",Tower,electricity,whole_building,100,2024-07-01,2024-07-31,0.4,kWh,no,',
    ];
    const text = rows.join('\r\n') + '\r\n';
    const options: ImportOptions = { file: 'tricky.csv' };
    const whole = runSteps(parseReadingsText(text, options));
    const fromBytes = runSteps(parseReadingsBytes(Buffer.from(`\uFEFF${text}`, 'utf8'), options));
    expect(fromBytes.headers).toEqual(whole.headers);
    expect([...fromBytes.parsed.readings]).toEqual([...whole.parsed.readings]);
    expect(fromBytes.parsed.errors).toEqual(whole.parsed.errors);
    expect(fromBytes.parsed.meters).toEqual(whole.parsed.meters);
    // What the rows say, read either way: the good rows kept, each bad one named by row and column.
    expect([...whole.parsed.readings].map((r) => [r.source.row, r.quantity, r.estimated])).toEqual([
      [2, 10.5, false],
      [3, 11, true],
      [4, 1.5, false],
      [9, -0, true],
      [10, 1234567890123456800, false],
      [11, 7, false],
      [15, 0.1, false],
      [16, 0.2, false],
      [18, 0.4, false],
    ]);
    expect(whole.parsed.errors.map((e) => [e.row, e.column])).toEqual([
      [6, 'End Date'],
      [7, 'Quantity'],
      [7, 'Estimated'],
      [8, 'Area Served'],
      [12, 'Unit'],
      [13, 'Start Date'],
      [13, 'End Date'],
      [13, 'Quantity'],
      [13, 'Unit'],
      [13, 'Space'],
      [13, 'Area Served'],
      [13, 'Asset Name'],
      [17, 'End Date'],
    ]);
    expect([...fromBytes.parsed.readings].map((r) => [r.start, r.end]).slice(-2)).toEqual([
      ['1899-12-01', '1899-12-31'],
      ['2024-07-01', '2024-07-31'],
    ]);
    expect(whole.parsed.meters.map((m) => m.name)).toEqual(['Main, east', 'Two\nlines "quoted"', 'Gas']);
  });

  it('asks the day/month order of a file from its bytes as from its text', () => {
    const header = 'meter_id,asset_name,utility,space,start_date,end_date,quantity,unit';
    for (const [body, order] of [
      ['M,T,electricity,w,01/02/2024,29/02/2024,5,kWh\nM,T,electricity,w,01/03/2024,31/03/2024,6,kWh', null],
      ['M,T,electricity,w,01/02/2024,03/04/2024,5,kWh', null],
      ['M,T,electricity,w,01/02/2024,03/04/2024,5,kWh', 'mdy'],
      ['M,T,electricity,w,2024-01-01,2024-01-31,4,kWh\nM,T,electricity,w,01/02/2024,29/02/2024,5,kWh', null],
    ] as const) {
      const text = `${header}\n${body}\n`;
      const options: ImportOptions = { file: 'dates.csv', ...(order ? { dateOrder: order } : {}) };
      const whole = runSteps(parseReadingsText(text, options));
      const fromBytes = runSteps(parseReadingsBytes(Buffer.from(text, 'utf8'), options));
      expect(fromBytes.parsed.needsDateOrder).toBe(whole.parsed.needsDateOrder);
      expect([...fromBytes.parsed.readings]).toEqual([...whole.parsed.readings]);
      expect(fromBytes.parsed.errors).toEqual(whole.parsed.errors);
    }
  });

  it('refuses a file over the import limit on its size, before reading it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-readings-size-'));
    try {
      // 1 GB of nothing (a sparse file): read, it would take seconds and a gigabyte of memory.
      const huge = join(dir, 'huge.csv');
      writeFileSync(huge, 'meter_id,asset_name\n');
      truncateSync(huge, 1024 ** 3);
      await expect(loadReadings(huge, 'huge.csv')).rejects.toThrow(/1024 MB|1 GB|not imported/);
      const small = join(dir, 'small.csv');
      writeFileSync(small, 'x'.repeat(2000));
      await expect(loadReadings(small, 'small.csv', 1000)).rejects.toThrow(/not imported/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
