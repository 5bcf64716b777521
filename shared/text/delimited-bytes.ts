/**
 * Delimited text read from its UTF-8 bytes, a record at a time, with the records and fields of
 * `delimitedRecords` (delimited.ts) over the same text decoded: line ends CRLF, LF or CR, a field
 * quoted only from its first byte, `""` a quote inside it, a quoted field spanning line ends. A
 * record's fields are byte ranges, made a string only when asked (`text`): a file of a million
 * rows and ten columns is not ten million strings, and a caller may read a number or a date from
 * the bytes themselves. The delimiter, quote and line ends are ASCII, which never occur inside a
 * UTF-8 sequence, so cutting at them cuts the decoded text at the same places.
 */
import { UnterminatedQuoteError } from './delimited';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

const decoder = new TextDecoder('utf-8', { fatal: false });

export class DelimitedBytes {
  /** The current record's first `held` fields: bytes [starts[k], ends[k]), quotes included. */
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  /** 1 when the field starts with a quote (its text is unquoted when made). */
  private quotedFields = new Uint8Array(16);
  private pos: number;
  private readonly words: DataView;
  /** 1 for the bytes that end a field outside quotes: the delimiter and the line ends. */
  private readonly stops = new Uint8Array(256);
  private recordStart = 0;
  private recordEnd = 0;
  /** Fields of the current record held (at most `keep`). */
  held = 0;
  /** Fields of the current record. */
  fields = 0;
  /**
   * The current record's first fields that are, byte for byte, those of the record before it
   * (which started at `previousStart`).
   */
  sameFields = 0;
  previousStart = -1;

  /**
   * `from`: where the records start (after a BOM); `keep`: how many of a record's first fields are
   * held (a caller reading five columns of fifty scans the rest only for their record's end).
   */
  constructor(
    readonly bytes: Uint8Array,
    private readonly delimiter: number,
    from = 0,
    private keep = Number.MAX_SAFE_INTEGER,
  ) {
    this.pos = from;
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.stops[delimiter] = 1;
    this.stops[LF] = 1;
    this.stops[CR] = 1;
  }

  /** From the next record on, hold only its first `keep` fields. */
  holdFirst(keep: number): void {
    this.keep = keep;
  }

  /** Moves to the next record; false at the end of the bytes. Throws UnterminatedQuoteError. */
  next(): boolean {
    const b = this.bytes;
    const n = b.length;
    const stops = this.stops;
    let i = this.pos;
    if (i >= n) return false;
    let starts = this.starts;
    let ends = this.ends;
    let quotedFields = this.quotedFields;
    const keep = this.keep;
    const delimiter = this.delimiter;
    let k = 0;
    // The bytes this record shares with the one before, from their starts: the fields that end (at
    // a delimiter) within them are the same fields, taken without a scan. A meter's attribute cells
    // repeat at the start of each of its rows, so most of a row is found this way.
    const previous = this.recordStart;
    if (this.fields > 0) {
      const limit = Math.min(this.recordEnd - previous, n - i);
      // Four bytes at a time, then one at a time.
      const words = this.words;
      let p = 0;
      while (p + 4 <= limit && words.getInt32(i + p) === words.getInt32(previous + p)) p += 4;
      while (p < limit && b[i + p] === b[previous + p]) p++;
      const shift = i - previous;
      const held = Math.min(this.held, keep);
      while (k < held && (ends[k] as number) - previous < p && b[ends[k] as number] === delimiter) {
        starts[k] = (starts[k] as number) + shift;
        ends[k] = (ends[k] as number) + shift;
        k++;
      }
      if (k > 0) i = (ends[k - 1] as number) + 1;
    }
    this.sameFields = k;
    this.previousStart = previous;
    this.recordStart = this.pos;
    let c = 0;
    for (;;) {
      // One field from i: a quoted part if it opens with a quote, then a plain run to a delimiter
      // or a line end (a quote inside it is literal, as `delimitedRecords` reads it).
      const start = i;
      let quoted = 0;
      if (b[i] === QUOTE) {
        quoted = 1;
        i = closingQuote(b, i + 1) + 1;
      }
      while (i < n && stops[b[i] as number] === 0) i++;
      c = i < n ? (b[i] as number) : -1;
      if (k < keep) {
        if (k === starts.length) {
          this.grow();
          [starts, ends, quotedFields] = [this.starts, this.ends, this.quotedFields];
        }
        starts[k] = start;
        ends[k] = i;
        quotedFields[k] = quoted;
      }
      k++;
      if (c !== delimiter) break;
      i++;
      // A delimiter ending the bytes leaves one more, empty field (read as such by the loop).
    }
    this.recordEnd = i;
    // A line end ends the record (CRLF is one); the bytes' end ends the last.
    this.pos = c === -1 ? n : c === CR && b[i + 1] === LF ? i + 2 : i + 1;
    this.fields = k;
    this.held = Math.min(k, keep);
    return true;
  }

