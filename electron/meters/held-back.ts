import { dataPeriodFields, targetFields } from '../../shared/meters/fields';
import { checkReadings, type ReadingRule } from '../../shared/meters/rules';
import type { Meter, Reading } from '../../shared/meters/types';
import { topicOf } from '../../shared/meters/types';

/**
 * Derived cells held back by the reading rules (issue 32): a figure made from readings that break an
 * error rule (a negative quantity, an end before the start, readings of one meter that overlap or
 * repeat, a unit that doesn't fit the utility) would be wrong however it was summed: the roll-up
 * leaves the bad reading out (too little) or counts an overlap twice (too much). So the cells that
 * reading feeds in the years it touches are not written until the analyst fixes it; the cell's hover
 * says why and the Problems panel lists the rule.
 */

/** Why a rule holds a figure back, for one reading and for several. */
const wording: Partial<Record<ReadingRule, [one: string, many: string]>> = {
  negative_quantity: ['has a negative quantity', 'have negative quantities'],
  end_before_start: ['ends before it starts', 'end before they start'],
  overlap: ['overlaps another reading of the meter', 'overlap other readings of the meter'],
  duplicate: ['repeats another reading of the meter', 'repeat other readings of the meter'],
  unit: ["has a unit that doesn't fit the utility", "have units that don't fit the utility"],
  bad_date: ['has a date that is not one', 'have dates that are not dates'],
};

/** The reporting year of an ISO date (fiscal years end in `month`), NaN when it is not a date. */
function yearOf(iso: string, month: number): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return NaN;
  const y = Number(iso.slice(0, 4));
  return Number(iso.slice(5, 7)) > month ? y + 1 : y;
}

/** The years a reading touches: those between its dates, or each date's own when they are reversed. */
function yearsTouched(reading: Reading, month: number): number[] {
  const ends = [yearOf(reading.start, month), yearOf(reading.end, month)].filter((y) => !Number.isNaN(y));
  if (ends.length === 0) return [];
  const from = Math.min(...ends);
  const to = Math.max(...ends);
  const out: number[] = [];
  for (let y = from; y <= to && y - from < 50; y++) out.push(y);
  return out;
}

/** The fields of a year a meter's readings feed: its total, its coverage and its topic's data period. */
function fieldsFed(meter: Meter): string[] {
  const target = targetFields(meter.utility, meter.space);
  const period = dataPeriodFields[topicOf(meter.utility)];
  return [...(target ? [target.abs, ...(target.cov ? [target.cov] : [])] : []), period.from, period.to];
}

const key = (year: number, field: string): string => `${year}|${field}`;

/**
 * For one asset's meters and readings: the reason each held-back cell is held, by `year|field`
 * ("Held back: 1 reading of meter Main gas has a negative quantity."). Cells not in it are free.
 */
export function heldBackCells(
  meters: readonly Meter[],
  readings: readonly Reading[],
  month: number,
): Map<string, string> {
  const byId = new Map(meters.map((m) => [m.id, m]));
  // year|field -> meter -> rule -> the readings breaking it
  const causes = new Map<string, Map<Meter, Map<ReadingRule, Set<number>>>>();
  for (const issue of checkReadings(meters, readings)) {
    if (issue.severity !== 'error' || issue.reading === null || !wording[issue.rule]) continue;
    const reading = readings[issue.reading];
    const meter = byId.get(issue.meterId);
    if (!reading || !meter) continue;
    for (const year of yearsTouched(reading, month)) {
      for (const field of fieldsFed(meter)) {
        const k = key(year, field);
        const perMeter = causes.get(k) ?? new Map<Meter, Map<ReadingRule, Set<number>>>();
        causes.set(k, perMeter);
        const perRule = perMeter.get(meter) ?? new Map<ReadingRule, Set<number>>();
        perMeter.set(meter, perRule);
        const list = perRule.get(issue.rule) ?? new Set<number>();
        perRule.set(issue.rule, list);
        list.add(issue.reading);
      }
    }
  }
  const out = new Map<string, string>();
  for (const [k, perMeter] of causes) {
    const parts: string[] = [];
    for (const [meter, perRule] of perMeter) {
      for (const [rule, list] of perRule) {
        const [one, many] = wording[rule] as [string, string];
        const n = list.size;
        parts.push(
          `${n} reading${n === 1 ? '' : 's'} of meter ${meter.name || meter.id} ${n === 1 ? one : many}`,
        );
      }
    }
    out.set(k, `Held back: ${parts.join('; ')}. Fix the readings on the Meters tab.`);
  }
  return out;
}

export const heldBackKey = key;
