import type { RawOrIssue, RowCells } from './sheet-parser';
import { attr, cellValue, numberValue, type CellCount } from './sheet-xml';
import { refuse, type WorkbookLimits } from './workbook-limits';
import {
  CELL_CLOSE,
  columnAt,
  find,
  INLINE_STR,
  numberAt,
  plainInline,
  quoted,
  startsWith,
  V_CLOSE,
} from './cell-bytes';

/**
 * A worksheet's rows read from its unpacked bytes as the ZIP hands them over, with no text made of
 * them (issue 33): decoding each megabyte to a string, cutting each row out of it and searching it
 * as text cost more than the inflate itself, and the strings were most of the import's garbage. A
 * cell in one of its common shapes is read where it lies: a number's digits, a shared string's
 * index, a boolean, an inline string of plain text. Any other cell's text is decoded and read by
 * `cellValue`, the string reader's own, so both readers give the same rows (held to it by tests).
 * Every limit is checked as the string reader checks it, in the same order.
 */

const ROW_OPEN = Buffer.from('<row');
const ROW_CLOSE = Buffer.from('</row>');
const SHEET_DATA_END = Buffer.from('</sheetData>');
/** A tag cut by a chunk's end fits in this many bytes kept from a gap between rows. */
const TAIL = SHEET_DATA_END.length;

/** What is held from earlier chunks: nothing, a gap's tail, a row whose start tag is cut, a row begun. */
const NOTHING = 0;
const GAP = 1;
const OPEN_TAG = 2;
const OPEN_ROW = 3;
type Held = typeof NOTHING | typeof GAP | typeof OPEN_TAG | typeof OPEN_ROW;

export interface RowCellsSink {
  /** One row's cells that hold something, in the order met. Cells right of `width()` are left out. */
  row(number: number, cells: RowCells): void;
  /** How many columns the tab's header spans once known (undefined: keep every cell). */
  width(): number | undefined;
}

/** One worksheet's rows, fed its bytes chunk by chunk as the ZIP unpacks it. */
export class WorksheetBytesReader {
  private held: Buffer[] = [];
  private heldLength = 0;
  private heldKind: Held = NOTHING;
  /** What `scan` left unread at its end. */
  private restKind: Held = NOTHING;
  private done = false;
  private rowElements = 0;
  private lastRow = 0;
  /**
   * One row's cells that hold something, the same arrays for every row (a row's array, nulls and
   * all, was as much garbage as the rows kept): the sink reads them during its call.
   */
  private readonly cells: RowCells = { count: 0, columns: new Int32Array(256), values: [] };

  constructor(
    private readonly sheet: string,
    private readonly strings: readonly string[],
    private readonly limits: WorkbookLimits,
    private readonly count: CellCount,
    private readonly sink: RowCellsSink,
  ) {}

  push(chunk: Buffer): void {
    if (this.done || chunk.length === 0) return;
    if (this.heldKind === NOTHING) return this.scanFrom(chunk, 0);
    if (this.heldKind === GAP) {
      const joined = Buffer.concat([...this.held, chunk]);
      this.release();
      return this.scanFrom(joined, 0);
    }
    // A row begun in an earlier chunk: the new bytes through its end are joined to it (one row
    // copied per chunk, not the chunk), read, and the rest of the chunk read where it lies.
    const cut = this.endOfHeldRow(chunk);
    if (cut < 0) return this.hold(chunk, this.heldKind);
    const whole = Buffer.concat([...this.held, chunk.subarray(0, cut)]);
    this.release();
    const rest = this.scan(whole, 0);
    if (this.done) return;
    // Only malformed text leaves part of the joined bytes unread: read again with the chunk's rest.
    if (rest < whole.length)
      return this.scanFrom(Buffer.concat([whole.subarray(rest), chunk.subarray(cut)]), 0);
    this.scanFrom(chunk, cut);
  }

  /** Where in `chunk` the held row ends (after its `/>` or `</row>`); -1 when it does not. */
  private endOfHeldRow(chunk: Buffer): number {
    let from = 0;
    if (this.heldKind === OPEN_TAG) {
      const tagEnd = chunk.indexOf(62);
      if (tagEnd < 0) return -1;
      const before = tagEnd > 0 ? chunk[tagEnd - 1] : this.heldByte(1);
      if (before === 47) return tagEnd + 1;
      this.heldKind = OPEN_ROW;
      from = tagEnd + 1;
    } else {
      // The end tag may straddle the chunks: its first k bytes held, the rest at the chunk's start.
      for (let k = ROW_CLOSE.length - 1; k >= 1; k--) {
        if (chunk.length < ROW_CLOSE.length - k) continue;
        let hit = true;
        for (let j = 0; j < k && hit; j++) hit = this.heldByte(k - j) === ROW_CLOSE[j];
        for (let j = k; j < ROW_CLOSE.length && hit; j++) hit = chunk[j - k] === ROW_CLOSE[j];
        if (hit) return ROW_CLOSE.length - k;
      }
    }
    const close = chunk.indexOf(ROW_CLOSE, from);
    return close < 0 ? -1 : close + ROW_CLOSE.length;
  }

