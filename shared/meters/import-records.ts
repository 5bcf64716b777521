/**
 * A readings file's record as the row reader (import-rows.ts) reads it: by column, each value read
 * the same way whether the record is a row of strings (an XLSX's rows, a small CSV's text) or the
 * bytes of a large CSV (`BytesRecord`), where a cell is made a string only when it must be: a row
 * repeating its meter's attributes has them compared as bytes, and its dates, quantity and flag
 * read from its bytes, so 1.44 M readings make a few strings per meter, not one per cell.
 */
import { DelimitedBytes } from '../text/delimited-bytes';
import { isoDate, isoOf, own, parseEstimated, parseQuantity } from './import-values';

export interface ImportRecord {
  /** The cell's text, trimmed ('' past the record's end). */
  text(index: number): string;
  /** Whether every cell of the record is blank. */
  blank(): boolean;
  /** The cell as an ISO date: its text (shared), null if not a day, undefined if not ISO at all. */
  isoDate(index: number): string | null | undefined;
  /**
   * The cell as a plain YYYY-MM-DD read from its digits, packed as y * 10,000 + m * 100 + d (not
   * checked as a day: `ImportedReadings.dayId` does); -1 when it is not one (read it by `isoDate`).
   */
  dayKey(index: number): number;
  quantity(index: number): number | 'ambiguous' | null;
  estimated(index: number): boolean | null;
  /** Whether the cells at `indexes` are, as written, those of the record last `keep`-ed. */
  sameAsKept(indexes: readonly number[]): boolean;
  /** Remembers this record's cells at `indexes` (see `sameAsKept`). */
  keep(indexes: readonly number[]): void;
  /** The record's first `count` cells, as written, to be read later (`CellsRecord`). */
  cells(count: number): string[];
}

/** A record held as its cells (import-rows.ts holds rows until the file tells its day/month order). */
export interface HeldRow {
  row: number;
  cells: string[];
}

/** The records of a readings file: its header, then one record at a time in `record`. */
export interface ImportRecords {
  readonly header: readonly string[];
  readonly record: ImportRecord;
  /** Only the first `count` cells of each later record are read. */
  readFirst(count: number): void;
  next(): boolean;
}

/** A record that is a row of strings. */
export class CellsRecord implements ImportRecord {
  private row: readonly string[] = [];
  private kept: string[] = [];

  set(row: readonly string[]): this {
    this.row = row;
    return this;
  }
  text(index: number): string {
    return (this.row[index] ?? '').trim();
  }
  blank(): boolean {
    return this.row.every((c) => c.trim() === '');
  }
  isoDate(index: number): string | null | undefined {
    return isoDate(this.text(index));
  }
  dayKey(): number {
    return -1;
  }
  quantity(index: number): number | 'ambiguous' | null {
    return parseQuantity(this.text(index));
  }
  estimated(index: number): boolean | null {
    return parseEstimated(this.text(index));
  }
  sameAsKept(indexes: readonly number[]): boolean {
    if (this.kept.length !== indexes.length) return false;
    for (let k = 0; k < indexes.length; k++)
      if ((this.row[indexes[k] as number] ?? '') !== this.kept[k]) return false;
    return true;
  }
  keep(indexes: readonly number[]): void {
    this.kept = indexes.map((i) => own(this.row[i] ?? ''));
  }
  cells(count: number): string[] {
    return this.row.slice(0, count);
  }
}

/** Rows of strings (an XLSX's, or a text's records) as records. */
export function cellsRecords(rows: Iterable<readonly string[]>): ImportRecords {
  const iterator = rows[Symbol.iterator]();
  const first = iterator.next();
  const record = new CellsRecord();
  return {
    header: first.done ? [] : first.value,
    record,
    readFirst: () => {},
    next: () => {
      const next = iterator.next();
      if (next.done) return false;
      record.set(next.value);
      return true;
    },
  };
}

const SPACE = 0x20;
const TAB = 0x09;

/** A record of CSV bytes, its cells read from the bytes where they take the common form. */
export class BytesRecord implements ImportRecord {
  private readonly bytes: Uint8Array;
  private keptStarts = new Int32Array(0);
  private keptEnds = new Int32Array(0);
  private hasKept = false;
  /** Where the kept record starts. */
  private keptAt = -1;

  constructor(private readonly reader: DelimitedBytes) {
    this.bytes = reader.bytes;
  }

  text(index: number): string {
    return this.reader.text(index).trim();
  }

  blank(): boolean {
    const r = this.reader;
    const b = this.bytes;
    for (let k = 0; k < r.held; k++)
      for (let i = r.start(k); i < r.end(k); i++) {
        const c = b[i] as number;
        if (c === SPACE || c === TAB) continue;
        if (c > SPACE && c < 0x7f && c !== 0x22) return false;
        return this.allBlank();
      }
    return r.fields > r.held ? this.allBlank() : true;
  }

  isoDate(index: number): string | null | undefined {
    const key = this.dayKey(index);
    if (key >= 0) return dayText(Math.floor(key / 10_000), Math.floor(key / 100) % 100, key % 100);
    return isoDate(this.text(index));
  }

