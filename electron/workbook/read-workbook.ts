import type { SchemeLists } from '../../shared/workbook/cells';
import { open, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { LISTS_MARKER } from '../../shared/workbook/write-workbook';
import { METERS_MARKER, READINGS_MARKER } from '../../shared/meters/workbook-tabs';
import { SOURCES_MARKER } from '../../shared/workbook/plain-sheet';
import {
  denseCells,
  SheetParser,
  type ParsedSheet,
  type ParsedWorkbook,
  type RowCells,
} from './sheet-parser';
import { WorksheetBytesReader } from './sheet-bytes';
import { decodeXml, SharedStringsReader, type CellCount } from './sheet-xml';
import { defaultLimits, mb, refuse, WorkbookError, type WorkbookLimits } from './workbook-limits';
import { ZipParts } from './zip-parts';

export { DEFAULT_MAX_IMPORT_BYTES, DEFAULT_MAX_ROWS, WorkbookError } from './workbook-limits';
export type { WorkbookErrorKind } from './workbook-limits';

/** Our own tabs that hold no assets, known by their hidden first row. */
const ownTabMarkers = new Set([LISTS_MARKER, METERS_MARKER, READINGS_MARKER, SOURCES_MARKER]);

export interface ReadWorkbookOptions extends Partial<WorkbookLimits> {
  /** Refused before parsing when the file is larger (default 40 MB). */
  maxBytes?: number;
  /** Data rows per tab (default 100,000). */
  maxRows?: number;
  /** The schemes certification and rating cells may name (default: the shipped lists). */
  schemes?: SchemeLists;
}

/** Refuses an oversized file by its size alone, before a byte of it is parsed. */
export async function checkSize(file: string, maxBytes: number): Promise<number> {
  const { size } = await stat(file);
  if (size > maxBytes) {
    throw new WorkbookError(
      'too_large',
      `The file is ${mb(size)}; files over ${mb(maxBytes)} are not imported. Split the workbook, or raise the import limit in the settings.`,
    );
  }
  return size;
}

const ZIP_LOCAL_HEADER = 0x04034b50;
const ZIP_END_OF_DIRECTORY = 0x06054b50;

/**
 * An XLSX is a ZIP: it starts with a local file header and ends with an end-of-central-directory
 * record. Checking both before parsing turns "not a workbook" and "cut off in transit" into clear
 * errors instead of a parser failing somewhere in the middle.
 */
export async function checkZipContainer(file: string, size: number): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (size < 22 || head.readUInt32LE(0) !== ZIP_LOCAL_HEADER) {
      throw new WorkbookError(
        'not_xlsx',
        'This file is not an Excel workbook (.xlsx). Save it as .xlsx or CSV and try again.',
      );
    }
    const tailLength = Math.min(size, 22 + 65_535);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    for (let i = tailLength - 22; i >= 0; i--) if (tail.readUInt32LE(i) === ZIP_END_OF_DIRECTORY) return;
    throw new WorkbookError(
      'truncated',
      'This workbook is incomplete (the file ends too early): it was probably cut off while copying or downloading. Get the file again.',
    );
  } finally {
    await handle.close();
  }
}

const notWorkbook = (): WorkbookError =>
  new WorkbookError(
    'not_xlsx',
    'This file is a ZIP archive but not an Excel workbook: it has no worksheets.',
  );

const sharedPart = (first: string, second: string): WorkbookError =>
  new WorkbookError(
    'corrupt',
    `The tabs "${first}" and "${second}" of this workbook point at the same worksheet, which Excel never writes: it is refused. Open it in Excel, save it again as .xlsx and retry.`,
  );

const attrOf = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** A relationship's target as a part name ("worksheets/sheet1.xml" beside xl/workbook.xml). */
function partName(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return posix.normalize(posix.join(posix.dirname(base), target));
}

interface BookParts {
  date1904: boolean;
  sheets: Array<{ name: string; part: string }>;
  sharedStrings: string | undefined;
}

export async function bookParts(zip: ZipParts): Promise<BookParts> {
  const rootRels = (await zip.text('_rels/.rels')) ?? '';
  const officeDoc = /<Relationship\b[^>]*\/officeDocument"[^>]*>/.exec(rootRels)?.[0];
  const bookPart = officeDoc ? partName('', attrOf(officeDoc, 'Target') ?? '') : 'xl/workbook.xml';
  const book = await zip.text(bookPart);
  if (book === undefined) throw notWorkbook();
  const relsPart = posix.join(posix.dirname(bookPart), '_rels', `${posix.basename(bookPart)}.rels`);
  const rels = new Map<string, { target: string; type: string }>();
  for (const m of ((await zip.text(relsPart)) ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attrOf(m[0], 'Id');
    const target = attrOf(m[0], 'Target');
    if (id && target)
      rels.set(id, { target: partName(bookPart, decodeXml(target)), type: attrOf(m[0], 'Type') ?? '' });
  }
  const pr = /<workbookPr\b[^>]*>/.exec(book)?.[0] ?? '';
  const d1904 = attrOf(pr, 'date1904');
  const sheets: BookParts['sheets'] = [];
  const tabOf = new Map<string, string>();
  for (const m of book.matchAll(/<sheet\b[^>]*>/g)) {
    const rid = attrOf(m[0], 'r:id') ?? /\s\w+:id="([^"]*)"/.exec(m[0])?.[1];
    const rel = rid ? rels.get(rid) : undefined;
    if (!rel || !zip.has(rel.target)) continue;
    const name = decodeXml(attrOf(m[0], 'name') ?? 'Sheet');
    // Excel gives every tab a part of its own. 5,000 tabs over one part unpacked it 5,000 times
    // (30.7 s, 2.2 GB) before a limit was crossed: a shared part is refused before any is read.
    const other = tabOf.get(rel.target);
    if (other !== undefined) throw sharedPart(other, name);
    tabOf.set(rel.target, name);
    sheets.push({ name, part: rel.target });
  }
  const stringsRel = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'));
  const sharedStrings =
    stringsRel?.target ?? (zip.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined);
  return { date1904: d1904 === '1' || d1904 === 'true', sheets, sharedStrings };
}

