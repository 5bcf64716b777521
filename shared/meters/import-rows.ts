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

// The header recognition lives in its own module; callers still find it here.
export { importColumns, recogniseHeaders, type ImportColumn } from './import-headers';

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

export interface ImportedReading {
  meterKey: string;
  start: string;
  end: string;
  quantity: number;
  unit: string;
  estimated: boolean;
  source: { kind: 'file'; file: string; row: number };
}

export interface ReadingsImport {
  /** Which column (0-based) each field was read from; null when the file has none. */
  mapping: Record<ImportColumn, number | null>;
  meters: ImportedMeter[];
  readings: ImportedReading[];
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

const isoPattern = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const localPattern = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;

function isoOf(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** An ISO date's text read once per distinct text (a file repeats its bill dates); undefined: not ISO. */
const isoDates = new Map<string, string | null>();
function isoDate(text: string): string | null | undefined {
  const hit = isoDates.get(text);
  if (hit !== undefined) return hit;
  const iso = isoPattern.exec(text);
  if (!iso) return undefined;
  const value = isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (isoDates.size > 100_000) isoDates.clear();
  isoDates.set(text, value);
  return value;
}

/** A number as spreadsheets write it; "1,234" alone is refused (thousands or a decimal comma?). */
export function parseQuantity(text: string): number | 'ambiguous' | null {
  const t = text.trim().replace(/\s/g, '');
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (/^-?\d{1,3}(,\d{3})+\.\d+$/.test(t) || /^-?\d{1,3}(,\d{3}){2,}$/.test(t))
    return Number(t.replace(/,/g, ''));
  if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(t)) return Number(t.replace(/\./g, '').replace(',', '.'));
  if (/^-?\d{1,3},\d{3}$/.test(t)) return 'ambiguous';
  if (/^-?\d+,\d+$/.test(t)) return Number(t.replace(',', '.'));
  return null;
}

function parseEstimated(text: string): boolean | null {
  const t = text.trim().toLowerCase();
  if (['', 'no', 'n', 'false', '0', 'a', 'actual'].includes(t)) return false;
  if (['yes', 'y', 'true', '1', 'e', 'est', 'estimated', 'estimate'].includes(t)) return true;
  return null;
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
  const result: ReadingsImport = { mapping, meters: [], readings: [], errors, needsDateOrder: false };
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

  function readRow(r: number, cells: readonly string[]): void {
    const get = (column: ImportColumn): string => {
      const index = mapping[column];
      return index === null ? '' : (cells[index] ?? '').trim();
    };
    const rowErrors: ImportIssue[] = [];
    const fail = (column: ImportColumn, message: string): void => {
      rowErrors.push({ file, row: r, column: headerName(column), message });
    };
    const date = (column: 'start_date' | 'end_date'): string => {
      const text = get(column);
      const iso = isoDate(text);
      const local = iso === undefined ? localPattern.exec(text) : null;
      let value: string | null = null;
      if (iso !== undefined) value = iso;
      else if (local && order) {
        const [a, b] = [Number(local[1]), Number(local[2])];
        value = order === 'dmy' ? isoOf(Number(local[3]), b, a) : isoOf(Number(local[3]), a, b);
      }
      if (value === null) fail(column, text === '' ? 'No date.' : `"${text}" is not a date (YYYY-MM-DD).`);
      return value ?? '';
    };
    const start = date('start_date');
    const end = date('end_date');
    const quantityText = get('quantity');
    const quantity = parseQuantity(quantityText);
    if (quantity === 'ambiguous')
      fail(
        'quantity',
        `"${quantityText}" could be thousands or a decimal comma; write it without the separator.`,
      );
    else if (quantity === null)
      fail('quantity', quantityText === '' ? 'No quantity.' : `"${quantityText}" is not a number.`);
    const unit = get('unit');
    const unitDef = unit === '' ? null : parseUnit(unit);
    if (unit === '') fail('unit', 'No unit.');
    else if (!unitDef) fail('unit', `Unknown unit "${unit}".`);
    const estimated = parseEstimated(get('estimated'));
    if (estimated === null) fail('estimated', `"${get('estimated')}" is not yes or no.`);
    const utilityText = get('utility');
    const utility = utilityWords.get(normaliseHeader(utilityText)) ?? null;
    if (!utility) fail('utility', `"${utilityText}" is not a utility (${meterUtilities.join(', ')}).`);
    else if (unitDef && !dimensionsFor(utility).includes(unitDef.dimension)) {
      fail(
        'unit',
        `The unit "${unit}" (${unitDef.dimension}) doesn't fit a ${utility.replace(/_/g, ' ')} meter.`,
      );
    }
    const spaceText = get('space');
    const waste = utility === 'waste_hazardous' || utility === 'waste_non_hazardous';
    const space: MeterSpace | null =
      spaceText === ''
        ? waste
          ? 'whole_building'
          : null
        : (spaceWords.get(normaliseHeader(spaceText)) ?? null);
    if (!space)
      fail(
        'space',
        spaceText === '' ? 'No space.' : `"${spaceText}" is not a space (${meterSpaces.join(', ')}).`,
      );
    else if (waste && space !== 'whole_building') fail('space', 'Waste meters are whole-asset.');
    const areaText = get('area_served');
    let area: number | null = null;
    if (areaText !== '') {
      const parsed = parseQuantity(areaText);
      if (typeof parsed !== 'number' || parsed < 0) fail('area_served', `"${areaText}" is not a floor area.`);
      else area = parsed;
    }
    const meterId = get('meter_id') || null;
    const name = get('meter_name');
    const asset = { partnersId: get('asset_partners_id') || null, name: get('asset_name') || null };
    if (!meterId && !name) fail('meter_id', 'No meter id or name.');
    if (!asset.partnersId && !asset.name)
      fail(mapping.asset_partners_id !== null ? 'asset_partners_id' : 'asset_name', 'No asset.');
    if (rowErrors.length > 0 || !utility || !space || typeof quantity !== 'number') {
      errors.push(...rowErrors);
      return;
    }
    const key = meterId ?? `${asset.partnersId ?? asset.name}\u0000${name}`;
    const known = meters.get(key);
    if (!known) {
      // Kept for the whole import: copies, not views into the slice of the file they were read from.
      meters.set(key, {
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
      });
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
    result.readings.push({
      // The meter's own key, unit and dates as shared strings: a million readings hold a few hundred.
      meterKey: (known ?? meters.get(key))?.key ?? key,
      start: shared(start),
      end: shared(end),
      quantity,
      unit: shared(unit),
      estimated: estimated as boolean,
      source: { kind: 'file', file, row: r },
    });
  }
}

/**
 * A text of its own: a value read from a large file is a view into the slice of text it came from
 * (V8 keeps substrings of 13 characters or more as views), which would keep that whole megabyte.
 */
function own(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** The file's answer when its date order is unknown: only that question, nothing read. */
function dateOrderOnly(result: ReadingsImport, issue: ImportIssue): ReadingsImport {
  return { ...result, meters: [], readings: [], errors: [issue] };
}

/** One string per distinct short text (dates, units) instead of one per row; bounded. */
const sharedTexts = new Map<string, string>();
function shared(text: string): string {
  const hit = sharedTexts.get(text);
  if (hit !== undefined) return hit;
  if (sharedTexts.size > 100_000) sharedTexts.clear();
  const copy = own(text);
  sharedTexts.set(copy, copy);
  return copy;
}
