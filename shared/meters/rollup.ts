/**
 * The roll-up: from one asset's meters, their readings and the asset's reporting period to the
 * service's annual fields. One pure function that the grid, the import preview, the portfolio view
 * and the tests all use.
 *
 * Rules and their sources (README "Meters"):
 * - `*_abs_*`: a reading contributes quantity x (its days inside the period / its days), both counted
 *   inclusively, converted into kWh / m³ / t (units.ts), summed per utility and space (fields.ts).
 * - `*_cov_*`: the floor area served by the meters of that utility and space that have readings in
 *   the period. GRESB's Aggregation Handbook defines data coverage (area) as the "Floor Area Covered"
 *   by performance data per space over its maximum floor area, and time coverage separately via the
 *   data period (gresb.com/guides/completingassessments/data/results-insights/aggregation-handbook);
 *   so a meter with any reading in the period covers its area, and the days are in `*_data_from/to`.
 * - `*_data_from/to`: the first and last day inside the period covered by that topic's readings.
 * - Estimates: GRESB's Data Estimation Rules cap estimates by time, not by consumption: "Estimated
 *   data must not exceed 20% of the total period for which actual data is available"
 *   (gresb.com/guides/completingassessments/supporting-information/data-quality-and-validation/
 *   data-estimation-rules). Both the consumption share and the days are reported; the warning follows
 *   the guidance (estimated days > 20 % of actual days).
 * Fields of a utility and space with no meter are not in the result (left alone).
 */
import { dayNumber, isoOfDay } from './dates';
import { dataPeriodFields, targetFields } from './fields';
import type { Meter, MeterTopic, Period, Reading } from './types';
import { topicOf } from './types';
import { conversionFactor, type Conversion } from './units';

/** GRESB's cap: estimated days at most 20 % of the days with actual data. */
export const ESTIMATE_CAP = 0.2;

export interface FieldExplanation {
  readings: number;
  meters: number;
  /** Estimated share of the consumption, 0..1 (null for areas and dates). */
  estimatedShare: number | null;
  text: string;
}

export interface TopicSummary {
  consumption: number;
  estimatedConsumption: number;
  estimatedShare: number;
  estimatedDays: number;
  actualDays: number;
  /** Set when estimated days exceed {@link ESTIMATE_CAP} of the actual days. */
  warning: string | null;
}

export interface MeterSummary {
  meterId: string;
  readingsInPeriod: number;
  daysNotCovered: number;
  /** Spans inside the period no reading covers, as inclusive ISO dates. */
  gaps: Period[];
}

export interface RollupProblem {
  meterId: string;
  /** Index of the reading in the input, when the problem is one reading's. */
  reading: number | null;
  message: string;
}

export interface RollupResult {
  period: Period;
  /** Only the fields some meter feeds; numbers in kWh / m³ / t / area, dates ISO. */
  fields: Record<string, number | string>;
  explanations: Record<string, FieldExplanation>;
  topics: Partial<Record<MeterTopic, TopicSummary>>;
  meters: MeterSummary[];
  problems: RollupProblem[];
}

interface Group {
  abs: string;
  cov: string | null;
  topic: MeterTopic;
  sum: number;
  estimated: number;
  readings: number;
  meters: Set<string>;
  allMeters: Meter[];
}

interface MeterState {
  meter: Meter;
  group: Group | null;
  conversions: Map<string, Conversion>;
  /** Clipped [start, end] day pairs, flattened. */
  spans: number[];
  estimatedDays: number;
  actualDays: number;
}

