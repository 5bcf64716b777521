/**
 * A sheet's XML written straight into byte chunks as it is built, handed on as each one fills.
 * Building the XML as strings cost four to seven times the deflate (issue 33): every cell was a few
 * template strings, a whole piece of text was flattened and UTF-8-encoded again before the deflate,
 * and the garbage of both was collected. Here a cell's fixed parts are copied as bytes, integers are
 * written digit by digit, and only text that is not ASCII goes through `TextEncoder`.
 */

/**
 * Bytes per chunk handed on: big enough that the per-chunk costs (a deflate call, a write) vanish.
 * Each chunk is one write to a part's zlib stream, run by whichever thread of the pool is free:
 * at 256 kB a part's deflate cost its thread about a fifth more CPU than the floor's one call per
 * part, at 1 MB a few percent, and the export of 10,000 assets took 0.40-0.54 s where it took
 * 0.59-0.79 s (issue 33, timed beside its floor of 0.32-0.35 s on a quiet machine).
 */
export const CHUNK_BYTES = 1 << 20;

const encoder = new TextEncoder();

/**
 * Chunks already packed, to be written again (issue 33): a fresh array per chunk was 108 MB outside
 * V8's heap per export of 10,000 assets, and that much new outside memory made V8 run a full
 * collection every 10-20 MB of it, each marking every live object (the assets among them): 0.2-0.5 s
 * of the collector's threads per export, as much as the deflate. Two dozen chunks are in flight.
 */
const spare: Uint8Array[] = [];
const MAX_SPARE = 16;

/**
 * Gives back a chunk handed on by `XmlBytes` once its bytes are consumed (packed and copied out of):
 * only a packer that is done with `piece` may call it, and nobody may read `piece` after.
 */
export function recycleChunk(piece: Uint8Array): void {
  if (piece.byteOffset !== 0 || piece.buffer.byteLength !== CHUNK_BYTES || spare.length >= MAX_SPARE) return;
  spare.push(new Uint8Array(piece.buffer as ArrayBuffer));
}

const newChunk = (): Uint8Array => spare.pop() ?? new Uint8Array(CHUNK_BYTES);

/** ASCII text as bytes, for the fixed parts written for every cell. */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * Fixed ASCII text as little-endian 32-bit words, its last word padded, written a word at a time
 * (issue 33): copied byte by byte, a cell's fixed text cost 8 ns a byte in V8, more than all else
 * the build does; a word at a time through a `DataView` costs a third of that. Writing a piece may
 * leave up to 3 bytes of padding after its end, which whatever is written next overwrites.
 */
export class Piece {
  length = 0;
  readonly words: Int32Array;

  /** A piece of `text`, or room for up to `capacity` bytes (filled by `fill`). */
  constructor(text: string, capacity = text.length) {
    this.words = new Int32Array((capacity + 3) >> 2);
    this.fill(asciiBytes(text), text.length);
  }

  /** The piece made the first `n` bytes of `bytes` (n <= its capacity). */
  fill(bytes: Uint8Array, n: number): void {
    const { words } = this;
    words.fill(0);
    for (let i = 0; i < n; i++) words[i >> 2] = words[i >> 2]! | (bytes[i]! << ((i & 3) * 8));
    this.length = n;
  }
}

/** 00 to 99 as two ASCII digits, little-endian (the first digit in the low byte). */
const DIGIT_PAIRS = Int16Array.from(
  { length: 100 },
  (_, n) => (48 + ((n / 10) | 0)) | ((48 + (n % 10)) << 8),
);

/**
 * 0000 to 9999 as four ASCII digits in one little-endian word: a number's digits are written four
 * at a time from its end (issue 33: most of a book's numbers have 4 to 6 digits).
 */
const DIGIT_QUADS = Int32Array.from(
  { length: 10_000 },
  (_, n) => DIGIT_PAIRS[(n / 100) | 0]! | (DIGIT_PAIRS[n % 100]! << 16),
);

/** Bytes a piece's words may take beyond its length. */
const PAD = 3;

export class XmlBytes {
  private chunk = newChunk();
  private view = new DataView(this.chunk.buffer);
  private at = 0;

  /** `full` takes each filled chunk (its own array: it is never written again). */
  constructor(private readonly full: (chunk: Uint8Array) => void) {}

  /** Bytes written and not yet handed on. */
  get pending(): number {
    return this.at;
  }

  /** Room for `n` more bytes in the current chunk (n <= CHUNK_BYTES - PAD; more: a new chunk). */
  private room(n: number): void {
    if (this.at + n + PAD > CHUNK_BYTES) this.handOn();
  }

  private fresh(): void {
    this.chunk = newChunk();
    this.view = new DataView(this.chunk.buffer);
    this.at = 0;
  }

  /** Hands on what is written so far, if anything, and starts a new chunk. */
  handOn(): void {
    if (this.at === 0) return;
    const chunk = this.chunk.subarray(0, this.at);
    this.fresh();
    this.full(chunk);
  }

  /**
   * Hands on what is written so far by the very path a full chunk takes. A tab's writer calls it
   * once, after its header: the compiler then knows that path when it optimises the cell writers,
   * long before the first chunk fills (issue 33: meeting it only then, it threw the optimised
   * cell and row writers away and compiled them again, at every export).
   */
  handOnAsFull(): void {
    this.room(CHUNK_BYTES);
  }