/** Streams a part's text into `push`, decoding UTF-8 across chunk edges. */
export async function feed(zip: ZipParts, part: string, push: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of zip.chunks(part)) push(decoder.decode(chunk, { stream: true }));
  push(decoder.decode());
}

const stringOpen = Buffer.from('<si');
/** After `<si`: `>`, space, tab, CR, LF or `/` (not another tag's name that starts so). */
const afterOpen = new Set([62, 32, 9, 13, 10, 47]);

/**
 * The shared-strings table's entries counted on its unpacked bytes before any is parsed (limits
 * before parsing): 2,000,001 one-letter texts took 1.5-2.2 s to reach the count limit by parsing
 * (cold, or at a load of 14), a native byte search through the same 34 MB a tenth of that. The part
 * is inflated twice (it counts twice toward the book's unpacked limit, at most 64 MB more).
 */
async function countStrings(zip: ZipParts, part: string, limit: number): Promise<void> {
  let count = 0;
  let carry: Buffer = Buffer.alloc(0);
  const counted = (bytes: Buffer, from: number, before: number): number => {
    let n = 0;
    for (
      let i = bytes.indexOf(stringOpen, from);
      i !== -1 && i < before;
      i = bytes.indexOf(stringOpen, i + 3)
    )
      if (i + 3 < bytes.length && afterOpen.has(bytes[i + 3]!)) n++;
    return n;
  };
  for await (const chunk of zip.chunks(part)) {
    // A `<si` cut by the chunk's edge: looked for in the last chunk's last 3 bytes and this one's first 3.
    count += counted(Buffer.concat([carry, chunk.subarray(0, 3)]), 0, carry.length);
    count += counted(chunk, 0, chunk.length - 3);
    if (count > limit) throw refuse.strings(limit);
    carry = chunk.subarray(Math.max(0, chunk.length - 3));
  }
}

/**
 * Reads an asset workbook (ours, the service's export, or either edited in Excel) part by part as it
 * unpacks, into rows keyed by API variable name with typed values and per-cell errors, within the
 * limits of `WorkbookLimits`. Throws WorkbookError for a file that cannot or may not be read.
 */
export async function readWorkbook(file: string, opts: ReadWorkbookOptions = {}): Promise<ParsedWorkbook> {
  const limits: WorkbookLimits = { ...defaultLimits, ...opts };
  const size = await checkSize(file, limits.maxBytes);
  await checkZipContainer(file, size);
  const zip = await ZipParts.open(file, limits.maxUnpackedBytes);
  const sheets: ParsedSheet[] = [];
  const issues: ParsedWorkbook['issues'] = [];
  try {
    const book = await bookParts(zip);
    if (book.sheets.length === 0) throw notWorkbook();
    const strings = new SharedStringsReader(limits);
    if (book.sharedStrings) {
      // A table declared past its limit is refused before a byte of it is inflated (a string bomb
      // of 80 MB took 0.3-2.9 s to reach the limit by parsing, more the more the heap held).
      if (zip.declaredSize(book.sharedStrings) > limits.maxSharedStringsBytes)
        throw refuse.stringBytes(limits.maxSharedStringsBytes);
      await countStrings(zip, book.sharedStrings, limits.maxSharedStrings);
      await feed(zip, book.sharedStrings, (t) => strings.push(t));
    }
    const count: CellCount = { cells: 0 };
    for (const { name, part } of book.sheets) {
      const parser = new SheetParser(name, {
        maxRows: limits.maxRows,
        date1904: book.date1904,
        ...(opts.schemes ? { schemes: opts.schemes } : {}),
      });
      let listsTab = false;
      const reader = new WorksheetBytesReader(name, strings.strings, limits, count, {
        width: () => parser.width(),
        row: (number: number, cells: RowCells) => {
          // The lists our export puts behind its dropdowns: reference data, not assets; so are the
          // meters' tabs (`asset_desk:meters`, `asset_desk:readings`), read by the readings import; and
          // the Sources tab (`asset_desk:sources`), what the history said when the book was written.
          if (number === 1) {
            const a1 = denseCells(cells)[0];
            if (typeof a1 === 'string' && ownTabMarkers.has(a1)) listsTab = true;
          }
          if (!listsTab) parser.pushCells(number, cells);
        },
      });
      try {
        for await (const chunk of zip.chunks(part)) reader.push(chunk);
      } catch (error) {
        if (error instanceof RangeError)
          throw new WorkbookError('too_many_rows', error.message, { cause: error });
        throw error;
      }
      if (listsTab) continue;
      const sheet = parser.finish();
      if (parser.recognised) {
        sheets.push(sheet);
        issues.push(...parser.issues);
      } else if (parser.issues.length > 0) {
        issues.push({
          sheet: name,
          row: 0,
          cell: '',
          reason: `The tab "${name}" has no column of the asset spreadsheet and is ignored`,
          severity: 'warning',
        });
      }
    }
  } finally {
    zip.close();
  }
  if (sheets.length === 0) {
    throw new WorkbookError(
      'empty',
      'No tab of this workbook has the columns of the asset spreadsheet (the hidden row of variable names, or the usual labels).',
    );
  }
  return { format: 'xlsx', sheets, issues };
}
