import { annualFieldByName, assetFieldByName } from '../domain';
import type { Scalar } from '../sync/asset-doc';
import type { ColumnSource } from './layout';

/**
 * Typed cells, both ways. The field catalog decides what a column holds; a cell that does not fit
 * is rejected with a reason the analyst can act on, never guessed at.
 */
export type CellType = 'number' | 'integer' | 'boolean' | 'date' | 'code' | 'string';

export interface ColumnSpec {
  type: CellType;
  /** Allowed values of a coded field; matched case-insensitively and returned in canonical case. */
  codes?: readonly string[];
}

const nestedSpecs: Record<'certifications' | 'energy_ratings', Record<string, ColumnSpec>> = {
  certifications: {
    id: { type: 'integer' },
    certification_id: { type: 'integer' },
    level: { type: 'string' },
    size: { type: 'number' },
    year: { type: 'integer' },
  },
  energy_ratings: {
    id: { type: 'integer' },
    energy_rating_id: { type: 'integer' },
    level: { type: 'string' },
    size: { type: 'number' },
  },
};

/** The spec of a column, or undefined when the variable name is not one the app knows. */
export function columnSpec(source: ColumnSource): ColumnSpec | undefined {
  switch (source.kind) {
    case 'asset': {
      const def = assetFieldByName.get(source.field);
      return def ? { type: def.type } : undefined;
    }
    case 'annual': {
      const def = annualFieldByName.get(source.field);
      if (!def) return undefined;
      return def.codes ? { type: def.type, codes: def.codes } : { type: def.type };
    }
    case 'certifications':
    case 'energy_ratings':
      return nestedSpecs[source.kind][source.field];
  }
}

// --- writing

/** Text that a spreadsheet would run as a formula (or DDE) if it were typed in (OWASP CSV injection). */
export const formulaTrigger = /^[=+\-@\t\r]/;

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** What a cell holds when written: dates become real dates, the rest keeps its JS type. */
export function toCellValue(
  value: unknown,
  spec: ColumnSpec | undefined,
): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (spec?.type === 'date' && typeof value === 'string') {
    const d = isoToDate(value);
    if (d) return d;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}

function isoToDate(text: string): Date | undefined {
  const m = isoDate.exec(text);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text ? d : undefined;
}

/** Days from 1970-01-01 to 1899-12-30, the day before Excel's serial 1. */
const EXCEL_EPOCH_DAYS = 25_569;

/**
 * The Excel serial of a `YYYY-MM-DD` text of a real calendar day from 1900 to 9999: what
 * `toCellValue` makes of it, read from its characters with no regular expression and no `Date`
 * (the workbook writer meets a date in a tenth of a book's cells: issue 33). -1 for any other
 * text, which is left to `toCellValue`.
 */
export function isoDateSerial(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return -1;
  let y = 0;
  for (let i = 0; i < 4; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    y = y * 10 + d;
  }
  const m1 = text.charCodeAt(5) - 48;
  const m2 = text.charCodeAt(6) - 48;
  const d1 = text.charCodeAt(8) - 48;
  const d2 = text.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return -1;
  const m = m1 * 10 + m2;
  const d = d1 * 10 + d2;
  if (y < 1900 || m < 1 || m > 12 || d < 1) return -1;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const monthDays = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  if (d > monthDays) return -1;
  // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil), all whole numbers.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468 + EXCEL_EPOCH_DAYS;
}

// --- reading

export type Coerced = { ok: true; value: Scalar } | { ok: false; reason: string };

/** A raw cell value as a reader hands it over, before coercion. */
export type RawCell = string | number | boolean | Date | null;

const ok = (value: Scalar): Coerced => ({ ok: true, value });
const no = (reason: string): Coerced => ({ ok: false, reason });

const plainNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const thousands = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const europeanThousands = /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/;
const decimalComma = /^[+-]?\d+,\d+$/;

