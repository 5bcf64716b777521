import { dayNumber, reportingPeriod } from '../../shared/meters/dates';
import { targetFields } from '../../shared/meters/fields';
import { rollup } from '../../shared/meters/rollup';
import type { Meter, Reading } from '../../shared/meters/types';
import type { FigureCell, FigureState, FiguresPreview } from '../../shared/meters/views';
import type { AssetDoc, Scalar } from '../../shared/sync/asset-doc';
import type { Edit } from '../workspace/asset-edits';
import { heldBackCells, heldBackKey } from './held-back';
import {
  derivedId,
  type DerivedRecord,
  type MeterDocChange,
  type MeterStore,
} from '../workspace/meter-store';

/**
 * From an asset's meters to its annual cells: the roll-up per reporting year, compared with the
 * asset's copy and with what meters last wrote there (`meter_derived`), so each derived cell knows
 * whether it is new, moved by a recompute, or the analyst's (README "Meters and readings").
 *
 * Derived values are written into the document (not computed live at display): what is sent to the
 * service is then exactly what the analyst saw, history and undo hold it like any edit, and its
 * `meter_derived` record says how it was made. A recompute (after readings change) writes `fill`
 * and `update` cells at once; `typed` cells wait for "Apply meter figures" after old -> new;
 * `override` cells are never replaced.
 */

/** A new year row is made for a year only when some meter's readings cover this many of its days. */
const NEW_YEAR_MIN_DAYS = 28;

const round = (value: number): number => Math.round(value * 1000) / 1000;

function annualRow(doc: AssetDoc | null, year: number): Record<string, unknown> | undefined {
  const list = doc?.['annual_data'];
  if (!Array.isArray(list)) return undefined;
  return list.find(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>)['year'] === year,
  );
}

/** The reporting years a reading's days fall in (fiscal years end in `month`). */
function yearsOf(reading: Pick<Reading, 'start' | 'end'>, month: number): number[] {
  const yearOf = (iso: string): number => {
    const y = Number(iso.slice(0, 4));
    const m = Number(iso.slice(5, 7));
    return m > month ? y + 1 : y;
  };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(reading.start) || !/^\d{4}-\d{2}-\d{2}$/.test(reading.end)) return [];
  const from = yearOf(reading.start);
  const to = yearOf(reading.end);
  const out: number[] = [];
  for (let y = from; y <= to && y - from < 50; y++) out.push(y);
  return out;
}

function sameValue(a: Scalar | undefined, b: number | string): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  return a === b;
}

function stateOf(
  current: Scalar | undefined,
  derived: number | string,
  record: DerivedRecord | undefined,
): FigureState {
  if (current === undefined || current === null || current === '') return 'fill';
  if (sameValue(current, derived)) return 'same';
  // A figure held back before meters ever wrote the cell: the cell is not theirs.
  if (record && !record.heldBack?.unwritten) return sameValue(current, record.value) ? 'update' : 'override';
  return 'typed';
}

export interface AssetMeters {
  localId: string;
  doc: AssetDoc | null;
  meters: readonly Meter[];
  readings: readonly Reading[];
}

/**
 * The derived cells of one asset, for `years` (default: every year its readings touch). `month`:
 * the entity's `reporting_period_month` (12: calendar years).
 */
export function figuresOf(
  asset: AssetMeters,
  derived: ReadonlyMap<string, DerivedRecord>,
  month: number,
  years?: Iterable<number>,
  /** The years the assessment takes: a year the asset has no row for is created only inside them. */
  accepted?: { min: number; max: number },
): FiguresPreview {
  const wanted = new Set<number>(years ?? []);
  if (years === undefined) for (const r of asset.readings) for (const y of yearsOf(r, month)) wanted.add(y);
  const cells: FigureCell[] = [];
  const warnings: FiguresPreview['warnings'] = [];
  const holds = heldBackCells(asset.meters, asset.readings, month);
  for (const year of [...wanted].sort((a, b) => a - b)) {
    const period = reportingPeriod(year, { reporting_period_month: month });
    const result = rollup(asset.meters, asset.readings, period);
    const row = annualRow(asset.doc, year);
    if (!row) {
      if (accepted && (year < accepted.min || year > accepted.max)) continue;
      const covered = result.meters.some(
        (m) =>
          m.readingsInPeriod > 0 &&
          dayNumber(period.to) - dayNumber(period.from) + 1 - m.daysNotCovered >= NEW_YEAR_MIN_DAYS,
      );
      if (!covered) continue;
    }
    for (const [field, raw] of Object.entries(result.fields)) {
      const value = typeof raw === 'number' ? round(raw) : raw;
      const record = derived.get(derivedId(asset.localId, year, field));
      const current = row?.[field] as Scalar | undefined;
      const explanation = result.explanations[field];
      cells.push({
        localId: asset.localId,
        year,
        field,
        current: current ?? null,
        derived: value,
        state: stateOf(current, value, record),
        text: explanation?.text ?? '',
        meters: metersOf(asset.meters, field, result),
        readings: explanation?.readings ?? 0,
        estimatedShare: explanation?.estimatedShare ?? null,
        heldBack: holds.get(heldBackKey(year, field)) ?? null,
      });
    }
    for (const topic of Object.values(result.topics)) {
      if (topic?.warning) warnings.push({ localId: asset.localId, year, message: topic.warning });
    }
  }
  return { cells, warnings };
}

