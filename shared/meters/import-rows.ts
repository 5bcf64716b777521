/**
 * The flat readings file (CSV or XLSX, one row a reading with its meter's attributes repeated) into
 * meters and readings. Pure: main reads the bytes (with the workbook limits) and hands over the rows;
 * CSV text goes through the project's delimited-text reader. Headers are recognised
 * case-insensitively with common synonyms, and the analyst's corrected mapping wins. Every problem
 * names the file, the row (1 = the header) and the column; a bad row is left out, nothing else.
 */
import { delimitedRecords } from '../text/delimited';
import type { EnergyContent, MeterSpace, MeterUtility } from './types';
import { meterSpaces, meterUtilities } from './types';
import {
  normaliseHeader,
  recogniseHeaders,
  spaceWords,
  utilityWords,
  type ImportColumn,
} from './import-headers';
import { dimensionsFor, parseUnit } from './units';
import { ImportedReadings } from './imported-readings';
import { isoDate, isoOf, localPattern, own, parseEstimated, parseQuantity, shared } from './import-values';

// The header recognition lives in its own module; callers still find it here.
export { importColumns, recogniseHeaders, type ImportColumn } from './import-headers';
import { meterAttributeColumns } from './import-headers';
export { parseQuantity } from './import-values';
export type { ImportedReading } from './imported-readings';

export type DateOrder = 'dmy' | 'mdy';

export interface ImportIssue {
  file: string;
  /** 1-based row of the file; 1 is the header. */
  row: number;
  /** The file's header of the column, or null for the row as a whole. */
  column: string | null;
  message: string;
}

export interface ImportedMeter {
  /** meter_id, or the asset and meter name when the file has no ids. */
  key: string;
  meterId: string | null;
  name: string;
  asset: { partnersId: string | null; name: string | null };
  utility: MeterUtility;
  space: MeterSpace;
  areaServed: number | null;
  unit: string;
  /** A fuel's energy content, from our workbook's Meters tab (a flat file has no column for it). */
  energyContent?: EnergyContent | null;
  row: number;
}

export interface ReadingsImport {
  /** Which column (0-based) each field was read from; null when the file has none. */
  mapping: Record<ImportColumn, number | null>;
  meters: ImportedMeter[];
  readings: ImportedReadings;
  errors: ImportIssue[];
  /** Set when the file's dates are day/month or month/day and nothing in it tells which: ask. */
  needsDateOrder: boolean;
}

export interface ImportOptions {
  file: string;
  /** The analyst's mapping: field -> the file's header text, winning over recognition. */
  mapping?: Partial<Record<ImportColumn, string>>;
  /** The analyst's answer when the file's day/month order is ambiguous. */
  dateOrder?: DateOrder;
}

/** Reads a readings CSV's text (the delimiter decided by the caller from its first line). */
export function parseReadingsCsv(text: string, delimiter: string, options: ImportOptions): ReadingsImport {
  return runSteps(readingsRows(delimitedRecords(text, { delimiter }), options));
}

/** Reads the rows of a readings file, the first being its header. */
export function parseReadingsRows(rows: Iterable<readonly string[]>, options: ImportOptions): ReadingsImport {
  return runSteps(readingsRows(rows, options));
}

/** Runs steps (a generator yielding between pieces of work) to their end, in one go. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * `parseReadingsRows` as steps: it yields every 4,096 rows, so main can answer other calls while a
 * file of a million rows is read (electron/meters/readings-preview.ts runs it in slices).
 */
