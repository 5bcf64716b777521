import { readFile } from 'node:fs/promises';
import { parseReadingsCsv, type ImportOptions, type ReadingsImport } from '../../shared/meters/import-rows';
import { checkSize } from '../workbook/read-workbook';
import { DEFAULT_MAX_IMPORT_BYTES, WorkbookError } from '../workbook/workbook-limits';

/**
 * A flat readings file from disk: refused by the workbooks' size limit before it is read, its text
 * decoded (a BOM dropped), its delimiter taken from the header line, then read by the shared reader.
 */
export async function readReadingsFile(
  path: string,
  options: ImportOptions,
  maxBytes = DEFAULT_MAX_IMPORT_BYTES,
): Promise<{ parsed: ReadingsImport; headers: string[] }> {
  await checkSize(path, maxBytes);
  const bytes = await readFile(path);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) {
    throw new WorkbookError(
      'not_xlsx',
      `${options.file}: readings are read from CSV for now; save the sheet as CSV (UTF-8) and import that.`,
    );
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const delimiter = delimiterOf(text);
  const parsed = parseReadingsCsv(text, delimiter, options);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return { parsed, headers: firstLine.split(delimiter).map((h) => h.trim().replace(/^"|"$/g, '')) };
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
