import { Deflate, Zip, ZipPassThrough } from 'fflate';

/** Where the file's bytes go, in order (a Node `FileHandle` is one). */
export interface ByteSink {
  /** Takes `chunk`'s bytes before it settles: the writer may fill `chunk` with others after. */
  write(chunk: Uint8Array): Promise<unknown>;
}

/**
 * Raw deflate of a part's pieces as one stream (`final` ends it), each piece packed on its own and
 * ending on a byte boundary: a host's native zlib packs several times faster than fflate's
 * JavaScript one (Node: a raw deflate with a sync flush per piece). It may answer later (a
 * promise): the writer builds on while pieces are packed in another thread.
 */
export interface RawDeflate {
  deflate(piece: Uint8Array, final: boolean): Uint8Array | Promise<Uint8Array>;
  /** CRC-32 of `piece` continuing from `previous` (the ZIP's checksum of the part). */
  crc32(piece: Uint8Array, previous: number): number;
  /**
   * A part's pieces packed as one deflate stream, with its checksum, when the host has one (Node's
   * zlib stream): preferred over `deflate`, whose pieces each start with an empty window and end in
   * a flush (issue 33: half again the floor's deflate CPU at 256 kB pieces).
   */
  part?(): PartPacking;
  /**
   * Settles after a turn of the host's event loop, when its packer works in another thread and is
   * handed its next piece only on such a turn (Node's zlib streams): the writer gives it one every
   * few rows. Absent: packing needs no turn.
   */
  turn?(): Promise<void>;
}

/**
 * Deflate level 1: the sheets are repetitive XML, so it already packs them about 5:1, at several
 * times the speed of the default level.
 */
const LEVEL = 1;

/** A part's checksum, size and deflated pieces, once all of them are packed. */
export interface Packed {
  crc: number;
  size: number;
  pieces: Uint8Array[];
}

/** One part being packed as its pieces come (several parts may be packed side by side). */
export interface PartPacking {
  push(piece: Uint8Array, final: boolean): void;
  /**
   * Settles when few enough pieces pushed so far wait to be packed (a writer waits on it now and
   * then to bound memory, and so lets a packer in another thread take its next piece).
   */
  settled(): Promise<void>;
  packed(): Promise<Packed>;
}