interface TopicState {
  sum: number;
  estimated: number;
  estimatedDays: number;
  actualDays: number;
  first: number;
  last: number;
  readings: number;
  meters: Set<string>;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function rollup(meters: readonly Meter[], readings: readonly Reading[], period: Period): RollupResult {
  const pFrom = dayNumber(period.from);
  const pTo = dayNumber(period.to);
  if (!(pTo >= pFrom)) throw new RangeError(`Not a period: ${period.from} to ${period.to}`);
  const problems: RollupProblem[] = [];
  const groups = new Map<string, Group>();
  const states = new Map<string, MeterState>();
  for (const meter of meters) {
    const target = targetFields(meter.utility, meter.space);
    let group: Group | null = null;
    if (!target) {
      problems.push({
        meterId: meter.id,
        reading: null,
        message: `The service has no field for ${meter.utility} in ${meter.space.replace(/_/g, ' ')}.`,
      });
    } else {
      group = groups.get(target.abs) ?? null;
      if (!group) {
        group = {
          ...target,
          topic: topicOf(meter.utility),
          sum: 0,
          estimated: 0,
          readings: 0,
          meters: new Set(),
          allMeters: [],
        };
        groups.set(target.abs, group);
      }
      group.allMeters.push(meter);
    }
    states.set(meter.id, {
      meter,
      group,
      conversions: new Map(),
      spans: [],
      estimatedDays: 0,
      actualDays: 0,
    });
  }

  const topics = new Map<MeterTopic, TopicState>();
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i] as Reading;
    const state = states.get(r.meterId);
    if (!state) {
      problems.push({ meterId: r.meterId, reading: i, message: `No meter "${r.meterId}" for this asset.` });
      continue;
    }
    const s = dayNumber(r.start);
    const e = dayNumber(r.end);
    // Bad readings are the rules' to report (rules.ts); the roll-up leaves them out.
    if (!(e >= s) || !(r.quantity >= 0)) continue;
    const from = s > pFrom ? s : pFrom;
    const to = e < pTo ? e : pTo;
    if (to < from) continue;
    let conversion = state.conversions.get(r.unit);
    if (!conversion) {
      conversion = conversionFactor(r.unit, state.meter.utility, state.meter.energyContent);
      state.conversions.set(r.unit, conversion);
    }
    if (!conversion.ok) {
      problems.push({ meterId: r.meterId, reading: i, message: conversion.message });
      continue;
    }
    const inside = to - from + 1;
    const amount = (r.quantity * conversion.factor * inside) / (e - s + 1);
    state.spans.push(from, to);
    if (r.estimated) state.estimatedDays += inside;
    else state.actualDays += inside;
    const group = state.group;
    if (!group) continue;
    group.sum += amount;
    group.readings++;
    group.meters.add(r.meterId);
    if (r.estimated) group.estimated += amount;
    let topic = topics.get(group.topic);
    if (!topic) {
      topic = {
        sum: 0,
        estimated: 0,
        estimatedDays: 0,
        actualDays: 0,
        first: Infinity,
        last: -Infinity,
        readings: 0,
        meters: new Set(),
      };
      topics.set(group.topic, topic);
    }
    topic.sum += amount;
    if (r.estimated) {
      topic.estimated += amount;
      topic.estimatedDays += inside;
    } else topic.actualDays += inside;
    if (from < topic.first) topic.first = from;
    if (to > topic.last) topic.last = to;
    topic.readings++;
    topic.meters.add(r.meterId);
  }

  const fields: Record<string, number | string> = {};
  const explanations: Record<string, FieldExplanation> = {};
  for (const group of groups.values()) {
    // No reading of the period could be counted (none there, or none convertible): no figure, not a
    // zero the service would take as measured consumption.
    if (group.readings === 0) continue;
    const share = group.sum > 0 ? group.estimated / group.sum : 0;
    fields[group.abs] = group.sum;
    explanations[group.abs] = {
      readings: group.readings,
      meters: group.meters.size,
      estimatedShare: share,
      text: `${plural(group.readings, 'reading')} from ${plural(group.meters.size, 'meter')}, ${percent(share)} estimated`,
    };
    if (group.cov) {
      let area = 0;
      let unstated = 0;
      for (const meter of group.allMeters) {
        if (!group.meters.has(meter.id)) continue;
        if (meter.areaServed === null) unstated++;
        else area += meter.areaServed;
      }
      fields[group.cov] = area;
      explanations[group.cov] = {
        readings: group.readings,
        meters: group.meters.size,
        estimatedShare: null,
        text:
          `Floor area served by ${plural(group.meters.size, 'meter')} with readings in the period` +
          (unstated > 0 ? ` (${plural(unstated, 'meter')} without a stated area)` : ''),
      };
    }
  }

  const topicSummaries: Partial<Record<MeterTopic, TopicSummary>> = {};
  for (const [name, topic] of topics) {
    const names = dataPeriodFields[name];
    fields[names.from] = isoOfDay(topic.first);
    fields[names.to] = isoOfDay(topic.last);
    const text = `Days covered by ${plural(topic.readings, 'reading')} from ${plural(topic.meters.size, 'meter')}`;
    for (const field of [names.from, names.to]) {
      explanations[field] = {
        readings: topic.readings,
        meters: topic.meters.size,
        estimatedShare: null,
        text,
      };
    }
    const over = topic.estimatedDays > ESTIMATE_CAP * topic.actualDays;
    topicSummaries[name] = {
      consumption: topic.sum,
      estimatedConsumption: topic.estimated,
      estimatedShare: topic.sum > 0 ? topic.estimated / topic.sum : 0,
      estimatedDays: topic.estimatedDays,
      actualDays: topic.actualDays,
      warning: over
        ? `${name[0]?.toUpperCase()}${name.slice(1)}: ${topic.estimatedDays} estimated days against ${topic.actualDays} days of actual data, more than GRESB's 20 %.`
        : null,
    };
  }

  const meterSummaries: MeterSummary[] = [];
  for (const state of states.values()) {
    const gaps = uncovered(state.spans, pFrom, pTo);
    let missing = 0;
    for (const gap of gaps) missing += gap[1] - gap[0] + 1;
    meterSummaries.push({
      meterId: state.meter.id,
      readingsInPeriod: state.spans.length / 2,
      daysNotCovered: missing,
      gaps: gaps.map(([a, b]) => ({ from: isoOfDay(a), to: isoOfDay(b) })),
    });
  }
  return { period, fields, explanations, topics: topicSummaries, meters: meterSummaries, problems };
}

/** The spans of [pFrom, pTo] that none of the (flattened, clipped) spans cover. */
export function uncovered(spans: readonly number[], pFrom: number, pTo: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < spans.length; i += 2) pairs.push([spans[i] as number, spans[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const gaps: [number, number][] = [];
  let next = pFrom;
  for (const [a, b] of pairs) {
    if (a > next) gaps.push([next, a - 1]);
    if (b + 1 > next) next = b + 1;
  }
  if (next <= pTo) gaps.push([next, pTo]);
  return gaps;
}
