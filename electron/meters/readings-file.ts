import { readFile } from 'node:fs/promises';
import { readingsRows, type ImportOptions, type ReadingsImport } from '../../shared/meters/import-rows';
import { readReadingsWorkbook } from './readings-xlsx';
import { delimitedRecords } from '../../shared/text/delimited';
import { checkSize } from '../workbook/read-workbook';
import { DEFAULT_MAX_IMPORT_BYTES } from '../workbook/workbook-limits';

/**
 * A flat readings file from disk: refused by the workbooks' size limit before it is read, its text
 * decoded (a BOM dropped). The text is kept by the preview, so a corrected mapping or day/month
 * order reads it again without the file (an upload is deleted once read).
 */
export async function loadReadings(
  path: string,
  file: string,
  maxBytes = DEFAULT_MAX_IMPORT_BYTES,
): Promise<{ text: string } | { rows: string[][]; meterRows: string[][] | null }> {
  await checkSize(path, maxBytes);
  const bytes = await readFile(path);
  // A workbook (.xlsx, our export's Readings tab or the analyst's sheet): its rows as text.
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50)
    return await readReadingsWorkbook(path, file);
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '') };
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
