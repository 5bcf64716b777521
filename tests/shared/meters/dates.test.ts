import { describe, expect, it } from 'vitest';
import { dayNumber, daysInclusive, reportingPeriod } from '../../../shared/meters/dates';

describe('meter dates', () => {
  it('counts days inclusively, leap days included', () => {
    expect(daysInclusive('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInclusive('2023-01-01', '2023-12-31')).toBe(365);
    expect(daysInclusive('2024-02-01', '2024-02-29')).toBe(29);
    expect(daysInclusive('2024-03-05', '2024-03-05')).toBe(1);
    expect(dayNumber('2023-02-29')).toBeNaN();
    expect(dayNumber('2023-2-1')).toBeNaN();
  });

  it('gives the calendar year or the fiscal year ending in the entity month', () => {
    expect(reportingPeriod(2024)).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(reportingPeriod(2024, { reporting_period_month: 12 })).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
    });
    expect(reportingPeriod(2024, { reporting_period_month: 3 })).toEqual({
      from: '2023-04-01',
      to: '2024-03-31',
    });
    expect(reportingPeriod(2024, { reporting_period_month: 6 })).toEqual({
      from: '2023-07-01',
      to: '2024-06-30',
    });
    expect(reportingPeriod(2025, { reporting_period_month: 2 })).toEqual({
      from: '2024-03-01',
      to: '2025-02-28',
    });
    expect(() => reportingPeriod(2024, { reporting_period_month: 13 })).toThrow(RangeError);
  });
});