function show(raw: RawCell): string {
  if (raw instanceof Date) return raw.toISOString().slice(0, 10);
  const text = String(raw);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export function parseNumberText(text: string): Coerced {
  const t = text.trim().replace(/\u00a0/g, '');
  if (plainNumber.test(t)) return ok(Number(t));
  if (thousands.test(t)) return ok(Number(t.replace(/,/g, '')));
  if (europeanThousands.test(t) || decimalComma.test(t)) {
    return no(
      `"${t}" is ambiguous: write numbers with a point as the decimal separator (and commas, if any, between thousands), e.g. 1234.5`,
    );
  }
  return no(`"${show(t)}" is not a number`);
}

function coerceNumber(raw: RawCell, integer: boolean): Coerced {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string') {
    const parsed = parseNumberText(raw);
    if (!parsed.ok) return parsed;
    n = parsed.value as number;
  } else if (typeof raw === 'boolean') return no(`${raw ? 'TRUE' : 'FALSE'} is not a number`);
  else if (raw instanceof Date) return no(`the date ${show(raw)} is not a number`);
  else return ok(null);
  if (!Number.isFinite(n)) return no(`"${show(raw)}" is not a finite number`);
  if (integer && !Number.isInteger(n)) return no(`${n} is not a whole number`);
  return ok(n);
}

const trueWords = new Set(['true', 'yes', '1', 'y']);
const falseWords = new Set(['false', 'no', '0', 'n']);

/**
 * Booleans: TRUE/FALSE cells, or the words true/false, yes/no, 1/0. An empty cell is "no value" here,
 * not false as the service's own importer reads it: an analyst who has not answered yet must not be
 * sent as having answered "no" (the rules then ask for the value instead of accepting a silent false).
 */
function coerceBoolean(raw: RawCell): Coerced {
  if (typeof raw === 'boolean') return ok(raw);
  if (typeof raw === 'number') {
    if (raw === 1) return ok(true);
    if (raw === 0) return ok(false);
    return no(`${raw} is not TRUE or FALSE`);
  }
  if (typeof raw === 'string') {
    const t = raw.trim().toLowerCase();
    if (trueWords.has(t)) return ok(true);
    if (falseWords.has(t)) return ok(false);
    return no(`"${show(raw)}" is not TRUE or FALSE (yes/no and 1/0 are accepted too)`);
  }
  if (raw instanceof Date) return no(`the date ${show(raw)} is not TRUE or FALSE`);
  return ok(null);
}

const MS_PER_DAY = 86_400_000;

/** Excel's 1900 serials (with its phantom 29 Feb 1900) or 1904 serials, to a UTC date. */
export function excelSerialToIso(serial: number, date1904 = false): string | undefined {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return undefined;
  const days = Math.floor(serial);
  const offset = date1904 ? 24107 : days < 60 ? 25568 : 25569;
  const epochDay = days - offset;
  let iso = isoByEpochDay.get(epochDay);
  if (iso === undefined) {
    iso = new Date(epochDay * MS_PER_DAY).toISOString().slice(0, 10);
    // A workbook's dates repeat (periods, ownership dates): each is formatted once.
    if (isoByEpochDay.size < 100_000) isoByEpochDay.set(epochDay, iso);
  }
  return iso;
}
const isoByEpochDay = new Map<number, string>();

function validYmd(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
}

const isoLike =
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const dayFirstDots = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Text dates: ISO (with or without a time), D.M.YYYY, and D/M/YYYY or M/D/YYYY only when the order
 * is unambiguous (one part above 12); 03/04/2024 is refused rather than read in the wrong locale.
 */
export function parseDateText(text: string): Coerced {
  const t = text.trim();
  let m = isoLike.exec(t);
  if (m) {
    const iso = validYmd(Number(m[1]), Number(m[2]), Number(m[3]));
    return iso ? ok(iso) : no(`"${t}" is not a calendar date`);
  }
  m = dayFirstDots.exec(t);
  if (m) {
    const iso = validYmd(Number(m[3]), Number(m[2]), Number(m[1]));
    return iso ? ok(iso) : no(`"${t}" is not a calendar date`);
  }
  m = slashed.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = Number(m[3]);
    if (a > 12 && b <= 12) return dateOr(validYmd(y, b, a), t);
    if (b > 12 && a <= 12) return dateOr(validYmd(y, a, b), t);
    if (a === b) return dateOr(validYmd(y, a, b), t);
    return no(`"${t}" is ambiguous (day/month or month/day?): write the date as YYYY-MM-DD`);
  }
  return no(`"${show(t)}" is not a date: write it as YYYY-MM-DD`);
}

const dateOr = (iso: string | undefined, t: string): Coerced =>
  iso ? ok(iso) : no(`"${t}" is not a calendar date`);

