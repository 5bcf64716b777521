/**
 * A large readings CSV is parsed from its bytes a megabyte at a time: the readings, rows and
 * problems are those of the whole text read at once, a quoted value with a line break across a
 * slice's end included, and a BOM dropped.
 */
import { describe, expect, it } from 'vitest';
import { runSteps } from '../../../shared/meters/import-rows';
import { parseReadingsBytes, parseReadingsText } from '../../../electron/meters/readings-file';

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
});
