import type { SchemeLists } from '../../shared/workbook/cells';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { AssetInput } from '../../shared/domain';
import {
  delimitedRecords,
  formatDelimitedField,
  formatDelimitedRecord,
  RECORD_END,
  TooManyFieldsError,
  UnterminatedQuoteError,
  type WriteOptions,
} from '../../shared/text/delimited';
import { columnSpec, formulaTrigger, toCellValue } from '../../shared/workbook/cells';
import {
  workbookLayout,
  type ColumnSource,
  type LayoutOptions,
  type WorkbookColumn,
} from '../../shared/workbook/layout';
import { checkSize, DEFAULT_MAX_IMPORT_BYTES, DEFAULT_MAX_ROWS, WorkbookError } from './read-workbook';
import { SheetParser, type ParsedWorkbook, type RawOrIssue } from './sheet-parser';
import { defaultLimits, refuse } from './workbook-limits';

/**
 * CSV of the same columns as the workbook, on one sheet: a first row of variable names (a CSV cannot
 * hide a row, so it is simply the first), a second row of labels, then one row per asset.
 */
export const CSV_SHEET = 'CSV';

/** The workbook's columns, tab after tab, each variable once (the id and name head every tab). */
export function csvColumns(opts: LayoutOptions): WorkbookColumn[] {
  const seen = new Set<string>();
  const out: WorkbookColumn[] = [];
  for (const sheet of workbookLayout(opts)) {
    for (const c of sheet.columns) {
      if (seen.has(c.key)) continue;
      seen.add(c.key);
      out.push({ ...c, importable: true });
    }
  }
  return out;
}

// Quoted at the edges too: some CSV readers trim unquoted leading and trailing spaces.
const csvFormat: WriteOptions = { delimiter: ',', quoteEdgeWhitespace: true };

/** Text that Excel would run as a formula gets a leading apostrophe, which Excel shows as text. */
function csvText(value: string | number | boolean | Date | null): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return formatDelimitedField(formulaTrigger.test(value) ? `'${value}` : value, csvFormat);
}

function valueOf(asset: AssetInput, source: ColumnSource): unknown {
  switch (source.kind) {
    case 'asset':
      return asset[source.field];
    case 'annual': {
      const entries = Array.isArray(asset.annual_data) ? asset.annual_data : [];
      return entries.find((r) => r.year === source.year)?.[source.field];
    }
    case 'certifications':
    case 'energy_ratings': {
      const list = asset[source.kind];
      return Array.isArray(list)
        ? (list[source.index] as Record<string, unknown> | undefined)?.[source.field]
        : undefined;
    }
  }
}

export interface WriteCsvOptions {
  years: readonly number[];
  areaUnitLabel?: string;
}

/** Writes the assets as CSV (UTF-8 with a BOM, so Excel opens accented names correctly). */
export async function writeAssetCsv(
  filename: string,
  assets: readonly AssetInput[],
  opts: WriteCsvOptions,
): Promise<void> {
  let certificationSlots = 1;
  let energyRatingSlots = 1;
  for (const a of assets) {
    certificationSlots = Math.max(
      certificationSlots,
      Array.isArray(a.certifications) ? a.certifications.length : 0,
    );
    energyRatingSlots = Math.max(
      energyRatingSlots,
      Array.isArray(a.energy_ratings) ? a.energy_ratings.length : 0,
    );
  }
  const columns = csvColumns({
    years: opts.years,
    certificationSlots,
    energyRatingSlots,
    ...(opts.areaUnitLabel ? { areaUnitLabel: opts.areaUnitLabel } : {}),
  });
  const specs = columns.map((c) => columnSpec(c.source));
  const out = createWriteStream(filename, { encoding: 'utf8' });
  const write = async (line: string): Promise<void> => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('\ufeff');
  const headerLine = (fields: string[]): string => formatDelimitedRecord(fields, csvFormat) + RECORD_END;
  await write(headerLine(columns.map((c) => c.key)));
  await write(headerLine(columns.map((c) => c.label)));
  for (const asset of assets) {
    await write(
      columns
        .map((c, i) => csvText(toCellValue(valueOf(asset, c.source), specs[i])))
        .join(csvFormat.delimiter) + RECORD_END,
    );
  }
  out.end();
  await once(out, 'finish');
}

function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '');
  } catch {
    // Excel's "CSV" (not "CSV UTF-8") is in the system code page: Windows-1252 on most desktops.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The delimiter of the first line: a comma, or the semicolon that Excel uses where "," is decimal.
 * Only its first 64 KB are counted (far more than a header of every column takes): a first line of
 * 39 million commas is refused by the column limit, not split three times here.
 */
function delimiterOf(text: string): string {
  const end = text.indexOf('\n');
  const line = text.slice(0, Math.min(end < 0 ? text.length : end, 64 * 1024));
  const count = (ch: string): number => {
    let n = 0;
    for (let at = line.indexOf(ch); at >= 0; at = line.indexOf(ch, at + 1)) n++;
    return n;
  };
  const semi = count(';');
  const tab = count('\t');
  const comma = count(',');
  if (tab > comma && tab > semi) return '\t';
  return semi > comma ? ';' : ',';
}

function rawFromCsv(text: string): RawOrIssue {
  // Our own exports protect formula-like text with an apostrophe; it is not part of the value.
  if (text.length > 1 && text[0] === "'" && formulaTrigger.test(text.slice(1))) return text.slice(1);
  return text;
}

/** Reads a CSV of the asset columns into the same rows the workbook reader gives. */
export async function readAssetCsv(
  file: string,
  opts: { maxBytes?: number; maxRows?: number; schemes?: SchemeLists } = {},
): Promise<ParsedWorkbook> {
  await checkSize(file, opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
  const bytes = await readFile(file);
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    throw new WorkbookError('not_xlsx', 'This file is an Excel workbook, not a CSV: import it as .xlsx.');
  }
  if (bytes.includes(0)) throw new WorkbookError('not_xlsx', 'This file is not a CSV text file.');
  const text = decode(bytes);
  const parser = new SheetParser(CSV_SHEET, {
    maxRows: opts.maxRows ?? DEFAULT_MAX_ROWS,
    ...(opts.schemes ? { schemes: opts.schemes } : {}),
  });
  let row = 0;
  try {
    const delimiter = delimiterOf(text);
    // The workbook's column limit holds for a CSV too, checked as each record is split.
    for (const record of delimitedRecords(text, { delimiter, maxFields: defaultLimits.maxColumns }))
      parser.push(++row, record.map(rawFromCsv));
  } catch (error) {
    if (error instanceof TooManyFieldsError)
      throw refuse.columns(CSV_SHEET, `row ${error.record}`, error.limit);
    if (error instanceof RangeError)
      throw new WorkbookError('too_many_rows', error.message, { cause: error });
    if (error instanceof UnterminatedQuoteError)
      throw new WorkbookError('truncated', 'The CSV file ends inside a quoted value: it is incomplete.', {
        cause: error,
      });
    throw error;
  }
  const sheet = parser.finish();
  if (!parser.recognised) {
    throw new WorkbookError(
      'empty',
      'This CSV has none of the asset spreadsheet’s columns (variable names or labels).',
    );
  }
  return { format: 'csv', sheets: [sheet], issues: [...parser.issues] };
}