  /** The held byte `back` bytes from the end (1: the last); undefined past the start. */
  private heldByte(back: number): number | undefined {
    let n = back;
    for (let p = this.held.length - 1; p >= 0; p--) {
      const piece = this.held[p]!;
      if (n <= piece.length) return piece[piece.length - n];
      n -= piece.length;
    }
    return undefined;
  }

  private hold(bytes: Buffer, kind: Held): void {
    this.held.push(bytes);
    this.heldLength += bytes.length;
    this.heldKind = kind;
    if (kind !== GAP && this.heldLength > this.limits.maxRowBytes)
      throw refuse.rowBytes(this.sheet, this.limits.maxRowBytes);
  }

  private release(): void {
    this.held = [];
    this.heldLength = 0;
    this.heldKind = NOTHING;
  }

  private scanFrom(buf: Buffer, at: number): void {
    const rest = this.scan(buf, at);
    if (!this.done && rest < buf.length) this.hold(buf.subarray(rest), this.restKind);
  }

  /**
   * Reads every whole row of `buf` from `at`; returns where what is left begins (its kind in
   * `restKind`). Reading stops at `</sheetData>` met between rows, as the string reader does.
   */
  private scan(buf: Buffer, from: number): number {
    const end = buf.length;
    let at = from;
    for (;;) {
      const start = buf.indexOf(ROW_OPEN, at);
      const gapEnd = start < 0 ? end : start;
      if (gapEnd - at >= SHEET_DATA_END.length && buf.subarray(at, gapEnd).indexOf(SHEET_DATA_END) >= 0) {
        this.done = true;
        return end;
      }
      if (start < 0) {
        this.restKind = GAP;
        return Math.max(at, end - TAIL);
      }
      if (start + ROW_OPEN.length >= end) {
        this.restKind = GAP;
        return start;
      }
      const after = buf[start + 4];
      if (after !== 32 && after !== 62 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
        at = start + 4;
        continue;
      }
      const tagEnd = buf.indexOf(62, start);
      if (tagEnd < 0) {
        if (end - start > this.limits.maxRowBytes) throw refuse.rowBytes(this.sheet, this.limits.maxRowBytes);
        this.restKind = OPEN_TAG;
        return start;
      }
      if (buf[tagEnd - 1] === 47) {
        this.row(buf, start, tagEnd, -1);
        at = tagEnd + 1;
        continue;
      }
      const stop = buf.indexOf(ROW_CLOSE, tagEnd);
      if (stop < 0) {
        if (end - start > this.limits.maxRowBytes) throw refuse.rowBytes(this.sheet, this.limits.maxRowBytes);
        this.restKind = OPEN_ROW;
        return start;
      }
      this.row(buf, start, tagEnd, stop);
      at = stop + ROW_CLOSE.length;
    }
  }

  /** The row number of the start tag `start` to `tagEnd` (its `>`), as `Number` reads its `r`. */
  private rowNumber(buf: Buffer, start: number, tagEnd: number): number {
    for (let i = start + 4; i + 3 < tagEnd; i++) {
      if (buf[i] !== 32 || buf[i + 1] !== 114 || buf[i + 2] !== 61 || buf[i + 3] !== 34) continue;
      let n = 0;
      let j = i + 4;
      for (; j < tagEnd && j - i - 4 < 15; j++) {
        const d = buf[j]! - 48;
        if (d < 0 || d > 9) break;
        n = n * 10 + d;
      }
      if (j > i + 4 && buf[j] === 34 && j < tagEnd) return n;
      return Number(attr(buf.toString('utf8', start, tagEnd), 'r'));
    }
    return this.lastRow + 1;
  }

  private add(column: number, value: RawOrIssue): void {
    const cells = this.cells;
    if (cells.count === cells.columns.length) {
      const more = new Int32Array(cells.count * 2);
      more.set(cells.columns);
      cells.columns = more;
    }
    cells.columns[cells.count] = column;
    cells.values[cells.count++] = value;
  }

