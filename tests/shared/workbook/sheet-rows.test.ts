import { describe, expect, it } from 'vitest';
import { AnnualSlots } from '../../../shared/workbook/annual-slots';

const sources = [2023, 2024].flatMap((year) =>
  ['a', 'b', 'c'].map((field) => ({ kind: 'annual' as const, field, year })),
);

/** The slots' values after `fill` by the map the import builds (the last record of a year kept). */
function byMap(records: Record<string, unknown>[]): unknown[] {
  const slots = new AnnualSlots(sources);
  const byYear = new Map<number, Record<string, unknown>>();
  for (const r of records) if (typeof r.year === 'number') byYear.set(r.year, r);
  slots.fill(byYear);
  return [...slots.values];
}

function byRecords(slots: AnnualSlots, records: unknown): unknown[] {
  slots.fillRecords(records);
  const values = [...slots.values];
  slots.clear();
  return values;
}

describe('AnnualSlots.fillRecords', () => {
  it('fills what the map fills, whatever the order of each record’s fields', () => {
    const slots = new AnnualSlots(sources);
    const books = [
      [
        { year: 2023, a: 1, b: 2, x: 9 },
        { year: 2024, c: 3 },
      ],
      [
        { year: 2023, b: 5, a: 4 },
        { year: 2024, a: 6, c: 7, b: 8 },
      ],
      [{ year: 2024, x: 1, a: 2 }, { year: 2022, a: 3 }, { a: 4 }],
      [
        { year: 2023, a: 1, b: 2, x: 9 },
        { year: 2024, c: 3 },
      ],
    ];
    for (const records of books) expect(byRecords(slots, records)).toEqual(byMap(records));
    expect(slots.values.every((v) => v === undefined)).toBe(true);
  });

  it('keeps only the last record of a year given twice, as the map does', () => {
    const slots = new AnnualSlots(sources);
    const records = [
      { year: 2023, a: 1, b: 2 },
      { year: 2024, c: 3 },
      { year: 2023, c: 4 },
    ];
    expect(byRecords(slots, records)).toEqual(byMap(records));
    expect(byRecords(slots, records)[0]).toBeUndefined();
  });

  it('takes no records when annual_data is not a list', () => {
    const slots = new AnnualSlots(sources);
    expect(byRecords(slots, undefined).every((v) => v === undefined)).toBe(true);
  });
});

describe('AnnualSlots.shape', () => {
  it('changes when an asset fills other slots than the asset before, and only then', () => {
    const slots = new AnnualSlots(sources);
    const shapeOf = (asset: object): { shape: number; filled: number[] } => {
      slots.fillAsset(asset);
      const out = { shape: slots.shape, filled: [...slots.filled] };
      slots.clear();
      return out;
    };
    const a = shapeOf({ annual_data: [{ year: 2023, a: 1, b: undefined }] });
    expect(a.filled).toEqual([1, 1, 0, 0, 0, 0]);
    // The same slots, whatever their values: the same shape.
    expect(shapeOf({ annual_data: [{ year: 2023, a: null, b: 2 }] }).shape).toBe(a.shape);
    // Another slot, the same count: a new shape.
    const b = shapeOf({ annual_data: [{ year: 2023, a: 1, c: 2 }] });
    expect(b).toEqual({ shape: a.shape + 1, filled: [1, 0, 1, 0, 0, 0] });
    // Fewer slots, then a year given twice (the last record of it kept).
    expect(shapeOf({ annual_data: [{ year: 2023, a: 1 }] })).toEqual({
      shape: b.shape + 1,
      filled: [1, 0, 0, 0, 0, 0],
    });
    const twice = shapeOf({
      annual_data: [
        { year: 2024, a: 1 },
        { year: 2024, b: 1 },
      ],
    });
    expect(twice.filled).toEqual([0, 0, 0, 0, 1, 0]);
    expect(twice.shape).toBeGreaterThan(b.shape + 1);
  });
});
