import { describe, expect, it } from 'vitest';
import type { ImportedReading } from '../../../shared/meters/import-rows';
import { ImportedReadings } from '../../../shared/meters/imported-readings';

const reading = (k: number): ImportedReading => ({
  meterKey: `m-${k % 7}`,
  start: `2024-01-${String((k % 28) + 1).padStart(2, '0')}`,
  end: '2024-01-31',
  quantity: k * 1.5 - 3,
  unit: k % 2 ? 'kWh' : 'MWh',
  estimated: k % 3 === 0,
  source: { kind: 'file', file: 'readings.csv', row: k + 2 },
});

describe('a file parsed readings held as columns', () => {
  it('gives back every reading as it was pushed, past the columns growing', () => {
    const all = Array.from({ length: 3000 }, (_, k) => reading(k));
    const columns = ImportedReadings.from(all);
    expect(columns.length).toBe(3000);
    expect([...columns]).toEqual(all);
    expect(columns.at(2049)).toEqual(all[2049]);
    expect(columns.map((r) => r.source.row).slice(0, 3)).toEqual([2, 3, 4]);
    expect([columns.meterKey(10), columns.start(10), columns.end(10), columns.row(10)]).toEqual([
      'm-3',
      '2024-01-11',
      '2024-01-31',
      12,
    ]);
  });

  it('holds no reading when none was pushed', () => {
    expect([...new ImportedReadings()]).toEqual([]);
  });
});
