import { reportingPeriod } from '../../shared/meters/dates';
import { checkReadings } from '../../shared/meters/rules';
import type { MetersListing, ReadingView } from '../../shared/meters/views';
import type { MeterStore } from '../workspace/meter-store';

/** Readings sent in one listing; a larger register is listed per asset. */
export const MAX_LISTED_READINGS = 50_000;

/**
 * The Meters and Readings grids' rows (of one asset, or the whole workspace) with the reading rules
 * (shared/meters/rules.ts) for the cells and the problems panel; gaps inside `period`'s reporting
 * year (the year the assessment reports on).
 */
export function metersListing(
  store: MeterStore,
  assetId: string | undefined,
  period: { year: number; month: number },
): MetersListing & { truncated: boolean } {
  const meters = store.meters(assetId);
  // Read only as many as are listed: a whole entity's register can hold a million readings.
  const read = store.readingsOf(
    meters.map((m) => m.id),
    MAX_LISTED_READINGS + 1,
  );
  const truncated = read.length > MAX_LISTED_READINGS;
  const listed = truncated ? read.slice(0, MAX_LISTED_READINGS) : read;
  const counts = store.readingCounts(meters.map((m) => m.id));
  const assetOf = new Map(meters.map((m) => [m.id, m.assetId]));
  const views: ReadingView[] = listed.map((r) => ({ ...r, assetId: assetOf.get(r.meterId) ?? '' }));
  const issues = checkReadings(
    meters,
    listed,
    reportingPeriod(period.year, { reporting_period_month: period.month }),
  ).map(({ reading, ...issue }) => ({
    ...issue,
    readingId: reading === null ? null : (listed[reading]?.id ?? null),
  }));
  return {
    meters: meters.map((m) => ({ ...m, readings: counts.get(m.id) ?? 0 })),
    readings: views,
    issues,
    truncated,
  };
}
