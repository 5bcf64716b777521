import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import {
  readingsRecords,
  readingsRows,
  type ImportOptions,
  type ReadingsImport,
} from '../../shared/meters/import-rows';
import { bytesRecords } from '../../shared/meters/import-records';
import { readReadingsWorkbook } from './readings-xlsx';
import { delimitedRecords } from '../../shared/text/delimited';
import { notFound } from '../../shared/errors';
import { checkSize } from '../workbook/read-workbook';
import { DEFAULT_MAX_IMPORT_BYTES } from '../workbook/workbook-limits';

/** A large CSV's bytes kept by a preview, deflated off main's thread (zlib's pool): 130 MB are ~20 MB. */
export const deflated = (bytes: Buffer): Promise<Buffer> => promisify(deflateRaw)(bytes, { level: 1 });
export const inflated = promisify(inflateRaw);

/** A preview's bytes back from their deflating (`deflated`); bytes that could not be are a preview gone. */
export async function unpacked(packed: Promise<Buffer>): Promise<Buffer> {
  const bytes = await packed.catch(() => null);
  if (bytes === null) throw notFound('That preview is gone: choose the file again.');
  return await inflated(bytes);
}

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

/**
 * A large CSV's bytes read by the shared reader from the bytes themselves (import-records.ts): no
 * decoded copy of the file, and a cell made a string only when it must be (as steps).
 */
export function* parseReadingsBytes(
  bytes: Uint8Array,
  options: ImportOptions,
): Generator<void, { parsed: ReadingsImport; headers: string[] }> {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lineEnd = bytes.indexOf(0x0a, start);
  const firstLine = new TextDecoder().decode(bytes.subarray(start, lineEnd < 0 ? bytes.length : lineEnd));
  const records = bytesRecords(bytes, delimiterOf(firstLine), start);
  // Rows about as long as the first after the header (a row of readings is at least 40 bytes).
  const second = lineEnd < 0 ? -1 : bytes.indexOf(0x0a, lineEnd + 1);
  const rowsGuess = Math.ceil(((bytes.length - start) / Math.max(40, second - lineEnd)) * 1.05);
  const parsed = yield* readingsRecords(records, { ...options, rowsGuess });
  return { parsed, headers: records.header.map((h) => h.trim()) };
}

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