  /** One row element: its start tag `start` to `tagEnd`, its end tag at `stop` (-1: self-closed). */
  private row(buf: Buffer, start: number, tagEnd: number, stop: number): void {
    const { limits, count } = this;
    if (++this.rowElements > limits.maxRowElements) throw refuse.rows(this.sheet, limits.maxRowElements);
    const number = this.rowNumber(buf, start, tagEnd);
    this.lastRow = number;
    if (stop < 0) return;
    const width = this.sink.width() ?? Infinity;
    const { cells } = this;
    cells.count = 0;
    let column = 0;
    let at = tagEnd;
    for (;;) {
      // The next `<c` followed by a space, `>` or `/`.
      let s = at;
      for (; s < stop - 1; s++) {
        if (buf[s] !== 60 || buf[s + 1] !== 99) continue;
        const after = buf[s + 2];
        if (after === 32 || after === 62 || after === 47) break;
      }
      if (s >= stop - 1) break;
      // Its start tag's end, and where the values of its first ` r="` and ` t="` begin.
      let refAt = -1;
      let typeAt = -1;
      let tagClose = -1;
      for (let i = s + 2; i < stop; i++) {
        const b = buf[i];
        if (b === 62) {
          tagClose = i;
          break;
        }
        if (b === 32 && buf[i + 2] === 61 && buf[i + 3] === 34) {
          const name = buf[i + 1];
          if (name === 114 && refAt < 0) refAt = i + 4;
          else if (name === 116 && typeAt < 0) typeAt = i + 4;
        }
      }
      if (tagClose < 0) break;
      column = refAt >= 0 ? columnAt(buf, refAt, stop) : column + 1;
      if (column > limits.maxColumns) {
        const ref = refAt >= 0 ? quoted(buf, refAt, stop) : `row ${number}`;
        throw refuse.columns(this.sheet, ref, limits.maxColumns);
      }
      if (++count.cells > limits.maxCells) throw refuse.cells(limits.maxCells);
      if (buf[tagClose - 1] === 47) {
        at = tagClose + 1;
        continue;
      }
      let value: RawOrIssue;
      const inner = tagClose + 1;
      if (typeAt < 0 && buf[inner] === 60 && buf[inner + 1] === 118 && buf[inner + 2] === 62) {
        // The common cell, a number: <c r="B7"><v>12.5</v></c>. Its digits are read as they are
        // passed (most are whole numbers); its text ends at its first `<`.
        const from = inner + 3;
        let lt = from;
        const negative = buf[lt] === 45;
        if (negative) lt++;
        const digits = lt;
        let n = 0;
        for (; lt < stop; lt++) {
          const d = buf[lt]! - 48;
          if (d < 0 || d > 9) break;
          n = n * 10 + d;
        }
        const whole = lt > digits && lt - digits <= 15 && buf[lt] === 60;
        if (!whole) while (lt < stop && buf[lt] !== 60) lt++;
        if (
          lt + 8 <= stop &&
          buf[lt + 1] === 47 &&
          buf[lt + 2] === 118 &&
          buf[lt + 3] === 62 &&
          buf[lt + 4] === 60 &&
          buf[lt + 5] === 47 &&
          buf[lt + 6] === 99 &&
          buf[lt + 7] === 62
        ) {
          // `</v></c>` right after: the cell ends there.
          at = lt + 8;
          if (column > width) continue;
          value = whole
            ? negative
              ? -n
              : n
            : (numberAt(buf, from, lt) ?? numberValue(buf.toString('utf8', from, lt)));
          if (value !== null && column > 0) {
            this.add(column, value);
          }
          continue;
        }
        const vEnd = startsWith(buf, lt, V_CLOSE) && lt + 4 <= stop ? lt : find(buf, V_CLOSE, from, stop);
        // With no `<` before its `</v>`, the cell's first `</c>` can only come after it.
        const close =
          vEnd === lt && startsWith(buf, vEnd + 4, CELL_CLOSE) && vEnd + 8 <= stop
            ? vEnd + 4
            : find(buf, CELL_CLOSE, tagClose, stop);
        at = (close < 0 ? stop : close) + 4;
        if (column > width) continue;
        const read = vEnd === lt ? numberAt(buf, from, vEnd) : undefined;
        value = read ?? numberValue(buf.toString('utf8', from, vEnd < 0 ? stop - 1 : vEnd));
      } else {
        const close = find(buf, CELL_CLOSE, tagClose, stop);
        const stopCell = close < 0 ? stop : close;
        at = stopCell + 4;
        if (column > width) continue;
        value = this.value(buf, typeAt, inner, stopCell, stop);
      }
      if (value !== null && column > 0) {
        this.add(column, value);
      }
    }
    this.sink.row(number, cells);
  }

  /** A typed cell (or a number cell not in the common shape): its text from `inner` to `close`. */
  private value(buf: Buffer, typeAt: number, inner: number, close: number, stop: number): RawOrIssue {
    if (typeAt >= 0 && buf[typeAt + 1] === 34) {
      const t = buf[typeAt];
      if ((t === 115 /* s */ || t === 98) /* b */ && buf[inner] === 60 && buf[inner + 1] === 118) {
        // <v>index</v> or <v>0|1</v>.
        if (buf[inner + 2] === 62) {
          let n = 0;
          let i = inner + 3;
          for (; i < close && i - inner - 3 < 15; i++) {
            const d = buf[i]! - 48;
            if (d < 0 || d > 9) break;
            n = n * 10 + d;
          }
          if (i > inner + 3 && i + 4 === close && startsWith(buf, i, V_CLOSE)) {
            if (t === 98 && i === inner + 4) return n === 1;
            if (t === 115)
              return (
                this.strings[n] ?? { unreadable: 'The cell refers to a text the workbook does not hold' }
              );
          }
        }
      }
    } else if (typeAt >= 0 && startsWith(buf, typeAt, INLINE_STR)) {
      const text = plainInline(buf, inner, close);
      if (text !== undefined) return text;
    }
    const type = typeAt >= 0 ? quoted(buf, typeAt, stop) : 'n';
    return cellValue(type, buf.toString('utf8', inner, close), this.strings);
  }
}
