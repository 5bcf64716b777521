import { dayNumber } from './dates';
import { isoOf } from './import-values';

/** One reading as the file gave it (its meter by the key its attribute cells make). */
export interface ImportedReading {
  meterKey: string;
  start: string;
  end: string;
  quantity: number;
  unit: string;
  estimated: boolean;
  source: { kind: 'file'; file: string; row: number };
}

/**
 * A file's parsed readings as columns, not one object per reading: 1.44 M readings as objects were
 * ~165 B each (the reading, its source, its boxed quantity), ~240 MB that main's garbage collector
 * walked again and again while the import ran (its pauses were main's slow answers). Here a reading
 * is ~30 B of typed arrays, its texts (meter keys, dates, units: a few thousand distinct) held once.
 * A reading is made as an object only when asked for (`at`).
 */
export class ImportedReadings implements Iterable<ImportedReading> {
  private capacity = 0;
  private count = 0;
  private meterKeys = new Int32Array(0);
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  private units = new Int32Array(0);
  private files = new Int32Array(0);
  private rows = new Int32Array(0);
  private quantities = new Float64Array(0);
  private estimated = new Uint8Array(0);
  private readonly texts: string[] = [];
  private readonly textIndex = new Map<string, number>();

  static from(readings: Iterable<ImportedReading>): ImportedReadings {
    const out = new ImportedReadings();
    for (const r of readings) out.push(r);
    return out;
  }

  get length(): number {
    return this.count;
  }

  push(r: ImportedReading): void {
    this.add(r.meterKey, r.start, r.end, r.quantity, r.unit, r.estimated, r.source.file, r.source.row);
  }

  /** One reading by its values (a file's reader makes no object per reading). */
  add(
    meterKey: string,
    start: string,
    end: string,
    quantity: number,
    unit: string,
    estimated: boolean,
    file: string,
    row: number,
  ): void {
    this.addByIds(
      this.textId(meterKey),
      this.textId(start),
      this.textId(end),
      quantity,
      this.textId(unit),
      estimated,
      this.textId(file),
      row,
    );
  }

  /**
   * One reading, its texts given by their numbers (`textId`): a file's reader looks up its meter's
   * key, unit and file once per meter, not once per reading.
   */
  addByIds(
    meterKey: number,
    start: number,
    end: number,
    quantity: number,
    unit: number,
    estimated: boolean,
    file: number,
    row: number,
  ): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.meterKeys[i] = meterKey;
    this.starts[i] = start;
    this.ends[i] = end;
    this.units[i] = unit;
    this.files[i] = file;
    this.rows[i] = row;
    this.quantities[i] = quantity;
    this.estimated[i] = estimated ? 1 : 0;
  }

  at(i: number): ImportedReading {
    return {
      meterKey: this.meterKey(i),
      start: this.start(i),
      end: this.end(i),
      quantity: this.quantities[i] as number,
      unit: this.texts[this.units[i] as number] as string,
      estimated: this.estimated[i] === 1,
      source: { kind: 'file', file: this.texts[this.files[i] as number] as string, row: this.row(i) },
    };
  }

  // A reading's fields one at a time, for the plan's passes over every reading (no object made).
  meterKey(i: number): string {
    return this.texts[this.meterKeys[i] as number] as string;
  }
  start(i: number): string {
    return this.texts[this.starts[i] as number] as string;
  }
  end(i: number): string {
    return this.texts[this.ends[i] as number] as string;
  }
  row(i: number): number {
    return this.rows[i] as number;
  }

  // By number, for passes over a million readings without a string's lookup each: a reading's
  // meter key as the number of its text (`textOf`: the text; below `textCount`), its dates as days.
  meterKeyId(i: number): number {
    return this.meterKeys[i] as number;
  }
  textOf(id: number): string {
    return this.texts[id] as string;
  }
  get textCount(): number {
    return this.texts.length;
  }
  /** The reading's start as a day number (dates.ts `dayNumber`; NaN if not a day). */
  startDay(i: number): number {
    return this.day(this.starts[i] as number);
  }
  endDay(i: number): number {
    return this.day(this.ends[i] as number);
  }

  map<T>(fn: (r: ImportedReading, i: number) => T): T[] {
    return Array.from({ length: this.count }, (_, i) => fn(this.at(i), i));
  }

  *[Symbol.iterator](): Iterator<ImportedReading> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }

  /** Another's readings compare as the readings, not as the columns' spare room. */
  toJSON(): ImportedReading[] {
    return [...this];
  }

  private days = new Float64Array(0);
  private day(id: number): number {
    if (id >= this.days.length) {
      const grown = new Float64Array(this.texts.length).fill(-Infinity);
      grown.set(this.days);
      this.days = grown;
    }
    let day = this.days[id] as number;
    if (day === -Infinity) this.days[id] = day = dayNumber(this.texts[id] as string);
    return day;
  }

  /**
   * The number of a day's ISO text by its packed digits (`ImportRecord.dayKey`), -1 if it is no
   * day: a file's dates are a few dozen days repeated a million times, each found here by index
   * (years 1900-2299) rather than as a text in two maps.
   */
  dayId(key: number): number {
    const y = Math.floor(key / 10_000);
    const m = Math.floor(key / 100) % 100;
    const d = key % 100;
    const slot = y >= 1900 && y < 2300 && m <= 12 && d <= 31 ? ((y - 1900) * 13 + m) * 32 + d : -1;
    if (slot >= 0) {
      if (this.dayIds.length === 0) this.dayIds = new Int32Array(400 * 13 * 32);
      const known = this.dayIds[slot] as number;
      if (known !== 0) return known - 1;
    }
    const text = isoOf(y, m, d);
    const id = text === null ? -1 : this.textId(text);
    if (slot >= 0) this.dayIds[slot] = id + 1;
    return id;
  }
  private dayIds = new Int32Array(0);

  /** The number of a text held (added if new). */
  textId(value: string): number {
    let index = this.textIndex.get(value);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(value);
      this.textIndex.set(value, index);
    }
    return index;
  }

  /**
   * Room for `n` readings at once (a large file's reader guesses its rows from its size): the
   * columns are not grown, copied and let go a dozen times over, 100 MB for the collector to meet.
   */
  reserve(n: number): void {
    if (n > this.capacity) this.grow(n);
  }

  private grow(to = Math.max(1024, this.capacity * 2)): void {
    this.capacity = to;
    const grown = <A extends Int32Array | Float64Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const next = make(this.capacity);
      next.set(a);
      return next;
    };
    this.meterKeys = grown(this.meterKeys, (n) => new Int32Array(n));
    this.starts = grown(this.starts, (n) => new Int32Array(n));
    this.ends = grown(this.ends, (n) => new Int32Array(n));
    this.units = grown(this.units, (n) => new Int32Array(n));
    this.files = grown(this.files, (n) => new Int32Array(n));
    this.rows = grown(this.rows, (n) => new Int32Array(n));
    this.quantities = grown(this.quantities, (n) => new Float64Array(n));
    this.estimated = grown(this.estimated, (n) => new Uint8Array(n));
  }
}
