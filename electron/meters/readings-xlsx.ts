import { recogniseHeaders } from '../../shared/meters/import-rows';
import { METERS_MARKER, READINGS_MARKER } from '../../shared/meters/workbook-tabs';
import type { RawCell } from '../../shared/workbook/cells';
import { bookParts, checkSize, checkZipContainer, feed } from '../workbook/read-workbook';
import { SharedStringsReader, WorksheetReader, type CellCount } from '../workbook/sheet-xml';
import { defaultLimits, WorkbookError, type WorkbookLimits } from '../workbook/workbook-limits';
import { ZipParts } from '../workbook/zip-parts';

/**
 * The rows of a readings workbook (.xlsx) as text, for the flat readings reader: our own export's
 * Readings tab (known by its hidden marker row), or else the first tab whose first row names a
 * start date and a quantity. Read within the workbooks' limits (size, unpacked bytes, rows, cells).
 * Dates typed as Excel dates come as ISO `YYYY-MM-DD`; numbers as they are. Our export's Meters tab
 * (before its Readings tab) comes too, for the meters' energy content (`withMetersTab`).
 */
export async function readReadingsWorkbook(
  path: string,
  file: string,
): Promise<{ rows: string[][]; meterRows: string[][] | null }> {
  const limits: WorkbookLimits = defaultLimits;
  const size = await checkSize(path, limits.maxBytes);
  await checkZipContainer(path, size);
  const zip = await ZipParts.open(path, limits.maxUnpackedBytes);
  try {
    const book = await bookParts(zip);
    const strings = new SharedStringsReader(limits);
    if (book.sharedStrings) await feed(zip, book.sharedStrings, (t) => strings.push(t));
    const count: CellCount = { cells: 0 };
    let meterRows: string[][] | null = null;
    for (const { name, part } of book.sheets) {
      const rows: string[][] = [];
      let marked = false;
      let metersTab = false;
      const reader = new WorksheetReader(name, strings.strings, limits, count, {
        width: () => undefined,
        row: (number, cells) => {
          const text = cells.map((c) =>
            typeof c === 'object' && c !== null && 'unreadable' in c ? '' : textOf(c),
          );
          if (number === 1 && text[0] === READINGS_MARKER) {
            marked = true;
            return;
          }
          if (number === 1 && text[0] === METERS_MARKER) {
            metersTab = true;
            return;
          }
          rows.push(text);
        },
      });
      await feed(zip, part, (t) => reader.push(t));
      if (metersTab) {
        meterRows = rows;
        continue;
      }
      const header = rows[0] ?? [];
      const mapping = recogniseHeaders(header);
      if (marked || (mapping.start_date !== null && mapping.quantity !== null))
        return {
          rows: rows.map((row) => row.map((cell, i) => (isDateColumn(i, mapping) ? excelDate(cell) : cell))),
          meterRows,
        };
    }
  } finally {
    zip.close();
  }
  throw new WorkbookError('empty', `${file}: no tab has the readings' columns (start_date, quantity, ...).`);
}

function textOf(cell: RawCell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  return String(cell);
}

function isDateColumn(index: number, mapping: ReturnType<typeof recogniseHeaders>): boolean {
  return index === mapping.start_date || index === mapping.end_date;
}

/** An Excel date serial (1900 system) as ISO; any other text as it is. */
function excelDate(text: string): string {
  if (!/^\d+(\.0+)?$/.test(text)) return text;
  const serial = Number(text);
  if (serial < 1 || serial > 2_958_465) return text;
  return new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000).toISOString().slice(0, 10);
}
