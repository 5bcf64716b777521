/**
 * A sheet's XML written straight into byte chunks as it is built, handed on as each one fills.
 * Building the XML as strings cost four to seven times the deflate (issue 33): every cell was a few
 * template strings, a whole piece of text was flattened and UTF-8-encoded again before the deflate,
 * and the garbage of both was collected. Here a cell's fixed parts are copied as bytes, integers are
 * written digit by digit, and only text that is not ASCII goes through `TextEncoder`.
 */

/** Bytes per chunk handed on: big enough that the per-chunk costs (a deflate call, a write) vanish. */
export const CHUNK_BYTES = 1 << 18;

const encoder = new TextEncoder();

/**
 * Chunks already packed, to be written again (issue 33): a fresh 256 kB array per chunk was 108 MB
 * outside V8's heap per export of 10,000 assets, and that much new outside memory made V8 run a full
 * collection every 10-20 MB of it, each marking every live object (the assets among them): 0.2-0.5 s
 * of the collector's threads per export, as much as the deflate. A few dozen chunks are in flight.
 */
const spare: Uint8Array[] = [];
const MAX_SPARE = 64;

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

export class XmlBytes {
  private chunk = newChunk();
  private at = 0;

  /** `full` takes each filled chunk (its own array: it is never written again). */
  constructor(private readonly full: (chunk: Uint8Array) => void) {}

  /** Bytes written and not yet handed on. */
  get pending(): number {
    return this.at;
  }

  /** Room for `n` more bytes in the current chunk (n <= CHUNK_BYTES). */
  private room(n: number): void {
    if (this.at + n > CHUNK_BYTES) this.handOn();
  }

  /** Hands on what is written so far, if anything, and starts a new chunk. */
  handOn(): void {
    if (this.at === 0) return;
    const chunk = this.chunk.subarray(0, this.at);
    this.chunk = newChunk();
    this.at = 0;
    this.full(chunk);
  }

  /** What is written and not handed on yet, taken out (the end of a part). */
  take(): Uint8Array {
    const chunk = this.chunk.subarray(0, this.at);
    this.chunk = newChunk();
    this.at = 0;
    return chunk;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < n; i++) chunk[at++] = b[i]!;
    this.at = at;
  }

  /**
   * A cell's start: its reference's letters, its row number, and its style's fixed text, behind one
   * check for room (three calls of `bytes`, each checked, cost more: the row is too big for V8 to
   * inline them all).
   */
  cellStart(open: Uint8Array, row: Uint8Array, middle: Uint8Array): void {
    if (this.at + open.length + row.length + middle.length > CHUNK_BYTES) {
      // A chunk's end: piece by piece, so the chunks (and the deflated pieces) end where they did.
      this.bytes(open);
      this.bytes(row);
      this.bytes(middle);
      return;
    }
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < open.length; i++) chunk[at++] = open[i]!;
    for (let i = 0; i < row.length; i++) chunk[at++] = row[i]!;
    for (let i = 0; i < middle.length; i++) chunk[at++] = middle[i]!;
    this.at = at;
  }

  /** A non-negative integer below 2^31, digit by digit (what `String(n)` gives). */
  private smallInt(n: number): void {
    this.room(10);
    const chunk = this.chunk;
    // `| 0` and a multiply in place of `%` keep the digits in integer arithmetic, whatever V8 holds
    // the number as (a double's `%` is a call, not an instruction).
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

  /**
   * Text that needs no escaping, written as it is if it is printable ASCII without `&<>"` (most of
   * a book's text): false, with nothing written, otherwise. One pass over the text instead of the
   * escaper's two regular expressions and then the copy.
   */
  plainText(s: string): boolean {
    const n = s.length;
    // No room: the caller's usual path, so the chunks end where they always did.
    if (this.at + n > CHUNK_BYTES) return false;
    const chunk = this.chunk;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c > 126 || c === 38 || c === 60 || c === 62 || c === 34) return false;
      chunk[at++] = c;
    }
    this.at = at;
    return true;
  }

  /** Any text, as UTF-8. */
  text(s: string): void {
    const n = s.length;
    if (n * 3 > CHUNK_BYTES) {
      // Longer than a chunk could take in the worst case: encoded whole, copied in chunk-sized slices.
      const all = encoder.encode(s);
      for (let from = 0; from < all.length; from += CHUNK_BYTES)
        this.bytes(all.subarray(from, from + CHUNK_BYTES));
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
