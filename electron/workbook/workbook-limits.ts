/**
 * What an imported workbook may hold. A file's size on disk says little about the work it makes: a
 * 1.6 MB ZIP can unpack to a gigabyte of shared strings, and a 0.5 MB one can put a cell in column
 * XFD on 100,000 rows. Each limit is checked while reading, so a hostile book is refused as soon as
 * it crosses one, with a message naming that limit.
 */
import { UserFacingError } from '../../shared/errors';

export interface WorkbookLimits {
  /** The file on disk (a setting of the app may change it). */
  maxBytes: number;
  /** All parts of the ZIP, unpacked. */
  maxUnpackedBytes: number;
  /** Entries of the shared-strings table. */
  maxSharedStrings: number;
  /** The shared-strings table's XML, unpacked (it is held in memory while the sheets are read). */
  maxSharedStringsBytes: number;
  /** One row's XML (a row is read whole). */
  maxRowBytes: number;
  /** Data rows per tab (rows with a value). */
  maxRows: number;
  /** Row elements per tab, blank ones included (a book of millions of empty rows is refused). */
  maxRowElements: number;
  /** The rightmost column a cell may sit in. */
  maxColumns: number;
  /** Cells in the whole workbook. */
  maxCells: number;
}

/** Default refusal size of an imported file; a setting of the app may change it. */
export const DEFAULT_MAX_IMPORT_BYTES = 40 * 1024 * 1024;
export const DEFAULT_MAX_ROWS = 100_000;

/**
 * Our own export of 100,000 assets stays inside all of these; each is several times what an asset
 * workbook needs and well below what the app could not handle in a couple of seconds.
 */
export const defaultLimits: WorkbookLimits = {
  maxBytes: DEFAULT_MAX_IMPORT_BYTES,
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxSharedStrings: 2_000_000,
  maxSharedStringsBytes: 64 * 1024 * 1024,
  maxRowBytes: 16 * 1024 * 1024,
  maxRows: DEFAULT_MAX_ROWS,
  maxRowElements: 250_000,
  maxColumns: 4096,
  maxCells: 40_000_000,
};

export type WorkbookErrorKind =
  | 'too_large'
  | 'not_xlsx'
  | 'truncated'
  | 'corrupt'
  | 'too_many_rows'
  | 'too_many_columns'
  | 'too_many_cells'
  | 'too_many_strings'
  | 'unpacks_too_large'
  | 'empty';

/** A file that cannot be imported at all; nothing was read into the workspace. */
export class WorkbookError extends UserFacingError {
  constructor(
    readonly kind: WorkbookErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WorkbookError';
  }
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The refusals, one per limit, each saying which limit the book crossed. */
export const refuse = {
  unpacked: (limit: number): WorkbookError =>
    new WorkbookError(
      'unpacks_too_large',
      `This workbook unpacks to more than ${mb(limit)} (the limit for an import): it is refused. Remove unused tabs or rows in Excel and try again.`,
    ),
  strings: (limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_strings',
      `This workbook has more than ${count(limit)} distinct texts (the limit for an import): it is refused.`,
    ),
  stringBytes: (limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_strings',
      `The texts of this workbook unpack to more than ${mb(limit)} (the limit for an import): it is refused.`,
    ),
  rowBytes: (sheet: string, limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_cells',
      `A row of the tab "${sheet}" holds more than ${mb(limit)} (the limit for an import): it is refused.`,
    ),
  rows: (sheet: string, limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_rows',
      `The tab "${sheet}" has more than ${count(limit)} rows (the limit for an import).`,
    ),
  columns: (sheet: string, ref: string, limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_columns',
      `The tab "${sheet}" has a cell at ${ref}, beyond column ${count(limit)} (the limit for an import): it is refused.`,
    ),
  cells: (limit: number): WorkbookError =>
    new WorkbookError(
      'too_many_cells',
      `This workbook has more than ${count(limit)} cells (the limit for an import): it is refused.`,
    ),
};
