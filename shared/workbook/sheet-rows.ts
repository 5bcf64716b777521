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
import { columnSpec, isoDateSerial, schemeListOf, toCellValue } from './cells';
import type { WorkbookSheet } from './layout';
import { cellXml, columnName, escapeXml, sheetHeadXml, style } from './xlsx-parts';
import { asciiBytes, Piece, XmlBytes } from './xml-bytes';
import type { AnnualSlots } from './annual-slots';
import type { PartPacking } from './zip-out';

type Record_ = Record<string, unknown>;

/** How a column finds its value: in the annual slots, the asset's field, or a listed record's. */
const FROM_SLOT = 0;
const FROM_CERTIFICATIONS = 2;
const FROM_RATINGS = 3;
const PLAIN = 0;
const SPECIAL = 1;

/** The styles a cell may have, in the order `style` numbers them. */
const STYLES = [style.plain, style.date, style.text, style.bold];
/** A cell's type, as `RowStarts.start` takes it. */
const NUMBER = 0;
const BOOLEAN = 1;
const TEXT = 2;
/** The cell's fixed text after its row number, by type, then style: a number's, a boolean's, a text's. */
const cellMiddles = [NUMBER, BOOLEAN, TEXT].flatMap((type) =>
  STYLES.map((s) => {
    const attr = s ? ` s="${s}"` : '';
    return asciiBytes(
      type === NUMBER
        ? `"${attr}><v>`
        : type === BOOLEAN
          ? `"${attr} t="b"><v>`
          : `"${attr} t="inlineStr"><is><t xml:space="preserve">`,
    );
  }),
);
/**
 * What closes a row's last cell written so far, if anything: a cell's close is written with
 * whatever comes next (the next cell's start, or the row's end), one piece in place of two (issue
 * 33: most cells are a few bytes of value between fixed pieces, so each piece less counts).
 */
const CLOSED = 0;
const VALUE_OPEN = 1;
const TEXT_OPEN = 2;
const closes = ['', '</v></c>', '</t></is></c>'];
const rowEnds = closes.map((close) => new Piece(`${close}</row>`));
const one = new Piece('1');
const zero = new Piece('0');
const excelEpochMs = Date.UTC(1899, 11, 30);
/** Digits a row number may have (Excel's last row, 1,048,576, has 7). */
const MAX_DIGITS = 10;

/**
 * What every cell of one row writes between its column's letters and its value: the row number
 * and the fixed text of its type and style (`123" s="1"><v>`), made for a row the first time a
 * cell of that type and style asks for it (a row uses 4 or 5 of the 12), and the row's opening
 * tag. One is shared by the tabs written side by side.
 */
export class RowStarts {
  r = -1;
  readonly open = new Piece('', '<row r="">'.length + MAX_DIGITS);
  private readonly starts = cellMiddles.map((middle) => new Piece('', MAX_DIGITS + middle.length));
  /** The row each start was last made for. */
  private readonly madeFor = new Int32Array(cellMiddles.length).fill(-1);
  private readonly scratch = new Uint8Array(128);
  private digits = 0;

  /** Made for row `r`, unless they already are. */
  at(r: number): this {
    if (r === this.r) return this;
    this.r = r;
    const text = String(r);
    const scratch = this.scratch;
    const n = text.length;
    for (let i = 0; i < n; i++) scratch[i] = text.charCodeAt(i);
    this.digits = n;
    const open = asciiBytes(`<row r="${text}">`);
    this.open.fill(open, open.length);
    return this;
  }

