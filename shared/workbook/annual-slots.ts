import type { ColumnSource } from './layout';

type Record_ = Record<string, unknown>;

/**
 * Each (year, field) of the columns at hand, as a slot; an asset's annual values are dropped into
 * them by one walk over each record's own fields, and a row reads its cells from the slots (the
 * workbook's writer in `sheet-rows.ts`, the import's unchanged check in `electron/workbook/plan-row.ts`).
 */
export class AnnualSlots {
  private readonly byYear = new Map<number, YearSlots>();
  /** The slots of the asset's own fields. */
  private readonly own = new YearSlots();
  readonly values: unknown[] = [];
  /**
   * The slots filled since the last `clear`, the first `touchedCount` of them. The array is never
   * cut short: `length = 0` dropped its backing store, and growing it again for every asset was 70
   * of the 109 MB of garbage an export of 10,000 assets made (issue 33).
   */
  private readonly touched: number[] = [];
  private touchedCount = 0;
  /**
   * Which slots an asset's `fillAsset` filled, counted up each time they differ from the asset's
   * before (assets are made alike, so most give the same slots in the same order): a tab lists the
   * columns it has to look at once per shape, not 939 columns per row (issue 33).
   */
  shape = 0;
  /** The slots filled (1) by the assets of this `shape`, whatever their values. */
  filled = new Uint8Array(0);
  /** Whether the slots filled so far differ from the last asset's (or may: `refill`). */
  private reshaped = true;
  private lastCount = -1;

  constructor(sources: Iterable<ColumnSource> = []) {
    for (const source of sources) if (source.kind === 'annual') this.slot(source.year, source.field);
  }

  get size(): number {
    return this.values.length;
  }

  /** The slot of a year's field (made the first time it is asked for). */
  slot(year: number, field: string): number {
    let fields = this.byYear.get(year);
    if (!fields) this.byYear.set(year, (fields = new YearSlots()));
    let slot = fields.slots.get(field);
    if (slot === undefined) {
      fields.slots.set(field, (slot = this.values.length));
      fields.forget();
      this.values.push(undefined);
    }
    return slot;
  }

  /**
   * The slot of one of the asset's own fields (made the first time it is asked for): the writer
   * reads them from slots too, each filled by one walk over the asset's own fields (`fillAsset`),
   * where every tab looked each one up by name, a keyed read that never settles on one shape
   * (issue 33).
   */
  ownSlot(field: string): number {
    let slot = this.own.slots.get(field);
    if (slot === undefined) {
      this.own.slots.set(field, (slot = this.values.length));
      this.own.forget();
      this.values.push(undefined);
    }
    return slot;
  }

  /** An asset's own fields (`ownSlot`) and its annual records (`fillRecords`) into their slots. */
  fillAsset(asset: object): void {
    // Records first: a year given twice starts their slots afresh (`refill`), which must not drop
    // the asset's own values.
    this.fillRecords((asset as Record_).annual_data);
    this.fillRecord(this.own, asset as Record_);
    const n = this.touchedCount;
    if (n !== this.lastCount || this.filled.length !== this.values.length) this.reshaped = true;
    this.lastCount = n;
    if (!this.reshaped) return;
    this.reshaped = false;
    this.shape++;
    const filled = (this.filled = new Uint8Array(this.values.length));
    const { touched } = this;
    for (let i = 0; i < n; i++) filled[touched[i]!] = 1;
  }

  /** One asset's annual records (by year, the last of a year kept) into the slots. */
  fill(annual: ReadonlyMap<number, Record_>): void {
    for (const [year, rec] of annual) {
      const fields = this.byYear.get(year);
      if (fields) this.fillRecord(fields, rec);
    }
  }

  /**
   * The same from an asset's `annual_data` as it is stored, with no map made per asset: records in
   * order, so a later record of a year overwrites an earlier one's fields; a year given twice (which
   * the app never writes) goes the map's way, so the earlier record's other fields are dropped too.
   */
  fillRecords(records: unknown): void {
    if (!Array.isArray(records)) return;
    const list = records as Record_[];
    // The years seen so far are the records before this one: an asset has a handful, so looking back
    // costs less than a set, whose `clear` made a new table for every asset.
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      const year = r.year;
      if (typeof year !== 'number') continue;
      for (let j = 0; j < i; j++) if (list[j]!.year === year) return this.refill(list);
      const fields = this.byYear.get(year);
      if (fields) this.fillRecord(fields, r);
    }
  }

  private refill(records: readonly Record_[]): void {
    this.clear();
    this.reshaped = true;
    const byYear = new Map<number, Record_>();
    for (const r of records) if (typeof r.year === 'number') byYear.set(r.year, r);
    this.fill(byYear);
  }

  /**
   * One record's own fields into their slots. Records are made alike, so their fields come in the
   * same order: the slot found for each field of the record before is tried first (a comparison of
   * the same interned string), and only a field in another place is looked up in the map (issue 33:
   * the lookups were a fifth of the export's build).
   */
  private fillRecord(fields: YearSlots, rec: Record_): void {
    const { values, touched } = this;
    const { keys, slotOf } = fields;
    let n = this.touchedCount;
    let i = 0;
    for (const field in rec) {
      let slot: number;
      if (keys[i] === field) slot = slotOf[i]!;
      else {
        slot = fields.slots.get(field) ?? -1;
        keys[i] = field;
        slotOf[i] = slot;
      }
      i++;
      if (slot < 0) continue;
      values[slot] = rec[field];
      // The last asset's slot at this place, overwritten only where it differs (see `shape`).
      if (touched[n] !== slot) {
        touched[n] = slot;
        this.reshaped = true;
      }
      n++;
    }
    this.touchedCount = n;
  }

  clear(): void {
    const { values, touched } = this;
    const n = this.touchedCount;
    for (let i = 0; i < n; i++) values[touched[i]!] = undefined;
    this.touchedCount = 0;
  }
}

/** A year's slots by field, and the fields (with their slots) of the last record filled, in order. */
class YearSlots {
  readonly slots = new Map<string, number>();
  keys: string[] = [];
  slotOf: number[] = [];

  /** A new slot may be one a remembered field lacked. */
  forget(): void {
    this.keys = [];
    this.slotOf = [];
  }
}
