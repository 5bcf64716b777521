import { readFile } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createInflateRaw, type ZlibOptions } from 'node:zlib';
import yauzl from 'yauzl';
import { refuse, WorkbookError } from './workbook-limits';

/** Bytes per unpacked chunk: a megabyte keeps the per-chunk costs (stream hops, decoding) small. */
const UNPACK_CHUNK = 1 << 20;
/** Unpacked bytes the inflate may run ahead of the reader by (it unpacks in another thread). */
const UNPACK_AHEAD = 8 * UNPACK_CHUNK;
// Node's stream options reach the inflate's Transform, though ZlibOptions' type leaves them out.
const inflateOptions: ZlibOptions & { highWaterMark: number } = {
  chunkSize: UNPACK_CHUNK,
  highWaterMark: UNPACK_AHEAD,
};
const noop = (): void => undefined;
/** Packed bytes handed to the inflate at a time. */
const PACKED_SLICE = 1 << 20;

/**
 * The parts of an XLSX (a ZIP) read by name, in any order, each unpacked as a stream and counted: the
 * whole book may not unpack to more than `maxUnpackedBytes`. The sizes the archive declares are
 * checked before anything is inflated; yauzl stops a part that unpacks to more than it declared, so a
 * lying header cannot get past the count either.
 */
export class ZipParts {
  private unpacked = 0;

  private constructor(
    private readonly bytes: Buffer,
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly maxUnpackedBytes: number,
  ) {}

  /**
   * The file is read whole, once (issue 33: read through yauzl's file streams, a book of 16 MB took
   * a thousand reads of 16 kB, each a trip to the thread pool): callers refuse a file over the
   * import's size limit by its size first (`checkSize`), so at most that much is held.
   */
  static async open(file: string, maxUnpackedBytes: number): Promise<ZipParts> {
    let zip: yauzl.ZipFile;
    const bytes = await readFile(file);
    try {
      zip = await yauzl.fromBufferPromise(bytes, {
        lazyEntries: true,
        autoClose: false,
        strictFileNames: false,
      });
    } catch (error) {
      throw corrupt(error);
    }
    const entries = new Map<string, yauzl.Entry>();
    let declared = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: yauzl.Entry) => {
          declared += entry.uncompressedSize;
          if (declared > maxUnpackedBytes) return reject(refuse.unpacked(maxUnpackedBytes));
          entries.set(entry.fileName.replace(/^\//, ''), entry);
          zip.readEntry();
        });
        zip.on('end', () => resolve());
        zip.on('error', reject);
        zip.readEntry();
      });
    } catch (error) {
      zip.close();
      throw error instanceof WorkbookError ? error : corrupt(error);
    }
    return new ZipParts(bytes, zip, entries, maxUnpackedBytes);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * The bytes a part declares it unpacks to (0 when absent): a limit can be checked on it before
   * anything is inflated, since `chunks` refuses a part that unpacks to a byte more.
   */
  declaredSize(name: string): number {
    return this.entries.get(name)?.uncompressedSize ?? 0;
  }

  /**
   * The part unpacked chunk by chunk (a worksheet is never held whole). yauzl hands over the packed
   * bytes and our own inflate unpacks them in chunks of `UNPACK_CHUNK` (issue 33: yauzl's inflate
   * and size check passed 16 kB chunks through two streams, 6,600 hops for a 100 MB book, twice the
   * cost of the inflate itself). The part must unpack to exactly the size it declared, as yauzl
   * checked: a lying header is refused as soon as it gives a byte more.
   */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) return;
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
      throw corrupt(new Error(`unsupported compression method: ${entry.compressionMethod}`));
    let packed: Readable;
    try {
      if (entry.isEncrypted()) throw new Error('the part is encrypted');
      const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
      const end = fileDataStart + entry.compressedSize;
      if (end > this.bytes.length) throw new Error('the part runs past the end of the file');
      // Handed to the inflate a megabyte at a time (yauzl's own stream cut it into 64 kB pieces,
      // each a trip to the thread pool: issue 33).
      const slices: Buffer[] = [];
      for (let at = fileDataStart; at < end; at += PACKED_SLICE)
        slices.push(this.bytes.subarray(at, Math.min(end, at + PACKED_SLICE)));
      packed = Readable.from(slices, { objectMode: false });
    } catch (error) {
      throw corrupt(error);
    }
    const stream =
      entry.compressionMethod === 8 ? pipeline(packed, createInflateRaw(inflateOptions), noop) : packed;
    let got = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        got += chunk.length;
        if (got > entry.uncompressedSize)
          throw corrupt(new Error(`too many bytes in the stream: expected ${entry.uncompressedSize}`));
        this.unpacked += chunk.length;
        if (this.unpacked > this.maxUnpackedBytes) throw refuse.unpacked(this.maxUnpackedBytes);
        yield chunk;
      }
      if (got !== entry.uncompressedSize)
        throw corrupt(
          new Error(`not enough bytes in the stream: expected ${entry.uncompressedSize}, got ${got}`),
        );
    } catch (error) {
      throw error instanceof WorkbookError ? error : corrupt(error);
    } finally {
      stream.destroy();
      packed.destroy();
    }
  }

  /** A small part (workbook.xml, its relationships) as text; undefined when absent. */
  async text(name: string): Promise<string | undefined> {
    if (!this.entries.has(name)) return undefined;
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks(name)) parts.push(chunk);
    return Buffer.concat(parts).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

function corrupt(error: unknown): WorkbookError {
  const why = error instanceof Error ? error.message : String(error);
  return new WorkbookError(
    'corrupt',
    `This workbook could not be read (${why}). Open it in Excel, save it again as .xlsx and retry.`,
    { cause: error },
  );
}