  /** What is written and not handed on yet, taken out (the end of a part). */
  take(): Uint8Array {
    const chunk = this.chunk.subarray(0, this.at);
    this.fresh();
    return chunk;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    if (n > CHUNK_BYTES - PAD) {
      for (let from = 0; from < n; from += CHUNK_BYTES >> 1)
        this.bytes(b.subarray(from, from + (CHUNK_BYTES >> 1)));
      return;
    }
    this.room(n);
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < n; i++) chunk[at++] = b[i]!;
    this.at = at;
  }

  /** A piece's words at `at`; returns where its text ends (the caller checked for room). */
  private static put(view: DataView, at: number, p: Piece): number {
    const words = p.words;
    const n = (p.length + 3) >> 2;
    for (let i = 0; i < n; i++) view.setInt32(at + i * 4, words[i]!, true);
    return at + p.length;
  }

  /** A piece of fixed text. */
  piece(p: Piece): void {
    this.room(p.length);
    this.at = XmlBytes.put(this.view, this.at, p);
  }

  /**
   * A whole number's cell at once (nine in ten of a book's cells): `open` (the cell's start, `<c r="`
   * and the column's letters, after whatever close the cell before still needs), `start` (the row
   * number and the fixed text up to the value) and the digits, behind one check for room. Its
   * close is left to the next cell's `open` or the row's end. False, with nothing written, for a
   * number that is not an integer of 32 bits: the caller then writes it piece by piece.
   */
  intCell(open: Piece, start: Piece, n: number): boolean {
    if ((n | 0) !== n || n === -2147483648) return false;
    // 11: a sign and ten digits.
    this.room(open.length + start.length + 11);
    const view = this.view;
    let at = XmlBytes.put(view, this.at, open);
    at = XmlBytes.put(view, at, start);
    let v = n | 0;
    if (v < 0) {
      this.chunk[at++] = 45; // -
      v = -v;
    }
    const digits =
      v < 10_000
        ? v < 100
          ? v < 10
            ? 1
            : 2
          : v < 1000
            ? 3
            : 4
        : v < 1_000_000
          ? v < 100_000
            ? 5
            : 6
          : v < 100_000_000
            ? v < 10_000_000
              ? 7
              : 8
            : v < 1_000_000_000
              ? 9
              : 10;
    this.at = at + digits;
    let d = at + digits;
    // Four digits at a time from the end, then what is left (1 to 4 digits, no leading zero);
    // `| 0` and a multiply in place of `%` keep them in integer arithmetic.
    while (v >= 10_000) {
      const q = (v / 10_000) | 0;
      d -= 4;
      view.setInt32(d, DIGIT_QUADS[v - q * 10_000]!, true);
      v = q;
    }
    if (v >= 1000) view.setInt32(d - 4, DIGIT_QUADS[v]!, true);
    else if (v >= 100) {
      const q = (v / 100) | 0;
      view.setInt16(d - 2, DIGIT_PAIRS[v - q * 100]!, true);
      this.chunk[d - 3] = 48 + q;
    } else if (v >= 10) view.setInt16(d - 2, DIGIT_PAIRS[v]!, true);
    else this.chunk[d - 1] = 48 + v;
    return true;
  }

  /** A cell of fixed text at once: `open`, `start` and `value`, its close left (see `intCell`). */
  fixedCell(open: Piece, start: Piece, value: Piece): void {
    this.room(open.length + start.length + value.length);
    const view = this.view;
    let at = XmlBytes.put(view, this.at, open);
    at = XmlBytes.put(view, at, start);
    this.at = XmlBytes.put(view, at, value);
  }

  /**
   * A text cell at once when its text needs no escaping (printable ASCII without `&<>"`, most of a
   * book's text): `open`, `start` and the text, its close left (see `intCell`). False, with nothing
   * written, otherwise, or when the text is longer than a chunk could take.
   */
  plainTextCell(open: Piece, start: Piece, s: string): boolean {
    const n = s.length;
    const fixed = open.length + start.length;
    if (n + fixed + PAD > CHUNK_BYTES) return false;
    this.room(fixed + n);
    const view = this.view;
    const chunk = this.chunk;
    let at = XmlBytes.put(view, this.at, open);
    at = XmlBytes.put(view, at, start);
    // A text that needs escaping leaves nothing written: `this.at` has not moved.
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c > 126 || c === 38 || c === 60 || c === 62 || c === 34) return false;
      chunk[at++] = c;
    }
    this.at = at;
    return true;
  }

  /** A non-negative integer below 2^31, digit by digit (what `String(n)` gives). */
  private smallInt(n: number): void {
    this.room(10);
    const chunk = this.chunk;
    let v = n | 0;
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    let at = this.at + digits;
    this.at = at;
    do {
      const q = (v / 10) | 0;
      chunk[--at] = 48 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /** A finite number as `String(n)` writes it. */
  number(n: number): void {
    if (n >= 0 && n < 2147483648 && (n | 0) === n) this.smallInt(n);
    else if (n < 0 && n > -2147483648 && (n | 0) === n) {
      this.room(1);
      this.chunk[this.at++] = 45; // -
      this.smallInt(-n);
    } else this.text(String(n));
  }

  /** Any text, as UTF-8. */
  text(s: string): void {
    const n = s.length;
    if (n * 3 + PAD > CHUNK_BYTES) {
      // Longer than a chunk could take in the worst case: encoded whole, copied in slices.
      this.bytes(encoder.encode(s));
      return;
    }
    this.room(n);
    const chunk = this.chunk;
    const start = this.at;
    let at = start;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128) {
        // Not ASCII: the encoder writes it (up to 3 bytes per UTF-16 unit).
        this.at = start;
        this.room(n * 3);
        this.at += encoder.encodeInto(s, this.chunk.subarray(this.at)).written;
        return;
      }
      chunk[at++] = c;
    }
    this.at = at;
  }
}