function coerceDate(raw: RawCell, date1904: boolean): Coerced {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return no('the cell holds an invalid date');
    // Readers give Excel dates as UTC midnight; a time of day on a date field is dropped.
    return ok(raw.toISOString().slice(0, 10));
  }
  if (typeof raw === 'number') {
    const iso = excelSerialToIso(raw, date1904);
    return iso ? ok(iso) : no(`${raw} is not a date`);
  }
  if (typeof raw === 'string') {
    // A serial typed as text ("45292") is a date that lost its format on the way, not a year.
    if (/^\d{5}$/.test(raw.trim())) {
      const iso = excelSerialToIso(Number(raw.trim()), date1904);
      if (iso) return ok(iso);
    }
    return parseDateText(raw);
  }
  if (typeof raw === 'boolean') return no(`${raw ? 'TRUE' : 'FALSE'} is not a date`);
  return ok(null);
}

function coerceText(raw: RawCell, spec: ColumnSpec): Coerced {
  let text: string;
  if (typeof raw === 'string') text = raw.trim();
  else if (typeof raw === 'number') text = String(raw);
  else if (typeof raw === 'boolean') return no(`${raw ? 'TRUE' : 'FALSE'} is not text`);
  else if (raw instanceof Date) return no(`the date ${show(raw)} is not text`);
  else return ok(null);
  if (text === '') return ok(null);
  if (spec.type === 'code' && spec.codes) {
    const hit = spec.codes.find((c) => c.toLowerCase() === text.toLowerCase());
    if (!hit) return no(`"${show(text)}" is not one of ${spec.codes.join(', ')}`);
    return ok(hit);
  }
  if (text.length > 255) return no(`the text is ${text.length} characters long; at most 255 are allowed`);
  return ok(text);
}

/** Converts one raw cell to the column's type. Empty cells (and whitespace) are `null`. */
export function coerceCell(raw: RawCell, spec: ColumnSpec, opts: { date1904?: boolean } = {}): Coerced {
  if (raw === null || (typeof raw === 'string' && raw.trim() === '')) return ok(null);
  switch (spec.type) {
    case 'number':
      return coerceNumber(raw, false);
    case 'integer':
      return coerceNumber(raw, true);
    case 'boolean':
      return coerceBoolean(raw);
    case 'date':
      return coerceDate(raw, opts.date1904 ?? false);
    case 'code':
    case 'string':
      return coerceText(raw, spec);
  }
}

// --- schemes

/** The certification and energy-rating schemes a workbook names (the service's lists, by id). */
export interface SchemeLists {
  certifications: readonly { id: number; name: string }[];
  energy_ratings: readonly { id: number; name: string }[];
}

const schemeLabel: Record<keyof SchemeLists, string> = {
  certifications: 'certification',
  energy_ratings: 'energy rating',
};

/** The list a column names its scheme from: a certification's or a rating's scheme id column. */
export function schemeListOf(source: ColumnSource): keyof SchemeLists | undefined {
  if (source.kind === 'certifications' && source.field === 'certification_id') return 'certifications';
  if (source.kind === 'energy_ratings' && source.field === 'energy_rating_id') return 'energy_ratings';
  return undefined;
}

/**
 * Reads a scheme cell: its name (any case) as the scheme's id; an id (a number, as older exports
 * wrote it) as itself. A name the list does not hold, or holds twice, is refused with the reason.
 */
export function coerceScheme(raw: RawCell, list: keyof SchemeLists, schemes: SchemeLists): Coerced {
  if (typeof raw !== 'string' || /^\s*\d+(\.0+)?\s*$/.test(raw)) return coerceNumber(raw, true);
  const text = raw.trim();
  if (text === '') return ok(null);
  const wanted = text.toLowerCase();
  const found = schemes[list].filter((s) => s.name.trim().toLowerCase() === wanted);
  const what = schemeLabel[list];
  if (found.length === 1) return ok(found[0]!.id);
  if (found.length > 1)
    return {
      ok: false,
      reason: `Several ${what} schemes are named "${text}" (ids ${found.map((s) => s.id).join(', ')}): put the id of the one you mean`,
    };
  return {
    ok: false,
    reason: `"${text}" is not a ${what} scheme: pick one from the column's list (the Lists tab names them all)`,
  };
}
