import type { RawOrIssue } from './sheet-parser';
import { refuse, type WorkbookLimits } from './workbook-limits';

/**
 * A streaming reader of SpreadsheetML (worksheets and the shared-strings table), fed text as the
 * ZIP unpacks it. Only what an import needs is read: cell positions, types and values (a formula
 * gives its saved result, never its text). Styles are not: date columns take serials as dates.
 * Every element is counted against the limits as it is met, so a hostile book stops early.
 */

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return entities[name] ?? whole;
  });
}

/** The text of `<t>` elements in a string item or inline string, phonetic runs left out. */
function runText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  let at = 0;
  for (;;) {
    const open = body.indexOf('<t', at);
    if (open < 0) break;
    const next = body.charCodeAt(open + 2);
    const tagEnd = body.indexOf('>', open);
    if (tagEnd < 0) break;
    // `<t>`, `<t xml:space="preserve">`; not `<tr...`. A self-closed `<t/>` is empty.
    if (next !== 62 /* > */ && next !== 32 /* space */ && next !== 47 /* / */) {
      at = open + 2;
      continue;
    }
    if (body.charCodeAt(tagEnd - 1) === 47) {
      at = tagEnd + 1;
      continue;
    }
    const close = body.indexOf('</t>', tagEnd);
    if (close < 0) break;
    out += body.slice(tagEnd + 1, close);
    at = close + 4;
  }
  return decodeXml(out);
}

/**
 * Splits streamed text into complete elements named `tag`. A partial start tag waits in a short
 * buffer; an element whose end has not come yet waits as pieces, and only the new text is searched
 * for its end, so a long element costs its length once, not once per chunk.
 */
class ElementStream {
  private buffer = '';
  private pieces: string[] | null = null;
  private piecesLength = 0;
  private tail = '';
  private done = false;
  private readonly open: string;
  private readonly close: string;

  constructor(
    tag: string,
    /** Called with each element's text (its end tag left out), where its start tag ends, and whether it closed itself. */
    private readonly onElement: (xml: string, startTagEnd: number, selfClosed: boolean) => void,
    /** Reading stops at this closing tag (the rest of the part is not needed). */
    private readonly endTag: string,
    /** An element longer than this is refused (it would have to be held whole). */
    private readonly maxLength: number,
    private readonly tooLong: () => Error,
  ) {
    this.open = `<${tag}`;
    this.close = `</${tag}>`;
  }

  push(chunk: string): void {
    if (this.done) return;
    let text = chunk;
    if (this.pieces) {
      // The end tag may straddle the pieces: look in the held text's last few characters too.
      // Searched apart from the new text: the two joined would be flattened into a copy of the
      // whole chunk (a megabyte) at every chunk (issue 33: most of the import's garbage).
      const carry = this.tail;
      const edge = carry + text.slice(0, this.close.length - 1);
      const straddles = edge.indexOf(this.close);
      const inText = straddles < 0 ? text.indexOf(this.close) : -1;
      const hit = straddles >= 0 ? straddles : inText < 0 ? -1 : inText + carry.length;
      if (hit < 0) {
        this.pieces.push(text);
        this.piecesLength += text.length;
        const keep = this.close.length - 1;
        this.tail = text.length >= keep ? text.slice(-keep) : (carry + text).slice(-keep);
        if (this.piecesLength > this.maxLength) throw this.tooLong();
        return;
      }
      const through = hit + this.close.length - carry.length;
      const whole = this.pieces.join('') + text.slice(0, through);
      this.pieces = null;
      this.onElement(whole.slice(0, whole.length - this.close.length), whole.indexOf('>'), false);
      text = text.slice(through);
    }
    const buf = this.buffer + text;
    this.buffer = '';
    const { open, close } = this;
    let at = 0;
    for (;;) {
      const start = buf.indexOf(open, at);
      // Reading stops at the end tag before the next element. Elements mostly follow one another
      // with nothing between, so only a gap is searched (issue 33: the whole chunk was searched
      // for it, once more than the elements themselves).
      if (
        start !== at &&
        (start < 0 ? buf.indexOf(this.endTag, at) : buf.slice(at, start).indexOf(this.endTag)) >= 0
      ) {
        this.done = true;
        return;
      }
      if (start < 0) {
        // A tag may be cut at the chunk's end: keep its possible beginning.
        this.buffer = buf.slice(Math.max(at, buf.length - Math.max(open.length, this.endTag.length)));
        return;
      }
      if (start + open.length >= buf.length) {
        this.buffer = buf.slice(start);
        return;
      }
      const after = buf.charCodeAt(start + open.length);
      if (after !== 32 && after !== 62 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
        at = start + open.length;
        continue;
      }
      const tagEnd = buf.indexOf('>', start);
      if (tagEnd < 0) {
        this.buffer = buf.slice(start);
        if (this.buffer.length > this.maxLength) throw this.tooLong();
        return;
      }
      if (buf.charCodeAt(tagEnd - 1) === 47) {
        this.onElement(buf.slice(start, tagEnd + 1), tagEnd - start, true);
        at = tagEnd + 1;
        continue;
      }
      const stop = buf.indexOf(close, tagEnd);
      if (stop < 0) {
        this.pieces = [buf.slice(start)];
        this.piecesLength = buf.length - start;
        this.tail = buf.slice(Math.max(start, buf.length - (close.length - 1)));
        if (this.piecesLength > this.maxLength) throw this.tooLong();
        return;
      }
      this.onElement(buf.slice(start, stop), tagEnd - start, false);
      at = stop + close.length;
    }
  }
}