  /** Where the current record starts in the bytes. */
  get recordAt(): number {
    return this.recordStart;
  }

  /** Field k's first byte (its quote, if quoted); its end is `end(k)`. Only for k < held. */
  start(k: number): number {
    return this.starts[k] as number;
  }
  end(k: number): number {
    return this.ends[k] as number;
  }
  isQuoted(k: number): boolean {
    return this.quotedFields[k] === 1;
  }

  /** Field k's text as `delimitedRecords` gives it ('' past the record's last field). */
  text(k: number): string {
    if (k >= this.fields) return '';
    if (k >= this.held) return this.allTexts()[k] ?? '';
    const from = this.starts[k] as number;
    const to = this.ends[k] as number;
    // The record decoded once for all the texts asked of it; an ASCII record's fields are its slices.
    if (this.decodedAt !== this.recordStart) {
      const b = this.bytes;
      let ascii = true;
      for (let i = this.recordStart; i < this.recordEnd && ascii; i++) ascii = (b[i] as number) < 0x80;
      this.decoded = ascii ? decoder.decode(b.subarray(this.recordStart, this.recordEnd)) : null;
      this.decodedAt = this.recordStart;
    }
    const raw =
      this.decoded !== null
        ? this.decoded.slice(from - this.recordStart, to - this.recordStart)
        : decoder.decode(this.bytes.subarray(from, to));
    return this.quotedFields[k] === 1 ? unquote(raw) : raw;
  }
  private decoded: string | null = null;
  private decodedAt = -1;

  /** Every field's text of the current record (held or not). */
  allTexts(): string[] {
    const out: string[] = [];
    const raw = decoder.decode(this.bytes.subarray(this.recordStart, this.recordEnd));
    // The record's own bytes hold no line end outside quotes: its fields are those of one record.
    let k = 0;
    let field = '';
    let quoted = false;
    let atStart = true;
    const d = String.fromCharCode(this.delimiter);
    for (let i = 0; i < raw.length; i++) {
      const ch = raw[i] as string;
      if (quoted) {
        if (ch === '"') {
          if (raw[i + 1] === '"') {
            field += '"';
            i++;
          } else quoted = false;
        } else field += ch;
      } else if (ch === '"' && atStart) {
        quoted = true;
        atStart = false;
      } else if (ch === d) {
        out[k++] = field;
        field = '';
        atStart = true;
      } else {
        field += ch;
        atStart = false;
      }
    }
    out[k] = field;
    return out;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    const quoted = new Uint8Array(size);
    starts.set(this.starts);
    ends.set(this.ends);
    quoted.set(this.quotedFields);
    [this.starts, this.ends, this.quotedFields] = [starts, ends, quoted];
  }
}

/** The index of the quote closing a quoted part whose text starts at `i` (`""` is a quote inside). */
function closingQuote(b: Uint8Array, i: number): number {
  const n = b.length;
  for (;;) {
    if (i >= n) throw new UnterminatedQuoteError();
    if (b[i] === QUOTE) {
      if (b[i + 1] !== QUOTE) return i;
      i += 2;
    } else i++;
  }
}

/** A field's raw text (starting with its quote) as the field's value: quotes dropped, `""` one quote. */
function unquote(raw: string): string {
  let out = '';
  let quoted = true;
  for (let i = 1; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (quoted && ch === '"') {
      if (raw[i + 1] === '"') {
        out += '"';
        i++;
      } else quoted = false;
    } else out += ch;
  }
  return out;
}
