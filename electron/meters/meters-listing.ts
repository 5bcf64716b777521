import { reportingPeriod } from '../../shared/meters/dates';
import { checkReadings } from '../../shared/meters/rules';
import type { MetersListing, ReadingView } from '../../shared/meters/views';
import type { MeterStore } from './meter-store';

/** Readings sent in one listing; a larger register is listed per asset. */
export const MAX_LISTED_READINGS = 200_000;

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
  const readings = store.readingsOf(meters.map((m) => m.id));
  const truncated = readings.length > MAX_LISTED_READINGS;
  const listed = truncated ? readings.slice(0, MAX_LISTED_READINGS) : readings;
  const counts = new Map<string, number>();
  for (const r of readings) counts.set(r.meterId, (counts.get(r.meterId) ?? 0) + 1);
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