/** The value of the first attribute `name` in a start tag's text (to its closing quote). */
export const attr = (tag: string, name: string): string | undefined => {
  const at = tag.indexOf(` ${name}="`);
  if (at < 0) return undefined;
  const from = at + name.length + 3;
  return tag.slice(from, tag.indexOf('"', from));
};

/** The shared-strings table, refused past `maxSharedStrings` entries. */
export class SharedStringsReader {
  readonly strings: string[] = [];
  private readonly elements: ElementStream;

  private length = 0;

  constructor(private readonly limits: Pick<WorkbookLimits, 'maxSharedStrings' | 'maxSharedStringsBytes'>) {
    this.elements = new ElementStream(
      'si',
      (xml, _tagEnd, selfClosed) => {
        if (this.strings.length >= limits.maxSharedStrings) throw refuse.strings(limits.maxSharedStrings);
        this.strings.push(selfClosed ? '' : runText(xml));
      },
      '</sst>',
      limits.maxSharedStringsBytes,
      () => refuse.stringBytes(limits.maxSharedStringsBytes),
    );
  }

  push(text: string): void {
    this.length += text.length;
    if (this.length > this.limits.maxSharedStringsBytes)
      throw refuse.stringBytes(this.limits.maxSharedStringsBytes);
    this.elements.push(text);
  }
}

const found = { refAt: -1, typeAt: -1 };

/**
 * Where the values of a cell's `r` and `t` attributes start within its start tag (`xml` from
 * `start` to `end`, its `>`); -1 when absent. The first ` r="` and ` t="` count, as a search of
 * the tag's text would find them. One object answers every call: read it at once.
 */
function cellAttrs(xml: string, start: number, end: number): { refAt: number; typeAt: number } {
  let refAt = -1;
  let typeAt = -1;
  for (let i = start + 2; i < end - 3; i++) {
    if (xml.charCodeAt(i) !== 32 || xml.charCodeAt(i + 2) !== 61 || xml.charCodeAt(i + 3) !== 34) continue;
    const name = xml.charCodeAt(i + 1);
    if (name === 114 /* r */ && refAt < 0) refAt = i + 4;
    else if (name === 116 /* t */ && typeAt < 0) typeAt = i + 4;
  }
  found.refAt = refAt;
  found.typeAt = typeAt;
  return found;
}

/**
 * A value of only digits (an optional minus first), at most 15 of them, read where it lies: what
 * `Number` gives for its text, exactly (below 2^53 each step is exact). Anything else (a point,
 * an exponent, spaces, nothing): undefined, for `Number` to read.
 */
function wholeNumber(xml: string, from: number, to: number): number | undefined {
  const negative = xml.charCodeAt(from) === 45;
  const first = negative ? from + 1 : from;
  if (to <= first || to - first > 15) return undefined;
  let n = 0;
  for (let i = first; i < to; i++) {
    const d = xml.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    n = n * 10 + d;
  }
  return negative ? -n : n;
}

