import { describe, expect, it } from 'vitest';
import { reportingPeriod } from '../../../shared/meters/dates';
import { checkReadings } from '../../../shared/meters/rules';
import { meter, reading } from './support';

describe('meter reading rules', () => {
  const meters = [meter('e1', 'electricity', 'whole_building'), meter('w1', 'water', 'whole_building')];

  it('flags end before start, negative quantity and a unit that does not fit', () => {
    const issues = checkReadings(meters, [
      reading('e1', '2023-02-01', '2023-01-31', 5),
      reading('e1', '2023-03-01', '2023-03-31', -1),
      reading('w1', '2023-01-01', '2023-01-31', 5, 'kWh'),
      reading('w1', '2023-02-30', '2023-03-31', 5, 'm3'),
      reading('x', '2023-01-01', '2023-01-31', 5),
    ]);
    expect(issues.map((i) => [i.rule, i.reading, i.column, i.severity])).toEqual([
      ['end_before_start', 0, 'end', 'error'],
      ['negative_quantity', 1, 'quantity', 'error'],
      ['unit', 2, 'unit', 'error'],
      ['bad_date', 3, 'start', 'error'],
      ['unknown_meter', 4, 'meterId', 'error'],
    ]);
    expect(issues[2]?.message).toContain('"kWh"');
  });

  it('flags overlapping readings of one meter, and a duplicate as a duplicate only', () => {
    const issues = checkReadings(meters, [
      reading('e1', '2023-01-01', '2023-03-31', 90),
      reading('e1', '2023-02-01', '2023-02-28', 28), // inside the first one
      reading('e1', '2023-04-01', '2023-04-30', 30),
      reading('e1', '2023-04-01', '2023-04-30', 30), // imported twice
      reading('e1', '2023-04-30', '2023-05-31', 32), // shares 30 April
      reading('w1', '2023-01-01', '2023-03-31', 9, 'm3'), // another meter: no overlap
    ]);
    expect(issues.map((i) => [i.rule, i.reading])).toEqual([
      ['overlap', 1],
      ['duplicate', 3],
      ['overlap', 4],
    ]);
    expect(issues[0]?.message).toContain('2023-01-01 to 2023-03-31 (row 1)');
  });

  it('warns of gaps inside the reporting period, per meter', () => {
    const issues = checkReadings(
      meters,
      [
        reading('e1', '2022-12-01', '2023-01-31', 1),
        reading('e1', '2023-03-01', '2023-12-31', 1),
        reading('w1', '2023-01-01', '2023-12-31', 1, 'm3'),
      ],
      reportingPeriod(2023),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        rule: 'gap',
        severity: 'warning',
        meterId: 'e1',
        span: { from: '2023-02-01', to: '2023-02-28' },
      }),
    ]);
    expect(issues[0]?.message).toContain('28 days');
    // A meter with no reading at all in the period: one gap over the whole year.
    const none = checkReadings(
      meters,
      [reading('w1', '2023-01-01', '2023-12-31', 1, 'm3')],
      reportingPeriod(2023),
    );
    expect(none.map((i) => i.span)).toEqual([{ from: '2023-01-01', to: '2023-12-31' }]);
  });
});