export function* readingsRows(
  rows: Iterable<readonly string[]>,
  options: ImportOptions,
): Generator<void, ReadingsImport> {
  const { file } = options;
  const iterator = rows[Symbol.iterator]();
  const first = iterator.next();
  const header = first.done ? [] : first.value;
  const mapping = recogniseHeaders(header, options.mapping);
  const errors: ImportIssue[] = [];
  const result: ReadingsImport = {
    mapping,
    meters: [],
    readings: new ImportedReadings(),
    errors,
    needsDateOrder: false,
  };
  const headerName = (column: ImportColumn): string => {
    const index = mapping[column];
    return index === null ? column : (header[index] ?? column).trim() || column;
  };
  const missing = (['start_date', 'end_date', 'quantity', 'utility'] as const).filter(
    (c) => mapping[c] === null,
  );
  if (mapping.meter_id === null && mapping.meter_name === null) missing.push('meter_id' as never);
  if (mapping.asset_partners_id === null && mapping.asset_name === null)
    missing.push('asset_partners_id' as never);
  if (missing.length > 0) {
    errors.push({
      file,
      row: 1,
      column: null,
      message: `No column for ${missing.join(', ')}; map one in the column mapping.`,
    });
    return result;
  }

  // Day/month order is decided by any date that can only be read one way, so rows are read as they
  // come while every date is ISO (nothing held but what is kept); from the first day/month date on
  // (no order given), the rest of the rows wait, in order, until the whole file has told the order.
  let dayFirst = false;
  let monthFirst = false;
  let waiting: { row: number; cells: readonly string[] }[] | null = null;
  let order: DateOrder | null = options.dateOrder ?? null;
  const meters = new Map<string, ImportedMeter>();
  let rowErrors: ImportIssue[] = [];
  // The cells of a meter's attributes (those a row repeats for its meter) and the last row's reading of them.
  const attributeIndexes = meterAttributeColumns
    .map((column) => mapping[column])
    .filter((index): index is number => index !== null);
  let last: { cells: string[]; key: string; unit: string } | null = null;
  let row = 1;
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    row++;
    if ((row & 4095) === 0) yield;
    const cells = next.value;
    if (cells.every((c) => c.trim() === '')) continue;
    if (!order)
      for (const column of ['start_date', 'end_date'] as const) {
        const m = localPattern.exec((cells[mapping[column] as number] ?? '').trim());
        if (!m) continue;
        waiting ??= [];
        if (Number(m[1]) > 12) dayFirst = true;
        if (Number(m[2]) > 12) monthFirst = true;
      }
    if (waiting) waiting.push({ row, cells });
    else readRow(row, cells);
  }
  if (waiting) {
    if (dayFirst && monthFirst) {
      return dateOrderOnly(result, {
        file,
        row: 1,
        column: headerName('start_date'),
        message: 'The dates mix day/month and month/day order; write them as YYYY-MM-DD.',
      });
    }
    if (!dayFirst && !monthFirst) {
      result.needsDateOrder = true;
      return dateOrderOnly(result, {
        file,
        row: 1,
        column: headerName('start_date'),
        message: 'The dates could be day/month or month/day; say which order the file uses.',
      });
    }
    order = dayFirst ? 'dmy' : 'mdy';
    for (const [k, held] of waiting.entries()) {
      if ((k & 4095) === 4095) yield;
      readRow(held.row, held.cells);
    }
  }
  result.meters = [...meters.values()];
  return result;

  // Helpers made once per file, not once per row (a million rows made millions of closures).
  function get(cells: readonly string[], column: ImportColumn): string {
    const index = mapping[column];
    return index === null ? '' : (cells[index] ?? '').trim();
  }
  function fail(r: number, column: ImportColumn, message: string): void {
    rowErrors.push({ file, row: r, column: headerName(column), message });
  }
  function date(r: number, cells: readonly string[], column: 'start_date' | 'end_date'): string {
    const text = get(cells, column);
    const iso = isoDate(text);
    const local = iso === undefined ? localPattern.exec(text) : null;
    let value: string | null = null;
    if (iso !== undefined) value = iso;
    else if (local && order) {
      const [a, b] = [Number(local[1]), Number(local[2])];
      value = order === 'dmy' ? isoOf(Number(local[3]), b, a) : isoOf(Number(local[3]), a, b);
    }
    if (value === null) fail(r, column, text === '' ? 'No date.' : `"${text}" is not a date (YYYY-MM-DD).`);
    return value ?? '';
  }
  /** The row's own values (dates, quantity, estimated), read on every row; errors go to rowErrors. */
  function readingValues(r: number, cells: readonly string[]) {
    const start = date(r, cells, 'start_date');
    const end = date(r, cells, 'end_date');
    const quantityText = get(cells, 'quantity');
    const quantity = parseQuantity(quantityText);
    if (quantity === 'ambiguous')
      fail(
        r,
        'quantity',
        `"${quantityText}" could be thousands or a decimal comma; write it without the separator.`,
      );
    else if (quantity === null)
      fail(r, 'quantity', quantityText === '' ? 'No quantity.' : `"${quantityText}" is not a number.`);
    return { start, end, quantity };
  }
  function readEstimated(r: number, cells: readonly string[]): boolean | null {
    const estimated = parseEstimated(get(cells, 'estimated'));
    if (estimated === null) fail(r, 'estimated', `"${get(cells, 'estimated')}" is not yes or no.`);
    return estimated;
  }
  function pushReading(
    r: number,
    meterKey: string,
    values: { start: string; end: string; quantity: number },
    unit: string,
    estimated: boolean,
  ): void {
    result.readings.push({
      // The meter's own key, unit and dates as shared strings: a million readings hold a few hundred.
      meterKey,
      start: shared(values.start),
      end: shared(values.end),
      quantity: values.quantity,
      unit: shared(unit),
      estimated,
      source: { kind: 'file', file, row: r },
    });
  }
  /** Whether the row's meter attributes are, cell for cell, those of the last row read into a reading. */
  function sameAttributes(cells: readonly string[]): boolean {
    if (last === null) return false;
    for (let k = 0; k < attributeIndexes.length; k++)
      if ((cells[attributeIndexes[k] as number] ?? '') !== last.cells[k]) return false;
    return true;
  }

  function readRow(r: number, cells: readonly string[]): void {
    rowErrors = [];
    // A meter's attributes repeat on each of its rows: a row repeating the last read row's takes its
    // meter as read and checked then (same texts, same outcome), and reads only its own values.
    if (sameAttributes(cells) && last !== null) {
      const values = readingValues(r, cells);
      const estimated = readEstimated(r, cells);
      if (rowErrors.length > 0 || typeof values.quantity !== 'number') errors.push(...rowErrors);
      else
        pushReading(r, last.key, { ...values, quantity: values.quantity }, last.unit, estimated as boolean);
      return;
    }
    const values = readingValues(r, cells);
    const { quantity } = values;
    const unit = get(cells, 'unit');
    const unitDef = unit === '' ? null : parseUnit(unit);
    if (unit === '') fail(r, 'unit', 'No unit.');
    else if (!unitDef) fail(r, 'unit', `Unknown unit "${unit}".`);
    const estimated = readEstimated(r, cells);
    const utilityText = get(cells, 'utility');
    const utility = utilityWords.get(normaliseHeader(utilityText)) ?? null;
    if (!utility) fail(r, 'utility', `"${utilityText}" is not a utility (${meterUtilities.join(', ')}).`);
    else if (unitDef && !dimensionsFor(utility).includes(unitDef.dimension)) {
      fail(
        r,
        'unit',
        `The unit "${unit}" (${unitDef.dimension}) doesn't fit a ${utility.replace(/_/g, ' ')} meter.`,
      );
    }
    const spaceText = get(cells, 'space');
    const waste = utility === 'waste_hazardous' || utility === 'waste_non_hazardous';
    const space: MeterSpace | null =
      spaceText === ''
        ? waste
          ? 'whole_building'
          : null
        : (spaceWords.get(normaliseHeader(spaceText)) ?? null);
    if (!space)
      fail(
        r,
        'space',
        spaceText === '' ? 'No space.' : `"${spaceText}" is not a space (${meterSpaces.join(', ')}).`,
      );
    else if (waste && space !== 'whole_building') fail(r, 'space', 'Waste meters are whole-asset.');
    const areaText = get(cells, 'area_served');
    let area: number | null = null;
    if (areaText !== '') {
      const parsed = parseQuantity(areaText);
      if (typeof parsed !== 'number' || parsed < 0)
        fail(r, 'area_served', `"${areaText}" is not a floor area.`);
      else area = parsed;
    }
    const meterId = get(cells, 'meter_id') || null;
    const name = get(cells, 'meter_name');
    const asset = {
      partnersId: get(cells, 'asset_partners_id') || null,
      name: get(cells, 'asset_name') || null,
    };
    if (!meterId && !name) fail(r, 'meter_id', 'No meter id or name.');
    if (!asset.partnersId && !asset.name)
      fail(r, mapping.asset_partners_id !== null ? 'asset_partners_id' : 'asset_name', 'No asset.');
    if (rowErrors.length > 0 || !utility || !space || typeof quantity !== 'number') {
      errors.push(...rowErrors);
      return;
    }
    const key = meterId ?? `${asset.partnersId ?? asset.name}\u0000${name}`;
    let known = meters.get(key);
    if (!known) {
      // Kept for the whole import: copies, not views into the slice of the file they were read from.
      known = {
        key: own(key),
        meterId: meterId === null ? null : own(meterId),
        name: own(name || (meterId as string)),
        asset: {
          partnersId: asset.partnersId === null ? null : own(asset.partnersId),
          name: asset.name === null ? null : own(asset.name),
        },
        utility,
        space,
        areaServed: area,
        unit: shared(unit),
        row: r,
      };
      meters.set(key, known);
    } else {
      // The meter's attributes are repeated on every row; one that contradicts its first row is an error.
      const clash = (
        [
          ['utility', known.utility !== utility],
          ['space', known.space !== space],
          ['area_served', area !== null && known.areaServed !== area],
          ['asset_partners_id', asset.partnersId !== null && known.asset.partnersId !== asset.partnersId],
        ] as const
      ).find(([, differs]) => differs);
      if (clash) {
        errors.push({
          file,
          row: r,
          column: headerName(clash[0]),
          message: `Differs from the meter's row ${known.row}.`,
        });
        return;
      }
    }
    pushReading(r, known.key, { ...values, quantity }, unit, estimated as boolean);
    last = { cells: attributeIndexes.map((i) => own(cells[i] ?? '')), key: known.key, unit: shared(unit) };
  }
}

/** The file's answer when its date order is unknown: only that question, nothing read. */
function dateOrderOnly(result: ReadingsImport, issue: ImportIssue): ReadingsImport {
  return { ...result, meters: [], readings: new ImportedReadings(), errors: [issue] };
}
