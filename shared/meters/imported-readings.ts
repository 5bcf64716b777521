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
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.meterKeys[i] = this.text(r.meterKey);
    this.starts[i] = this.text(r.start);
    this.ends[i] = this.text(r.end);
    this.units[i] = this.text(r.unit);
    this.files[i] = this.text(r.source.file);
    this.rows[i] = r.source.row;
    this.quantities[i] = r.quantity;
    this.estimated[i] = r.estimated ? 1 : 0;
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

  private text(value: string): number {
    let index = this.textIndex.get(value);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(value);
      this.textIndex.set(value, index);
    }
    return index;
  }

  private grow(): void {
    this.capacity = Math.max(1024, this.capacity * 2);
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
