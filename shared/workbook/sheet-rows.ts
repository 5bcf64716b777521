/**
 * The asset tabs' rows, all tabs side by side: each asset is read once and gives its row to every
 * tab, each tab's XML going as bytes into its own part's packing (`zip-out.ts`).
 *
 * Why side by side (issue 33): looking each column's field up in each asset's records, tab after
 * tab, was 9.4 million keyed reads for 10,000 assets x 6 years, two thirds of them of fields a
 * record lacks, and cost more than the deflate. Here each annual record's own fields are walked
 * once, each dropped into its (year, field) slot, and a tab's row reads its cells from the slots.
 */
import type { AssetInput, ListItem } from '../domain';
import { columnSpec, schemeListOf, toCellValue } from './cells';
import type { ColumnSource, WorkbookSheet } from './layout';
import { cellXml, columnName, escapeXml, sheetHeadXml, style } from './xlsx-parts';
import { asciiBytes, XmlBytes } from './xml-bytes';
import type { PartPacking } from './zip-out';

type Record_ = Record<string, unknown>;

/**
 * Each (year, field) of the columns at hand, as a slot; an asset's annual values are dropped into
 * them by one walk over each record's own fields, and a row reads its cells from the slots (the
 * workbook's writer here, the import's unchanged check in `electron/workbook/plan-row.ts`).
 */