  dayKey(index: number): number {
    const r = this.reader;
    if (index >= r.held || r.isQuoted(index)) return -1;
    const b = this.bytes;
    let from = r.start(index);
    let to = r.end(index);
    while (from < to && (b[from] === SPACE || b[from] === TAB)) from++;
    while (to > from && (b[to - 1] === SPACE || b[to - 1] === TAB)) to--;
    // YYYY-MM-DD, the form nearly every file uses, read as digits.
    if (to - from !== 10 || b[from + 4] !== 0x2d || b[from + 7] !== 0x2d) return -1;
    const y = digits(b, from, 4);
    const m = digits(b, from + 5, 2);
    const d = digits(b, from + 8, 2);
    return y >= 0 && m >= 0 && d >= 0 ? y * 10_000 + m * 100 + d : -1;
  }

  quantity(index: number): number | 'ambiguous' | null {
    const r = this.reader;
    if (index < r.held && !r.isQuoted(index)) {
      const b = this.bytes;
      let from = r.start(index);
      let to = r.end(index);
      while (from < to && (b[from] === SPACE || b[from] === TAB)) from++;
      while (to > from && (b[to - 1] === SPACE || b[to - 1] === TAB)) to--;
      const value = plainNumber(b, from, to);
      if (value !== null) return value;
    }
    return parseQuantity(this.text(index));
  }

  estimated(index: number): boolean | null {
    const r = this.reader;
    if (index < r.held && !r.isQuoted(index)) {
      const b = this.bytes;
      const from = r.start(index);
      const length = r.end(index) - from;
      // "yes" and "no", as written by our export and most files; anything else by its text.
      if (length === 2 && b[from] === 0x6e && b[from + 1] === 0x6f) return false;
      if (length === 3 && b[from] === 0x79 && b[from + 1] === 0x65 && b[from + 2] === 0x73) return true;
    }
    return parseEstimated(this.text(index));
  }

  sameAsKept(indexes: readonly number[]): boolean {
    if (!this.hasKept) return false;
    const r = this.reader;
    const b = this.bytes;
    // Kept from the record before: the cells the reader found the same as its are the same.
    const same = this.keptAt === r.previousStart ? r.sameFields : 0;
    for (let k = 0; k < indexes.length; k++) {
      const index = indexes[k] as number;
      if (index < same) continue;
      const from = index < r.held ? r.start(index) : 0;
      const length = index < r.held ? r.end(index) - from : 0;
      const keptFrom = this.keptStarts[k] as number;
      if (length !== (this.keptEnds[k] as number) - keptFrom) return false;
      for (let i = 0; i < length; i++) if (b[from + i] !== b[keptFrom + i]) return false;
    }
    // The same texts: this record stands for the kept one, so the next, if it repeats this one, is
    // known so by the reader's shared prefix. The kept places are not moved: the bytes there equal
    // this record's cell for cell (rewriting them on each of a million rows was a few % of the read).
    this.keptAt = r.recordAt;
    return true;
  }

  keep(indexes: readonly number[]): void {
    const r = this.reader;
    if (this.keptStarts.length !== indexes.length) {
      this.keptStarts = new Int32Array(indexes.length);
      this.keptEnds = new Int32Array(indexes.length);
    }
    const held = r.held;
    for (let k = 0; k < indexes.length; k++) {
      const index = indexes[k] as number;
      // A cell past the record's end is empty: kept as no bytes.
      this.keptStarts[k] = index < held ? r.start(index) : 0;
      this.keptEnds[k] = index < held ? r.end(index) : 0;
    }
    this.hasKept = true;
    this.keptAt = r.recordAt;
  }

  cells(count: number): string[] {
    return Array.from({ length: Math.min(count, this.reader.fields) }, (_, k) => this.reader.text(k));
  }

  private allBlank(): boolean {
    return this.reader.allTexts().every((c) => c.trim() === '');
  }
}

/** CSV bytes as records (`from`: after a BOM). */
export function bytesRecords(bytes: Uint8Array, delimiter: string, from: number): ImportRecords {
  const reader = new DelimitedBytes(bytes, delimiter.charCodeAt(0), from);
  const header = reader.next() ? reader.allTexts() : [];
  const record = new BytesRecord(reader);
  return {
    header,
    record,
    readFirst: (count) => reader.holdFirst(count),
    next: () => reader.next(),
  };
}

/** `count` ASCII digits from `from` as a number; -1 if any is not a digit. */
function digits(b: Uint8Array, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const c = (b[i] as number) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

/** A day's ISO text by its digits, made once per day (a file repeats its bill dates). */
const dayTexts = new Map<number, string | null>();
function dayText(y: number, m: number, d: number): string | null {
  const key = y * 10_000 + m * 100 + d;
  let text = dayTexts.get(key);
  if (text === undefined) {
    text = isoOf(y, m, d);
    if (dayTexts.size > 100_000) dayTexts.clear();
    dayTexts.set(key, text);
  }
  return text;
}

const powers = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * `-?digits(.digits)?` read from its bytes, as Number() reads its text: an integer below 2^53
 * divided by an exact power of ten is the correctly rounded value, as Number() gives. null: any
 * other form (or too many digits), for the text's way.
 */
function plainNumber(b: Uint8Array, from: number, to: number): number | null {
  let i = from;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  if (i >= to || to - from > 20) return null;
  let mantissa = 0;
  let digitCount = 0;
  let point = -1;
  for (; i < to; i++) {
    const c = b[i] as number;
    if (c === 0x2e && point < 0 && digitCount > 0 && i < to - 1) point = digitCount;
    else if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digitCount++;
    } else return null;
  }
  if (digitCount > 15) return null;
  const value = point < 0 ? mantissa : mantissa / (powers[digitCount - point] as number);
  return negative ? -value : value;
}
