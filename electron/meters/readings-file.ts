import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { readingsRows, type ImportOptions, type ReadingsImport } from '../../shared/meters/import-rows';
import { readReadingsWorkbook } from './readings-xlsx';
import { delimitedRecords, UnterminatedQuoteError } from '../../shared/text/delimited';
import { checkSize } from '../workbook/read-workbook';
import { DEFAULT_MAX_IMPORT_BYTES } from '../workbook/workbook-limits';

/** A large CSV's bytes kept by a preview, deflated off main's thread (zlib's pool): 130 MB are ~20 MB. */
export const deflated = (bytes: Buffer): Promise<Buffer> => promisify(deflateRaw)(bytes, { level: 1 });
export const inflated = promisify(inflateRaw);

/** A CSV this large stays bytes: read in slices by `parseReadingsBytes`, never one string. */
const BYTES_FROM = 4 * 1024 * 1024;

/**
 * A flat readings file from disk: refused by the import's size limit before it is read, its text
 * decoded (a BOM dropped). The preview keeps what was read, so a corrected mapping or day/month
 * order reads it again without the file (an upload is deleted once read). A large CSV stays bytes
 * (`csv`): 1.44 M readings are 130 MB, which as one string would sit beside the readings parsed
 * from it; it is decoded a slice (256 KB) at a time as it is parsed.
 */
export async function loadReadings(
  path: string,
  file: string,
  maxBytes = DEFAULT_MAX_IMPORT_BYTES,
): Promise<{ text: string } | { csv: Buffer } | { rows: string[][]; meterRows: string[][] | null }> {
  await checkSize(path, maxBytes);
  const bytes = await readFile(path);
  // A workbook (.xlsx, our export's Readings tab or the analyst's sheet): its rows as text.
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50)
    return await readReadingsWorkbook(path, file);
  const head = bytes
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (bytes.length >= BYTES_FROM && !/^\s*</.test(head)) return { csv: bytes };
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '') };
}

/** A large CSV's bytes read by the shared reader, decoded a slice at a time (as steps). */
export function* parseReadingsBytes(
  bytes: Buffer,
  options: ImportOptions,
): Generator<void, { parsed: ReadingsImport; headers: string[] }> {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lineEnd = bytes.indexOf(0x0a, start);
  const firstLine = bytes.subarray(start, lineEnd < 0 ? bytes.length : lineEnd).toString('utf8');
  const delimiter = delimiterOf(firstLine);
  const first = delimitedRecords(firstLine, { delimiter }).next();
  const parsed = yield* readingsRows(recordsOfBytes(bytes, start, delimiter), options);
  return { parsed, headers: first.done ? [] : first.value.map((h) => h.trim()) };
}

/**
 * The records of CSV bytes, read 256 KB at a time (a slice is decoded and split in one task of
 * main, so it is kept short): each slice ends at a line end outside any quoted value (a slice whose
 * last value is still open is taken on to the next line end and read again), so the records are
 * those of the whole text, row for row.
 */
function* recordsOfBytes(bytes: Buffer, from: number, delimiter: string): Generator<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let start = from;
  while (start < bytes.length) {
    let end = start + SLICE_BYTES;
    for (;;) {
      const newline = end >= bytes.length ? -1 : bytes.indexOf(0x0a, end);
      end = newline < 0 ? bytes.length : newline + 1;
      const text = decoder.decode(bytes.subarray(start, end));
      try {
        const records = [...delimitedRecords(text, { delimiter })];
        start = end;
        yield* records;
        break;
      } catch (error) {
        if (!(error instanceof UnterminatedQuoteError) || end >= bytes.length) throw error;
      }
    }
  }
}
const SLICE_BYTES = 256 * 1024;

/** A workbook's rows read by the shared reader, the first being its header (as steps: see readingsRows). */
export function* parseReadingsTable(
  rows: readonly string[][],
  options: ImportOptions,
): Generator<void, { parsed: ReadingsImport; headers: string[] }> {
  const parsed = yield* readingsRows(rows, options);
  return { parsed, headers: (rows[0] ?? []).map((h) => h.trim()) };
}

/** The text read by the shared reader, its delimiter taken from the header line (as steps). */
export function* parseReadingsText(
  text: string,
  options: ImportOptions,
): Generator<void, { parsed: ReadingsImport; headers: string[] }> {
  const delimiter = delimiterOf(text);
  const parsed = yield* readingsRows(delimitedRecords(text, { delimiter }), options);
  const first = delimitedRecords(text, { delimiter }).next();
  return { parsed, headers: first.done ? [] : first.value.map((h) => h.trim()) };
}

/** The header line's most frequent of comma, semicolon and tab (a European Excel writes `;`). */
export function delimiterOf(text: string): string {
  const end = text.search(/\r?\n/);
  const line = end < 0 ? text : text.slice(0, end);
  let best = ',';
  let count = -1;
  for (const candidate of [',', ';', '\t']) {
    const n = line.split(candidate).length - 1;
    if (n > count) {
      best = candidate;
      count = n;
    }
  }
  return best;
}
