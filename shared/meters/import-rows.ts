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
import { isoOf, localPattern, own, parseQuantity, shared } from './import-values';
import { cellsRecords, CellsRecord, type HeldRow } from './import-records';
import type { ImportRecord, ImportRecords } from './import-records';

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
  /** About how many rows the file has (a large file's size over its first row's), to make room once. */
  rowsGuess?: number;
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
export function readingsRows(
  rows: Iterable<readonly string[]>,
  options: ImportOptions,
): Generator<void, ReadingsImport> {
  return readingsRecords(cellsRecords(rows), options);
}

/** `readingsRows` over records (import-records.ts: rows of strings, or a large CSV's bytes). */
export function* readingsRecords(
  records: ImportRecords,
  options: ImportOptions,
): Generator<void, ReadingsImport> {
  const { file } = options;
  const { header, record } = records;
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
  let waiting: HeldRow[] | null = null;
  let order: DateOrder | null = options.dateOrder ?? null;
  const meters = new Map<string, ImportedMeter>();
  let rowErrors: ImportIssue[] = [];
  // The cells of a meter's attributes (those a row repeats for its meter) and the last row's reading of them.
  const attributeIndexes = meterAttributeColumns
    .map((column) => mapping[column])
    .filter((index): index is number => index !== null);
  // The row's own columns (all but estimated are there: checked above).
  const startIndex = mapping.start_date as number;
  const endIndex = mapping.end_date as number;
  const quantityIndex = mapping.quantity as number;
  const estimatedIndex = mapping.estimated;
  // The last read row's meter (its key, unit and file as the readings' text numbers).
  let last: { key: number; unit: number; file: number } | null = null;
  // Cells past the last mapped column are never read (their record is scanned for its end only).
  const read = 1 + Math.max(...Object.values(mapping).map((index) => index ?? -1));
  records.readFirst(read);
  result.readings.reserve(options.rowsGuess ?? 0);
  let row = 1;
  // The rows in runs of 4,096 between steps, each run read by a plain function: a generator's own
  // loop is not optimised while it runs (no on-stack replacement), a function called again is.
  while (readRows(4096)) yield;
  const held = waiting as HeldRow[] | null; // (set by readRows, unseen by the compiler's narrowing)
  if (held) {
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
    const one = new CellsRecord();
    for (const [k, waited] of held.entries()) {
      if ((k & 4095) === 4095) yield;
      one.set(waited.cells);
      readRow(waited.row, one, one.isoDate(startIndex), one.isoDate(endIndex));
    }
  }
  result.meters = [...meters.values()];
  return result;

  // Helpers made once per file, not once per row (a million rows made millions of closures).
  /** Reads up to `count` rows; false once the file is read. */
  function readRows(count: number): boolean {
    for (let n = 0; n < count; n++) {
      if (!records.next()) return false;
      row++;
      if (record.blank()) continue;
      // Each date read once: a plain YYYY-MM-DD as its text's number (-1: not that), else its text
      // (ISO: its text; undefined: not ISO, perhaps day/month).
      const startKey = record.dayKey(startIndex);
      const endKey = record.dayKey(endIndex);
      const startId = startKey < 0 ? -1 : result.readings.dayId(startKey);
      const endId = endKey < 0 ? -1 : result.readings.dayId(endKey);
      const start = startId >= 0 ? '' : record.isoDate(startIndex);
      const end = endId >= 0 ? '' : record.isoDate(endIndex);
      if (!order && (start === undefined || end === undefined))
        for (const index of [startIndex, endIndex]) {
          const m = localPattern.exec(record.text(index));
          if (!m) continue;
          waiting ??= [];
          if (Number(m[1]) > 12) dayFirst = true;
          if (Number(m[2]) > 12) monthFirst = true;
        }
      if (waiting) waiting.push({ row, cells: record.cells(read) });
      else readRow(row, record, start, end, startId, endId);
    }
    return true;
  }
  function get(cells: ImportRecord, column: ImportColumn): string {
    const index = mapping[column];
    return index === null ? '' : cells.text(index);
  }
  function fail(r: number, column: ImportColumn, message: string): void {
    rowErrors.push({ file, row: r, column: headerName(column), message });
  }
  /** A date cell as its record read it (`iso`), else in the file's day/month order. */
  function date(
    r: number,
    cells: ImportRecord,
    column: 'start_date' | 'end_date',
    iso: string | null | undefined,
  ): string {
    if (typeof iso === 'string') return iso;
    const text = get(cells, column);
    const local = iso === undefined ? localPattern.exec(text) : null;
    let value: string | null = null;
    if (local && order) {
      const [a, b] = [Number(local[1]), Number(local[2])];
      value = order === 'dmy' ? isoOf(Number(local[3]), b, a) : isoOf(Number(local[3]), a, b);
    }
    if (value === null) fail(r, column, text === '' ? 'No date.' : `"${text}" is not a date (YYYY-MM-DD).`);
    return value ?? '';
  }
  /** The row's quantity, read on every row (as its dates and flag); errors go to rowErrors. */
  function readQuantity(r: number, cells: ImportRecord): number | null {
    const quantity = cells.quantity(quantityIndex);
    if (typeof quantity === 'number') return quantity;
    const text = get(cells, 'quantity');
    const ambiguous = `"${text}" could be thousands or a decimal comma; write it without the separator.`;
    const other = text === '' ? 'No quantity.' : `"${text}" is not a number.`;
    fail(r, 'quantity', quantity === 'ambiguous' ? ambiguous : other);
    return null;
  }
  function readEstimated(r: number, cells: ImportRecord): boolean | null {
    // No column: every reading is actual (as an empty cell says).
    const estimated = estimatedIndex === null ? false : cells.estimated(estimatedIndex);
    if (estimated === null) fail(r, 'estimated', `"${get(cells, 'estimated')}" is not yes or no.`);
    return estimated;
  }
  function readRow(
    r: number,
    cells: ImportRecord,
    startIso: string | null | undefined,
    endIso: string | null | undefined,
    // The dates' text numbers when read from their digits (then the texts above are not), else -1.
    startId = -1,
    endId = -1,
  ): void {
    // Made anew only once a row's errors were taken: a million good rows make no array.
    if (rowErrors.length > 0) rowErrors = [];
    // A meter's attributes repeat on each of its rows: a row repeating the last read row's takes its
    // meter as read and checked then (same texts, same outcome), and reads only its own values.
    // Nothing is made per row on this way (no object, no string): its values go into the columns.
    if (last !== null && cells.sameAsKept(attributeIndexes)) {
      const readings = result.readings;
      const start = startId >= 0 ? startId : readings.textId(date(r, cells, 'start_date', startIso));
      const end = endId >= 0 ? endId : readings.textId(date(r, cells, 'end_date', endIso));
      const quantity = readQuantity(r, cells);
      const estimated = readEstimated(r, cells);
      if (rowErrors.length > 0 || quantity === null) errors.push(...rowErrors);
      else {
        readings.addByIds(last.key, start, end, quantity, last.unit, estimated === true, last.file, r);
      }
      return;
    }
    const start = startId >= 0 ? result.readings.textOf(startId) : date(r, cells, 'start_date', startIso);
    const end = endId >= 0 ? result.readings.textOf(endId) : date(r, cells, 'end_date', endIso);
    const quantity = readQuantity(r, cells);
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
    if (rowErrors.length > 0 || !utility || !space || quantity === null) {
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
    result.readings.add(known.key, start, end, quantity, shared(unit), estimated === true, file, r);
    cells.keep(attributeIndexes);
    const readings = result.readings;
    last = { key: readings.textId(known.key), unit: readings.textId(unit), file: readings.textId(file) };
  }
}

/** The file's answer when its date order is unknown: only that question, nothing read. */
function dateOrderOnly(result: ReadingsImport, issue: ImportIssue): ReadingsImport {
  return { ...result, meters: [], readings: new ImportedReadings(), errors: [issue] };
}
