import yauzl from 'yauzl';
import { refuse, WorkbookError } from './workbook-limits';

/**
 * The parts of an XLSX (a ZIP) read by name, in any order, each unpacked as a stream and counted: the
 * whole book may not unpack to more than `maxUnpackedBytes`. The sizes the archive declares are
 * checked before anything is inflated; yauzl stops a part that unpacks to more than it declared, so a
 * lying header cannot get past the count either.
 */
export class ZipParts {
  private unpacked = 0;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly maxUnpackedBytes: number,
  ) {}

  static async open(file: string, maxUnpackedBytes: number): Promise<ZipParts> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
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
    return new ZipParts(zip, entries, maxUnpackedBytes);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The part unpacked chunk by chunk (a worksheet is never held whole). */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) return;
    let stream;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw corrupt(error);
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.unpacked += chunk.length;
        if (this.unpacked > this.maxUnpackedBytes) throw refuse.unpacked(this.maxUnpackedBytes);
        yield chunk;
      }
    } catch (error) {
      throw error instanceof WorkbookError ? error : corrupt(error);
    } finally {
      stream.destroy();
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