/** The meters that fed a field (by the roll-up's own field of each meter with readings in the period). */
function metersOf(meters: readonly Meter[], field: string, result: ReturnType<typeof rollup>): string[] {
  const withReadings = new Set(result.meters.filter((m) => m.readingsInPeriod > 0).map((m) => m.meterId));
  const topicField = /^(en|wat|was)_data_(from|to)$/.exec(field);
  return meters
    .filter((m) => withReadings.has(m.id))
    .filter((m) => {
      if (topicField) {
        const prefix = topicField[1];
        const topic = m.utility === 'water' ? 'wat' : m.utility.startsWith('waste') ? 'was' : 'en';
        return topic === prefix;
      }
      return result.explanations[field] !== undefined && fieldOfMeter(m).includes(field);
    })
    .map((m) => m.id);
}

function fieldOfMeter(meter: Meter): string[] {
  const target = targetFields(meter.utility, meter.space);
  return target ? [target.abs, ...(target.cov ? [target.cov] : [])] : [];
}

/**
 * The cell edits and `meter_derived` changes that write `cells` (those whose state is in `states`)
 * into the assets' copies: one undo step with the meters' change when the caller's step holds both.
 */
export function figureWrites(
  cells: readonly FigureCell[],
  derived: ReadonlyMap<string, DerivedRecord>,
  states: ReadonlySet<FigureState>,
): { edits: Edit[]; records: MeterDocChange[] } {
  const edits: Edit[] = [];
  const records: MeterDocChange[] = [];
  for (const cell of cells) {
    const id = derivedId(cell.localId, cell.year, cell.field);
    if (cell.heldBack) {
      const record = heldRecord(cell, derived.get(id));
      if (record) records.push(record);
      continue;
    }
    if (!states.has(cell.state)) continue;
    const after = derivedRecordOf(cell);
    if (cell.state !== 'same')
      edits.push({
        localId: cell.localId,
        path: `annual_data/${cell.year}/${cell.field}`,
        value: cell.derived,
      });
    const before = derived.get(id) ?? null;
    if (before && JSON.stringify(before) === JSON.stringify(after)) continue;
    records.push({ kind: 'derived', id, assetId: cell.localId, before, after });
  }
  return { edits, records };
}

/** What the meters made of a cell, as its record keeps it. */
function derivedRecordOf(cell: FigureCell): DerivedRecord {
  return {
    localId: cell.localId,
    year: cell.year,
    field: cell.field,
    value: cell.derived,
    meters: cell.meters,
    readings: cell.readings,
    text: cell.text,
    estimatedShare: cell.estimatedShare,
  };
}

/**
 * A held-back cell's record: the cell is not written; its record says why, keeping what meters last
 * wrote there (or, when they never did, the held figure marked `unwritten`). An override is left be.
 */
function heldRecord(cell: FigureCell, before: DerivedRecord | undefined): MeterDocChange | null {
  if (!cell.heldBack || cell.state === 'override') return null;
  const id = derivedId(cell.localId, cell.year, cell.field);
  const kept = before && !before.heldBack?.unwritten;
  const after: DerivedRecord = kept
    ? { ...before, heldBack: { reason: cell.heldBack, unwritten: false } }
    : { ...derivedRecordOf(cell), heldBack: { reason: cell.heldBack, unwritten: true } };
  if (before && JSON.stringify(before) === JSON.stringify(after)) return null;
  return { kind: 'derived', id, assetId: cell.localId, before: before ?? null, after };
}

/** Reporting years a set of readings touch, for the recompute after they change. */
export function touchedYears(readings: Iterable<Pick<Reading, 'start' | 'end'>>, month: number): Set<number> {
  const out = new Set<number>();
  for (const r of readings) for (const y of yearsOf(r, month)) out.add(y);
  return out;
}

/** Reads one asset's meters and readings from the store, for `figuresOf`. */
export function assetMeters(store: MeterStore, localId: string, doc: AssetDoc | null): AssetMeters {
  const meters = store.meters(localId);
  return { localId, doc, meters, readings: store.readingsOf(meters.map((m) => m.id)) };
}
