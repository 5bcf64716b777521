/**
 * The rules on readings, shown in the cells and the problems panel like every rule: end before
 * start, negative quantity, a unit that doesn't fit the utility (or a fuel volume without energy
 * content), overlapping readings of one meter (error), the same reading twice (flagged, not added),
 * and a gap in a meter's readings inside the reporting period (warning).
 */
import { dayNumber, isoOfDay } from './dates';
import { uncovered } from './rollup';
import type { Meter, Period, Reading } from './types';
import { conversionFactor } from './units';

export type ReadingRule =
  | 'end_before_start'
  | 'negative_quantity'
  | 'bad_date'
  | 'unit'
  | 'unknown_meter'
  | 'overlap'
  | 'duplicate'
  | 'gap';

export interface ReadingIssue {
  rule: ReadingRule;
  severity: 'error' | 'warning';
  meterId: string;
  /** The reading's index in the input; null for a meter's gap. */
  reading: number | null;
  /** The reading's column the issue belongs in. */
  column: 'start' | 'end' | 'quantity' | 'unit' | 'meterId' | null;
  message: string;
  /** For a gap: the days no reading covers. */
  span?: Period;
}

function sameReading(a: Reading, b: Reading): boolean {
  return (
    a.start === b.start &&
    a.end === b.end &&
    a.quantity === b.quantity &&
    a.unit.trim().toLowerCase() === b.unit.trim().toLowerCase()
  );
}

/** Every issue of `readings` against `meters`; gaps only when a reporting `period` is given. */
export function checkReadings(
  meters: readonly Meter[],
  readings: readonly Reading[],
  period?: Period,
): ReadingIssue[] {
  const issues: ReadingIssue[] = [];
  const byId = new Map(meters.map((m) => [m.id, m]));
  const perMeter = new Map<string, number[]>();
  // Day numbers once per reading: the sort and the overlap scan below compare them many times.
  const starts = new Float64Array(readings.length);
  const ends = new Float64Array(readings.length);
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i] as Reading;
    const meter = byId.get(r.meterId);
    const base = { meterId: r.meterId, reading: i };
    if (!meter) {
      issues.push({
        ...base,
        rule: 'unknown_meter',
        severity: 'error',
        column: 'meterId',
        message: `No meter "${r.meterId}".`,
      });
      continue;
    }
    const s = dayNumber(r.start);
    const e = dayNumber(r.end);
    starts[i] = s;
    ends[i] = e;
    let datesOk = true;
    for (const [value, column] of [
      [s, 'start'],
      [e, 'end'],
    ] as const) {
      if (Number.isNaN(value)) {
        datesOk = false;
        issues.push({
          ...base,
          rule: 'bad_date',
          severity: 'error',
          column,
          message: `"${column === 'start' ? r.start : r.end}" is not a date (YYYY-MM-DD).`,
        });
      }
    }
    if (datesOk && e < s) {
      datesOk = false;
      issues.push({
        ...base,
        rule: 'end_before_start',
        severity: 'error',
        column: 'end',
        message: `The reading ends (${r.end}) before it starts (${r.start}).`,
      });
    }
    if (r.quantity < 0) {
      issues.push({
        ...base,
        rule: 'negative_quantity',
        severity: 'error',
        column: 'quantity',
        message: `A negative quantity (${r.quantity}).`,
      });
    }
    const conversion = conversionFactor(r.unit, meter.utility, meter.energyContent);
    if (!conversion.ok)
      issues.push({ ...base, rule: 'unit', severity: 'error', column: 'unit', message: conversion.message });
    if (datesOk) {
      const list = perMeter.get(r.meterId) ?? [];
      list.push(i);
      perMeter.set(r.meterId, list);
    }
  }

  for (const [meterId, indexes] of perMeter) {
    indexes.sort((a, b) => (starts[a] as number) - (starts[b] as number) || a - b);
    // The reading reaching furthest so far, to catch an overlap with any earlier reading.
    let reach = -1;
    for (let k = 0; k < indexes.length; k++) {
      const i = indexes[k] as number;
      const r = readings[i] as Reading;
      if (reach >= 0) {
        const prev = readings[reach] as Reading;
        if (sameReading(prev, r)) {
          issues.push({
            rule: 'duplicate',
            severity: 'error',
            meterId,
            reading: i,
            column: 'start',
            message: `The same reading as row ${reach + 1} (${r.start} to ${r.end}, ${r.quantity} ${r.unit}).`,
          });
          continue;
        }
        if ((starts[i] as number) <= (ends[reach] as number)) {
          issues.push({
            rule: 'overlap',
            severity: 'error',
            meterId,
            reading: i,
            column: 'start',
            message: `Overlaps the reading of ${prev.start} to ${prev.end} (row ${reach + 1}) of the same meter.`,
          });
        }
      }
      if (reach < 0 || (ends[i] as number) > (ends[reach] as number)) reach = i;
    }
  }

  if (period) {
    const pFrom = dayNumber(period.from);
    const pTo = dayNumber(period.to);
    for (const meter of meters) {
      const spans: number[] = [];
      for (const i of perMeter.get(meter.id) ?? []) {
        const a = Math.max(starts[i] as number, pFrom);
        const b = Math.min(ends[i] as number, pTo);
        if (b >= a) spans.push(a, b);
      }
      for (const [a, b] of uncovered(spans, pFrom, pTo)) {
        const span = { from: isoOfDay(a), to: isoOfDay(b) };
        issues.push({
          rule: 'gap',
          severity: 'warning',
          meterId: meter.id,
          reading: null,
          column: null,
          span,
          message: `No reading of meter "${meter.name || meter.id}" covers ${span.from} to ${span.to} (${b - a + 1} days).`,
        });
      }
    }
  }
  return issues;
}