const crcTable = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 in JavaScript, for hosts without a native one (the sandbox's fflate path). */
function crc32(piece: Uint8Array, previous: number): number {
  let c = ~previous;
  for (let i = 0; i < piece.length; i++) c = crcTable[(c ^ piece[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function nativePacking(deflate: RawDeflate): PartPacking {
  if (deflate.part) return deflate.part();
  let crc = 0;
  let size = 0;
  const pieces: (Uint8Array | Promise<Uint8Array>)[] = [];
  let last: Promise<unknown> = Promise.resolve();
  return {
    push(piece, final) {
      crc = deflate.crc32(piece, crc);
      size += piece.length;
      const out = deflate.deflate(piece, final);
      if (!(out instanceof Uint8Array)) {
        // Awaited by `settled` or `packed`; until then a failure must not count as unhandled.
        out.catch(() => undefined);
        last = out;
      }
      pieces.push(out);
    },
    settled: async () => {
      await last;
    },
    packed: async () => ({ crc, size, pieces: await Promise.all(pieces) }),
  };
}

function fflatePacking(): PartPacking {
  let crc = 0;
  let size = 0;
  const pieces: Uint8Array[] = [];
  const stream = new Deflate({ level: LEVEL }, (chunk) => pieces.push(chunk));
  return {
    push(piece, final) {
      crc = crc32(piece, crc);
      size += piece.length;
      stream.push(piece, final);
    },
    settled: async () => undefined,
    packed: async () => ({ crc, size, pieces }),
  };
}

/** A part whose bytes are already deflated; fflate writes the ZIP's headers around them. */
class PackedPart extends ZipPassThrough {
  constructor(name: string, { crc, size }: Packed) {
    super(name);
    this.compression = 8;
    this.crc = crc;
    this.size = size;
  }

  emit(pieces: readonly Uint8Array[]): void {
    pieces.forEach((piece, i) =>
      // Deflated bytes sit over a plain ArrayBuffer (Node's Buffer pool or fflate's own), never a shared one.
      this.ondata(null, piece as Uint8Array<ArrayBuffer>, i === pieces.length - 1),
    );
  }
}

/**
 * Bytes per write to the sink at most, where the ZIP gives many small chunks (a part's header, then
 * each packed piece of ~40 kB): written one by one, an export of 10,000 assets made 535 writes,
 * each a round trip through the thread pool after the last row was built (issue 33: 20-45 ms of
 * its end on a loaded machine); joined, a handful.
 */
const WRITE_BYTES = 1 << 22;

/**
 * `chunks` in order, each run of them up to `WRITE_BYTES` joined into `into` (a lone chunk as it
 * is): each batch must be consumed before the next is asked for. One array is filled again and
 * again: a new one per batch was 17 MB of fresh memory per export, its page faults and zeroing
 * costing main several times the copy (issue 33).
 */
function* batches(chunks: readonly Uint8Array[], into: Uint8Array): Generator<Uint8Array> {
  for (let from = 0; from < chunks.length;) {
    let to = from + 1;
    let size = chunks[from]!.length;
    while (to < chunks.length && size + chunks[to]!.length <= WRITE_BYTES) size += chunks[to++]!.length;
    if (to === from + 1) yield chunks[from]!;
    else {
      const batch = into.subarray(0, size);
      for (let at = 0; from < to; from++) {
        batch.set(chunks[from]!, at);
        at += chunks[from]!.length;
      }
      yield batch;
    }
    from = to;
  }
}

/**
 * The ZIP being written: parts are packed (side by side if need be) and then go in one after
 * another, in the order `add` is called; compressed bytes queue for the sink.
 */
export class ZipOut {
  private readonly zip: Zip;
  private queued: Uint8Array[] = [];
  private queuedBytes = 0;
  /** Where chunks are joined for a write (see `batches`). */
  private batch: Uint8Array | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly sink: ByteSink,
    private readonly deflate: RawDeflate | undefined,
  ) {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure = error;
      else {
        this.queued.push(chunk);
        this.queuedBytes += chunk.length;
      }
    });
  }

  /** A turn of the event loop, where the packer needs one (see `RawDeflate.turn`). */
  async turn(): Promise<void> {
    await this.deflate?.turn?.();
  }

  /** A new part's packing: push its pieces, then `add` it. */
  packing(): PartPacking {
    return this.deflate ? nativePacking(this.deflate) : fflatePacking();
  }

  /** A part, once packed, into the ZIP, and out to the sink. */
  async add(name: string, packing: PartPacking): Promise<void> {
    const packed = await packing.packed();
    const part = new PackedPart(name, packed);
    this.zip.add(part);
    part.emit(packed.pieces);
    // Small parts wait for the next: a write each was a round trip through the pool.
    if (this.queuedBytes >= WRITE_BYTES) await this.flush();
    else if (this.failure) throw this.failure;
  }

  /**
   * A part written whole. Deflated like the rest: a stored part behind a data descriptor has no
   * length any reader can find without the central directory (SheetJS, for one, cannot).
   */
  async small(name: string, bytes: Uint8Array): Promise<void> {
    const packing = this.packing();
    packing.push(bytes, true);
    await this.add(name, packing);
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunks = this.queued;
    this.queued = [];
    this.queuedBytes = 0;
    this.batch ??= new Uint8Array(WRITE_BYTES);
    for (const batch of batches(chunks, this.batch)) await this.sink.write(batch);
  }

  async end(): Promise<void> {
    this.zip.end();
    await this.flush();
  }
}
