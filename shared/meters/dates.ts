/**
 * Calendar days as integers (days since 1970-01-01, UTC) so that periods are counted inclusively by
 * subtraction, and the asset's reporting period from the entity's reporting preferences.
 */
import type { ReportingPreferences } from '../domain/types';
import type { Period } from './types';

const MS_PER_DAY = 86_400_000;
// The roll-up reads the same few hundred dates (bill periods) over and over; a bounded memo turns
// 2.9 M string parses into map look-ups.
const memo = new Map<string, number>();

/** The day number of an ISO `YYYY-MM-DD`, NaN when it is not one. */
export function dayNumber(iso: string): number {
  const hit = memo.get(iso);
  if (hit !== undefined) return hit;
  let day = NaN;
  if (iso.length === 10 && iso[4] === '-' && iso[7] === '-') {
    const y = Number(iso.slice(0, 4));
    const m = Number(iso.slice(5, 7));
    const d = Number(iso.slice(8, 10));
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d) {
      day = ms / MS_PER_DAY;
    }
  }
  if (memo.size > 200_000) memo.clear();
  memo.set(iso, day);
  return day;
}

/** The ISO date of a day number. */
export function isoOfDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export function daysInclusive(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/**
 * The reporting period of reporting year `year`. `reporting_period_month` is the month the entity's
 * year ends in (the service's default is 12, a calendar year); a fiscal year ending in month M of
 * `year` runs from the first day of month M+1 of the year before to the last day of month M.
 */
export function reportingPeriod(
  year: number,
  preferences?: Pick<ReportingPreferences, 'reporting_period_month'> | null,
): Period {
  const month = preferences?.reporting_period_month ?? 12;
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`reporting_period_month must be 1..12, not ${month}`);
  }
  const end = Date.UTC(year, month, 0); // day 0 of the next month = last day of `month`
  const start = Date.UTC(year - 1, month, 1);
  return { from: isoOfDay(start / MS_PER_DAY), to: isoOfDay(end / MS_PER_DAY) };
}
