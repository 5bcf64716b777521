import { open, stat } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { LISTS_MARKER } from '../../shared/workbook/write-workbook';
import { SheetParser, type ParsedSheet, type ParsedWorkbook, type RawOrIssue } from './sheet-parser';
import { errorMessage } from '../../shared/errors';

/** Default refusal size of an imported file; a setting of the app may change it. */
export const DEFAULT_MAX_IMPORT_BYTES = 40 * 1024 * 1024;
export const DEFAULT_MAX_ROWS = 100_000;

export type WorkbookErrorKind =
  'too_large' | 'not_xlsx' | 'truncated' | 'corrupt' | 'too_many_rows' | 'empty';

/** A file that cannot be imported at all; nothing was read into the workspace. */
export class WorkbookError extends Error {
  constructor(
    readonly kind: WorkbookErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WorkbookError';
  }
}

export interface ReadWorkbookOptions {
  /** Refused before parsing when the file is larger (default 40 MB). */
  maxBytes?: number;
  /** Data rows per tab (default 100,000). */
  maxRows?: number;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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
async function checkZipContainer(file: string, size: number): Promise<void> {
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

/** One exceljs cell value to a raw cell: formulas give their cached result, never their text. */
export function rawFromExcel(value: unknown): RawOrIssue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (typeof value === 'number' && Number.isNaN(value))
      return { unreadable: 'The cell shows an error value' };
    return value;
  }
  if (value instanceof Date) return value;
  if (typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if ('formula' in v || 'sharedFormula' in v) {
    if (!('result' in v) || v['result'] === undefined) {
      return {
        unreadable:
          'The cell holds a formula without a saved result; open and save the workbook in Excel so the values are computed',
      };
    }
    return rawFromExcel(v['result']);
  }
  if ('error' in v) return { unreadable: `The cell shows the error ${String(v['error'])}` };
  if (Array.isArray(v['richText'])) {
    return (v['richText'] as Array<{ text?: unknown }>).map((part) => String(part.text ?? '')).join('');
  }
  if (typeof v['text'] === 'string') return v['text'];
  return { unreadable: 'The cell holds a value of an unsupported kind' };
}

interface StreamRow {
  number: number;
  values: unknown;
}
interface StreamSheet extends AsyncIterable<StreamRow> {
  name?: string;
}

/**
 * Reads an asset workbook (ours, the service's export, or either edited in Excel) with the streaming
 * reader, tab by tab, into rows keyed by API variable name with typed values and per-cell errors.
 * Throws WorkbookError for a file that cannot be read at all.
 */
export async function readWorkbook(file: string, opts: ReadWorkbookOptions = {}): Promise<ParsedWorkbook> {
  const size = await checkSize(file, opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
  await checkZipContainer(file, size);
  const maxRows = opts.maxRows ?? DEFAULT_MAX_ROWS;
  const sheets: ParsedSheet[] = [];
  const issues: ParsedWorkbook['issues'] = [];
  // Styles are not needed: date columns take serials as dates, so the numFmt of a cell is irrelevant.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let sawSheet = false;
  try {
    for await (const worksheet of reader as unknown as AsyncIterable<StreamSheet>) {
      sawSheet = true;
      const date1904 = readDate1904(reader);
      const name = worksheet.name ?? 'Sheet';
      const parser = new SheetParser(name, { maxRows, date1904 });
      let listsTab = false;
      for await (const row of worksheet) {
        const values = Array.isArray(row.values) ? (row.values as unknown[]) : [];
        // The lists our export puts behind its dropdowns: reference data, not assets.
        if (row.number === 1 && values[1] === LISTS_MARKER) listsTab = true;
        if (listsTab) continue;
        // exceljs rows are 1-based: values[0] is always empty.
        const cells: RawOrIssue[] = new Array<RawOrIssue>(Math.max(0, values.length - 1));
        for (let i = 1; i < values.length; i++) cells[i - 1] = rawFromExcel(values[i]);
        parser.push(row.number, cells);
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
  } catch (error) {
    if (error instanceof WorkbookError) throw error;
    if (error instanceof RangeError)
      throw new WorkbookError('too_many_rows', error.message, { cause: error });
    throw new WorkbookError(
      'corrupt',
      `This workbook could not be read (${errorMessage(error)}). Open it in Excel, save it again as .xlsx and retry.`,
      { cause: error },
    );
  }
  if (!sawSheet) {
    throw new WorkbookError(
      'not_xlsx',
      'This file is a ZIP archive but not an Excel workbook: it has no worksheets.',
    );
  }
  if (sheets.length === 0) {
    throw new WorkbookError(
      'empty',
      'No tab of this workbook has the columns of the asset spreadsheet (the hidden row of variable names, or the usual labels).',
    );
  }
  return { format: 'xlsx', sheets, issues };
}

function readDate1904(reader: unknown): boolean {
  const props = (reader as { properties?: { model?: { date1904?: unknown } } }).properties;
  return props?.model?.date1904 === true;
}