  /** The start of a cell of `type` (`NUMBER`, `BOOLEAN`, `TEXT`) and style `s` on this row. */
  start(type: number, s: number): Piece {
    const i = type * STYLES.length + s;
    const piece = this.starts[i]!;
    if (this.madeFor[i] !== this.r) {
      this.madeFor[i] = this.r;
      const middle = cellMiddles[i]!;
      this.scratch.set(middle, this.digits);
      piece.fill(this.scratch, this.digits + middle.length);
    }
    return piece;
  }
}

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
  /** Whether a column's value is written as something else (a scheme's name, a date's serial). */
  private readonly special: Uint8Array;
  private readonly styles: number[];
  /**
   * Each column's `<c r="` and letters, after each close the cell before may need: column `c`'s
   * after close `k` (`CLOSED`, `VALUE_OPEN`, `TEXT_OPEN`) is at `k * n + c`.
   */
  private readonly opens: Piece[];
  /**
   * The columns a row looks at, the first `listed` of them: those whose slot the assets of the
   * slots' `shape` fill (`AnnualSlots.shape`), and every column of a listed record.
   */
  private readonly visit: Int32Array;
  private listed = 0;
  private shape = -1;
  /** A date's text, parsed once per distinct text (dates repeat across a pool): its serial, or the text. */
  private readonly dates = new Map<string, number | string>();
  /**
   * Each date column's last text and what it was written as: a column's dates repeat from one
   * asset to the next (a year's period), and comparing a text costs a fraction of reading it
   * (issue 33: reading them was 6% of the build).
   */
  private readonly lastDate: (string | undefined)[];
  private readonly lastDateValue: (number | string)[];

  constructor(
    readonly sheet: WorkbookSheet,
    readonly packing: PartPacking,
    private readonly slots: AnnualSlots,
    lists: { certification_id: readonly ListItem[]; energy_rating_id: readonly ListItem[] },
    /** Shared by the tabs written side by side, so each row's are made once. */
    private readonly starts = new RowStarts(),
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
    this.xml.handOnAsFull();
    // A certification's or rating's scheme is written by its name (an id the list lacks stays a number).
    const names = (list: readonly ListItem[]): Map<number, string> =>
      new Map(list.map((item) => [Number(item.value), item.label]));
    const schemeNames = {
      certifications: names(lists.certification_id),
      energy_ratings: names(lists.energy_rating_id),
    };
    this.n = columns.length;
    this.from = Uint8Array.from(columns, ({ source }) =>
      source.kind === 'annual' || source.kind === 'asset'
        ? FROM_SLOT
        : source.kind === 'certifications'
          ? FROM_CERTIFICATIONS
          : FROM_RATINGS,
    );
    this.fields = columns.map((c) => c.source.field);
    this.places = Int32Array.from(columns, ({ source }) =>
      source.kind === 'annual'
        ? slots.slot(source.year, source.field)
        : source.kind === 'asset'
          ? slots.ownSlot(source.field)
          : source.index,
    );
    this.schemes = columns.map((c) => ((l) => (l ? schemeNames[l] : undefined))(schemeListOf(c.source)));
    this.isDate = specs.map((spec) => spec?.type === 'date');
    this.special = Uint8Array.from(columns, (_, c) => (this.schemes[c] || this.isDate[c] ? SPECIAL : PLAIN));
    this.visit = new Int32Array(this.n);
    this.lastDate = columns.map(() => undefined);
    this.lastDateValue = columns.map(() => 0);
    this.opens = closes.flatMap((close) => letters.map((letter) => new Piece(`${close}<c r="${letter}`)));
  }

  /** The columns to look at for the slots' present shape (see `visit`). */
  private relist(): void {
    const { from, places, visit, n } = this;
    const filled = this.slots.filled;
    let listed = 0;
    for (let c = 0; c < n; c++) if (from[c] !== FROM_SLOT || filled[places[c]!] === 1) visit[listed++] = c;
    this.listed = listed;
    this.shape = this.slots.shape;
  }

  /** Asset row `r` (its own and annual values already in the slots: `AnnualSlots.fillAsset`). */
  row(asset: AssetInput, r: number): void {
    if (this.shape !== this.slots.shape) this.relist();
    const { xml, from, fields, places, special, styles, opens, n, visit, listed } = this;
    const starts = this.starts.at(r);
    const values = this.slots.values;
    const certifications = Array.isArray(asset.certifications) ? asset.certifications : undefined;
    const ratings = Array.isArray(asset.energy_ratings) ? asset.energy_ratings : undefined;
    xml.piece(starts.open);
    // The close the last cell written still needs (see `CLOSED`).
    let open = CLOSED;
    for (let k = 0; k < listed; k++) {
      const c = visit[k]!;
      let raw: unknown;
      switch (from[c]) {
        case FROM_SLOT:
          raw = values[places[c]!];
          break;
        case FROM_CERTIFICATIONS:
          raw = (certifications?.[places[c]!] as Record_ | undefined)?.[fields[c]!];
          break;
        default:
          raw = (ratings?.[places[c]!] as Record_ | undefined)?.[fields[c]!];
      }
      if (raw === null || raw === undefined) continue;
      let v: unknown = raw;
      if (special[c] !== PLAIN) v = this.specialValue(c, raw);
      // Each type tested on its own (`typeof v === ...`): the compiler turns such a test into a
      // check of the value's map, where a `switch` on `typeof v` called a builtin for every cell.
      if (typeof v === 'number') {
        const cell = opens[open * n + c]!;
        const start = starts.start(NUMBER, styles[c]!);
        if (!xml.intCell(cell, start, v)) {
          if (!Number.isFinite(v)) continue;
          xml.piece(cell);
          xml.piece(start);
          xml.number(v);
        }
        open = VALUE_OPEN;
      } else if (typeof v === 'string') {
        // Strings are written as strings, never formulas; the Text format also keeps Excel from
        // turning them into one when the analyst edits the cell.
        const cell = opens[open * n + c]!;
        const start = starts.start(TEXT, triggersFormula(v) ? style.text : styles[c]!);
        if (!xml.plainTextCell(cell, start, v)) {
          xml.piece(cell);
          xml.piece(start);
          xml.text(escapeXml(v));
        }
        open = TEXT_OPEN;
      } else if (typeof v === 'boolean') {
        xml.fixedCell(opens[open * n + c]!, starts.start(BOOLEAN, styles[c]!), v ? one : zero);
        open = VALUE_OPEN;
      }
    }
    xml.piece(rowEnds[open]!);
  }

  /** A scheme's id as its name; a date's text as its serial (once per distinct text). */
  private specialValue(c: number, raw: unknown): unknown {
    const names = this.schemes[c];
    if (names && typeof raw === 'number') return names.get(raw) ?? raw;
    if (this.isDate[c] && typeof raw === 'string') {
      if (raw === this.lastDate[c]) return this.lastDateValue[c];
      let v: number | string | undefined = isoDateSerial(raw);
      if (v < 0) {
        v = this.dates.get(raw);
        if (v === undefined) {
          const d = toCellValue(raw, { type: 'date' });
          this.dates.set(raw, (v = d instanceof Date ? (d.getTime() - excelEpochMs) / 86_400_000 : raw));
        }
      }
      this.lastDate[c] = raw;
      this.lastDateValue[c] = v;
      return v;
    }
    return raw;
  }

  /** The tab's end (`tail`: the rest of its XML after the rows), its last bytes packed as final. */
  end(tail: string): void {
    this.xml.text(tail);
    this.packing.push(this.xml.take(), true);
  }
}