/** The column of the cell reference at `at` ("AB12" -> 28; 0 when it has no letters). */
function columnAt(xml: string, at: number): number {
  let n = 0;
  for (let i = at; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return n;
}

export interface SheetRowSink {
  /**
   * One row; `cells[0]` is column A. Cells right of `width()` are left out. The array may be the
   * reader's own, filled again for the next row: what is kept of it must be copied.
   */
  row(number: number, cells: RawOrIssue[]): void;
  /** How many columns the tab's header spans once known (undefined: keep every cell). */
  width(): number | undefined;
}

/** Cells read so far in the whole workbook (the cells limit spans tabs). */
export interface CellCount {
  cells: number;
}

/** One worksheet's rows, as the ZIP unpacks it. */
export class WorksheetReader {
  private readonly elements: ElementStream;
  private rowElements = 0;
  private lastRow = 0;

  constructor(
    private readonly sheet: string,
    private readonly strings: readonly string[],
    private readonly limits: WorkbookLimits,
    private readonly count: CellCount,
    private readonly sink: SheetRowSink,
  ) {
    this.elements = new ElementStream(
      'row',
      (xml, tagEnd, selfClosed) => this.onRow(xml, tagEnd, selfClosed),
      '</sheetData>',
      limits.maxRowBytes,
      () => refuse.rowBytes(sheet, limits.maxRowBytes),
    );
  }

  push(text: string): void {
    this.elements.push(text);
  }

  private onRow(xml: string, tagEnd: number, selfClosed: boolean): void {
    if (++this.rowElements > this.limits.maxRowElements)
      throw refuse.rows(this.sheet, this.limits.maxRowElements);
    const r = attr(xml.slice(0, tagEnd), 'r');
    const number = r !== undefined ? Number(r) : this.lastRow + 1;
    this.lastRow = number;
    if (selfClosed) return;
    const width = this.sink.width() ?? Infinity;
    const cells: RawOrIssue[] = [];
    let column = 0;
    let at = tagEnd;
    for (;;) {
      const start = xml.indexOf('<c', at);
      if (start < 0) break;
      const after = xml.charCodeAt(start + 2);
      if (after !== 32 && after !== 62 && after !== 47) {
        at = start + 2;
        continue;
      }
      const startEnd = xml.indexOf('>', start);
      if (startEnd < 0) break;
      // The reference and type are found in the start tag where it lies, with no string cut out
      // of it (issue 33: two strings per cell, millions of them, were a good part of the GC).
      const { refAt, typeAt } = cellAttrs(xml, start, startEnd);
      column = refAt >= 0 ? columnAt(xml, refAt) : column + 1;
      if (column > this.limits.maxColumns) {
        const ref = refAt >= 0 ? xml.slice(refAt, xml.indexOf('"', refAt)) : `row ${number}`;
        throw refuse.columns(this.sheet, ref, this.limits.maxColumns);
      }
      if (++this.count.cells > this.limits.maxCells) throw refuse.cells(this.limits.maxCells);
      if (xml.charCodeAt(startEnd - 1) === 47) {
        at = startEnd + 1;
        continue;
      }
      let stop = xml.indexOf('</c>', startEnd);
      if (stop < 0) stop = xml.length;
      at = stop + 4;
      if (column > width) continue;
      let value: RawOrIssue;
      if (typeAt < 0 && xml.startsWith('<v>', startEnd + 1)) {
        // The common cell, a plain number: <c r="B7"><v>12.5</v></c>.
        const vEnd = xml.indexOf('</v>', startEnd + 4);
        const whole = wholeNumber(xml, startEnd + 4, vEnd);
        if (whole !== undefined) value = whole;
        else {
          value = numberValue(xml.slice(startEnd + 4, vEnd));
        }
      } else {
        const type = typeAt >= 0 ? xml.slice(typeAt, xml.indexOf('"', typeAt)) : 'n';
        value = cellValue(type, xml.slice(startEnd + 1, stop), this.strings);
      }
      if (value !== null) {
        while (cells.length < column - 1) cells.push(null);
        cells[column - 1] = value;
      }
    }
    this.sink.row(number, cells);
  }
}

/**
 * A cell's value from its type (`t`, 'n' when absent) and its text between its start and end tags:
 * the way every reader of cells (this one and `sheet-bytes.ts`, for a cell out of its common shapes)
 * reads them.
 */
export function cellValue(type: string, inner: string, strings: readonly string[]): RawOrIssue {
  if (type === 'inlineStr') return runText(inner);
  const vOpen = inner.indexOf('<v');
  let v: string | undefined;
  if (vOpen >= 0) {
    const vStart = inner.indexOf('>', vOpen) + 1;
    if (inner.charCodeAt(vStart - 2) !== 47) v = inner.slice(vStart, inner.indexOf('</v>', vStart));
  }
  if (v === undefined) {
    return /<f[\s>/]/.test(inner)
      ? {
          unreadable:
            'The cell holds a formula without a saved result; open and save the workbook in Excel so the values are computed',
        }
      : null;
  }
  switch (type) {
    case 's': {
      const s = strings[Number(v)];
      return s ?? { unreadable: 'The cell refers to a text the workbook does not hold' };
    }
    case 'str':
      return decodeXml(v);
    case 'b':
      return v.trim() === '1' || v.trim().toLowerCase() === 'true';
    case 'e':
      return { unreadable: `The cell shows the error ${decodeXml(v)}` };
    case 'd':
      return new Date(v);
    default:
      return numberValue(v);
  }
}

/** A number cell's `<v>` text as `Number` reads it; blank is empty. */
export function numberValue(v: string): RawOrIssue {
  if (v.trim() === '') return null;
  const n = Number(v);
  return Number.isNaN(n) ? { unreadable: 'The cell shows an error value' } : n;
}
