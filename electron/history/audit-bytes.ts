import { crc32 } from 'node:zlib';
import { nativeDeflate } from '../workbook/native-deflate';
import { ZipPassThrough } from 'fflate';

/**
 * The audit log's bytes: its times as text, its text as UTF-8 in large chunks, and a ZIP part
 * deflated in Node's thread pool. A million-change log is some 460 MB of sheet XML: what costs is
 * per row and per byte, so each of these does per row only what it must.
 */

const DAY = 86_400_000;
/** Year 10000: from there `toISOString` writes a sign and six digits. */
const FAR = 253_402_300_800_000;
const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
let day = NaN;
let dayText = '';

/**
 * "2026-03-03 10:04:05" (UTC), as `toISOString` gives it cut to the second. The log's times climb a
 * second at a time, so the date is worked out once a day and the clock from the seconds.
 */
export function timeText(at: number): string {
  if (!(at >= 0 && at < FAR)) return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
  const start = at - (at % DAY);
  if (start !== day) {
    day = start;
    dayText = `${new Date(start).toISOString().slice(0, 10)} `;
  }
  const second = Math.floor((at - start) / 1_000);
  const minute = Math.floor(second / 60);
  return `${dayText}${twoDigits[Math.floor(minute / 60)]}:${twoDigits[minute % 60]}:${twoDigits[second % 60]}`;
}

/** Characters gathered before they are encoded: long enough for few calls, short enough to stay flat. */
const GATHER = 32_768;

/**
 * Text encoded as UTF-8 into chunks of about `size` bytes. Rows are gathered into a short string
 * and encoded straight into the chunk: one long string joined of a page's rows would be flattened
 * and copied before it is encoded, the greater part of the cost at this volume.
 */
export class Utf8Chunks {
  private chunk: Buffer;
  private used = 0;
  private pending = '';

  constructor(private readonly size: number) {
    this.chunk = Buffer.allocUnsafe(size);
  }

  add(text: string): void {
    this.pending += text;
    if (this.pending.length >= GATHER) this.encode();
  }

  /**
   * Whether a chunk is full enough to hand on (checked after each row: a row under some 10,000
   * characters then never makes the chunk grow).
   */
  get full(): boolean {
    return this.used + this.pending.length * 3 + 32_768 > this.size;
  }

  /** The bytes so far (a chunk of its own: the next ones go into a new one). */
  take(): Uint8Array {
    this.encode();
    const out = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(this.size);
    this.used = 0;
    return out;
  }

  private encode(): void {
    const text = this.pending;
    this.pending = '';
    // A UTF-16 unit takes at most 3 bytes; a chunk without room for the text grows to hold it.
    if (this.used + text.length * 3 > this.chunk.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.size, this.used + text.length * 3));
      this.chunk.copy(bigger, 0, 0, this.used);
      this.chunk = bigger;
    }
    this.used += this.chunk.write(text, this.used, 'utf8');
  }
}

type Packed = { ok: true; bytes: Uint8Array; final: boolean } | { ok: false; error: unknown };

/**
 * A ZIP part whose chunks are deflated in libuv's thread pool (`nativeDeflate`, whose output buffer
 * holds a packed chunk whole, so a chunk takes one hop between main and the pool) while the caller
 * builds the next: on two cores the XML and the deflate share the work. At most `ahead` chunks are in flight, so memory
 * stays bounded; their packed bytes go to the ZIP in order. Not the asset workbook's `ZipOut`
 * (shared/workbook/zip-out.ts): that one packs a whole part before adding it, which for a
 * million-row log would hold every compressed sheet in memory; here a part streams to the file.
 */
export class PooledPart extends ZipPassThrough {
  private readonly inFlight: Array<Promise<Packed>> = [];

  constructor(
    name: string,
    private readonly ahead = 2,
  ) {
    super(name);
    this.compression = 8;
    this.crc = 0;
    this.size = 0;
  }

  /** fflate's own entry: the audit log writes through `write`, which may wait. */
  override push(): void {
    throw new Error('A pooled part is written through write()');
  }

  /** Queues `chunk` (the last one `final`); resolves once few enough are in flight. */
  async write(chunk: Uint8Array, final = false): Promise<void> {
    this.crc = crc32(chunk, this.crc);
    this.size += chunk.length;
    // Settled at once into a value: a failure waits here for its turn, never unhandled.
    this.inFlight.push(
      Promise.resolve(nativeDeflate.deflate(chunk, final)).then(
        (bytes): Packed => ({ ok: true, bytes, final }),
        (error: unknown): Packed => ({ ok: false, error }),
      ),
    );
    while (this.inFlight.length > (final ? 0 : this.ahead)) {
      const packed = await (this.inFlight.shift() as Promise<Packed>);
      if (!packed.ok) throw packed.error;
      this.ondata(null, packed.bytes as Uint8Array<ArrayBuffer>, packed.final);
    }
  }
}
