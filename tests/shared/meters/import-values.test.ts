import { describe, expect, it } from 'vitest';
import { isoDate, parseEstimated, parseQuantity } from '../../../shared/meters/import-values';

describe('a readings file cell values', () => {
  it('reads plain decimals the short way as Number does, and leaves the rest to the spreadsheet rules', () => {
    expect(parseQuantity('1234.5')).toBe(1234.5);
    expect(parseQuantity('-12')).toBe(-12);
    expect(parseQuantity('007')).toBe(7);
    expect(parseQuantity(' 12.5 ')).toBe(12.5);
    expect(parseQuantity('1.')).toBeNull();
    expect(parseQuantity('.5')).toBeNull();
    expect(parseQuantity('-')).toBeNull();
    expect(parseQuantity('')).toBeNull();
    expect(parseQuantity('1.2.3')).toBeNull();
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('1,234')).toBe('ambiguous');
  });

  it('reads the estimated flag in its spellings, whatever the case and spaces', () => {
    expect(parseEstimated('')).toBe(false);
    expect(parseEstimated(' Actual ')).toBe(false);
    expect(parseEstimated('YES')).toBe(true);
    expect(parseEstimated('est')).toBe(true);
    expect(parseEstimated('maybe')).toBeNull();
  });

  it('reads ISO dates, refusing days a month does not have', () => {
    expect(isoDate('2024-2-29')).toBe('2024-02-29');
    expect(isoDate('2023-02-29')).toBeNull();
    expect(isoDate('01/02/2024')).toBeUndefined();
  });
});