export class AnnualSlots {
  private readonly byYear = new Map<number, YearSlots>();
  readonly values: unknown[] = [];
  private readonly touched: number[] = [];

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
    const seen = this.seen;
    seen.clear();
    for (const r of records as Record_[]) {
      const year = r.year;
      if (typeof year !== 'number') continue;
      if (seen.has(year)) return this.refill(records as Record_[]);
      seen.add(year);
      const fields = this.byYear.get(year);
      if (fields) this.fillRecord(fields, r);
    }
  }
  private readonly seen = new Set<number>();

  private refill(records: readonly Record_[]): void {
    this.clear();
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
      touched.push(slot);
    }
  }

  clear(): void {
    const { values, touched } = this;
    for (let i = 0; i < touched.length; i++) values[touched[i]!] = undefined;
    touched.length = 0;
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

/** How a column finds its value: in the annual slots, the asset's field, or a listed record's. */
const FROM_SLOT = 0;
const FROM_ASSET = 1;
const FROM_CERTIFICATIONS = 2;
const FROM_RATINGS = 3;

/** The cell's fixed text after its row number, by style: a number's, a boolean's, a text's. */
const cellMiddles = [style.plain, style.date, style.text, style.bold].map((s) => {
  const attr = s ? ` s="${s}"` : '';
  return {
    number: asciiBytes(`"${attr}><v>`),
    boolean: asciiBytes(`"${attr} t="b"><v>`),
    text: asciiBytes(`"${attr} t="inlineStr"><is><t xml:space="preserve">`),
  };
});
const valueEnd = asciiBytes('</v></c>');
const textEnd = asciiBytes('</t></is></c>');
const rowEnd = asciiBytes('</row>');
const one = asciiBytes('1');
const zero = asciiBytes('0');
const excelEpochMs = Date.UTC(1899, 11, 30);

/** Would run as a formula if typed in: `formulaTrigger`'s first characters (= + - @ tab CR). */
function triggersFormula(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/**
 * One asset tab's XML, row by row, as bytes into its part's packing. Writes what `cellXml` would for
 * each cell (the tests compare the two), each column's reference prefix and each style's fixed text
 * made once, numbers written digit by digit.
 */
export class SheetRows {
  private readonly xml: XmlBytes;
  private readonly n: number;
  private readonly from: Uint8Array;
  private readonly fields: string[];
  private readonly places: Int32Array;
  private readonly schemes: (ReadonlyMap<number, string> | undefined)[];
  private readonly isDate: boolean[];
  private readonly styles: number[];
  private readonly opens: Uint8Array[];
  /** A date's text, parsed once per distinct text (dates repeat across a pool): its serial, or the text. */
  private readonly dates = new Map<string, number | string>();

  constructor(
    readonly sheet: WorkbookSheet,
    readonly packing: PartPacking,
    private readonly slots: AnnualSlots,
    lists: { certification_id: readonly ListItem[]; energy_rating_id: readonly ListItem[] },
  ) {
    this.xml = new XmlBytes((chunk) => packing.push(chunk, false));
    const { columns } = sheet;
    const specs = columns.map((c) => columnSpec(c.source));
    const letters = columns.map((_, i) => columnName(i + 1));
    this.styles = specs.map((spec) => (spec?.type === 'date' ? style.date : style.plain));
    this.xml.text(
      sheetHeadXml(
        columns.map((c, i) => ({ width: c.width, style: this.styles[i] ?? style.plain })),
        { xSplit: 1, ySplit: 2 },
      ),
    );
    // Row 1: API variable names, hidden; importers key on these. Row 2: what analysts read.
    this.xml.text(
      `<row r="1" hidden="1">${columns.map((c, i) => cellXml(`${letters[i]}1`, c.key, style.plain)).join('')}</row>`,
    );
    this.xml.text(
      `<row r="2">${columns.map((c, i) => cellXml(`${letters[i]}2`, c.label, style.bold)).join('')}</row>`,
    );
    // A certification's or rating's scheme is written by its name (an id the list lacks stays a number).
    const names = (list: readonly ListItem[]): Map<number, string> =>
      new Map(list.map((item) => [Number(item.value), item.label]));
    const schemeNames = {
      certifications: names(lists.certification_id),
      energy_ratings: names(lists.energy_rating_id),
    };
    this.n = columns.length;
    this.from = Uint8Array.from(columns, ({ source }) =>
      source.kind === 'annual'
        ? FROM_SLOT
        : source.kind === 'asset'
          ? FROM_ASSET
          : source.kind === 'certifications'
            ? FROM_CERTIFICATIONS
            : FROM_RATINGS,
    );
    this.fields = columns.map((c) => c.source.field);
    this.places = Int32Array.from(columns, ({ source }) =>
      source.kind === 'annual'
        ? slots.slot(source.year, source.field)
        : source.kind === 'asset'
          ? 0
          : source.index,
    );
    this.schemes = columns.map((c) => ((l) => (l ? schemeNames[l] : undefined))(schemeListOf(c.source)));
    this.isDate = specs.map((spec) => spec?.type === 'date');
    this.opens = letters.map((letter) => asciiBytes(`<c r="${letter}`));
  }

  /** Asset row `r` (its annual values already in the slots). */
  row(asset: AssetInput, r: number): void {
    const { xml, from, fields, places, schemes, isDate, styles, opens } = this;
    const values = this.slots.values;
    const certifications = Array.isArray(asset.certifications) ? asset.certifications : undefined;
    const ratings = Array.isArray(asset.energy_ratings) ? asset.energy_ratings : undefined;
    const rowNumber = asciiBytes(String(r));
    xml.text(`<row r="${r}">`);
    for (let c = 0; c < this.n; c++) {
      let raw: unknown;
      switch (from[c]) {
        case FROM_SLOT:
          raw = values[places[c]!];
          break;
        case FROM_ASSET:
          raw = asset[fields[c]!];
          break;
        case FROM_CERTIFICATIONS:
          raw = (certifications?.[places[c]!] as Record_ | undefined)?.[fields[c]!];
          break;
        default:
          raw = (ratings?.[places[c]!] as Record_ | undefined)?.[fields[c]!];
      }
      if (raw === null || raw === undefined) continue;
      let v: unknown = raw;
      const names = schemes[c];
      if (names && typeof raw === 'number') v = names.get(raw) ?? raw;
      else if (isDate[c] && typeof raw === 'string') {
        v = this.dates.get(raw);
        if (v === undefined) {
          const d = toCellValue(raw, { type: 'date' });
          this.dates.set(raw, (v = d instanceof Date ? (d.getTime() - excelEpochMs) / 86_400_000 : raw));
        }
      }
      switch (typeof v) {
        case 'number':
          if (!Number.isFinite(v)) continue;
          xml.cellStart(opens[c]!, rowNumber, cellMiddles[styles[c]!]!.number);
          xml.number(v);
          xml.bytes(valueEnd);
          break;
        case 'boolean':
          xml.cellStart(opens[c]!, rowNumber, cellMiddles[styles[c]!]!.boolean);
          xml.bytes(v ? one : zero);
          xml.bytes(valueEnd);
          break;
        case 'string':
          // Strings are written as strings, never formulas; the Text format also keeps Excel from
          // turning them into one when the analyst edits the cell.
          xml.cellStart(
            opens[c]!,
            rowNumber,
            cellMiddles[triggersFormula(v) ? style.text : styles[c]!]!.text,
          );
          if (!xml.plainText(v)) xml.text(escapeXml(v));
          xml.bytes(textEnd);
          break;
        default:
      }
    }
    xml.bytes(rowEnd);
  }

  /** The tab's end (`tail`: the rest of its XML after the rows), its last bytes packed as final. */
  end(tail: string): void {
    this.xml.text(tail);
    this.packing.push(this.xml.take(), true);
  }
}
