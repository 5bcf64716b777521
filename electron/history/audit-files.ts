import { open } from 'node:fs/promises';
import { strToU8, Zip, ZipPassThrough } from 'fflate';
import { formatDelimitedField, RECORD_END, type WriteOptions } from '../../shared/text/delimited';
import { formulaTrigger } from '../../shared/workbook/cells';
import {
  cellXml,
  escapeXml,
  columnName,
  contentTypesXml,
  corePropsXml,
  rootRelsXml,
  sheetHeadXml,
  sheetTailXml,
  style,
  stylesXml,
  workbookRelsXml,
  workbookXml,
} from '../../shared/workbook/xlsx-parts';
import type { Scalar } from '../../shared/sync/asset-doc';
import { nativeDeflateSync } from '../workbook/native-deflate';
import { auditColumns, type AuditRow } from './audit-log';

const csvFormat: WriteOptions = { delimiter: ',', quoteEdgeWhitespace: true };

const timeText = (at: number): string => new Date(at).toISOString().replace('T', ' ').slice(0, 19);

/** Text a spreadsheet would run as a formula gets an apostrophe, as in the asset CSV (csv.ts). */
function csvField(value: Scalar | string): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return formatDelimitedField(formulaTrigger.test(value) ? `'${value}` : value, csvFormat);
}

function csvLine(row: AuditRow): string {
  return (
    [timeText(row.at), row.asset, row.field, row.path, row.previous, row.value, row.source]
      .map(csvField)
      .join(',') + RECORD_END
  );
}

/** The audit log as CSV (UTF-8 with a BOM, as the asset CSV), written a page at a time. */
export async function writeAuditCsv(file: string, pages: AsyncIterable<AuditRow[]>): Promise<number> {
  const handle = await open(file, 'w', 0o600);
  let count = 0;
  try {
    await handle.write(`\ufeff${auditColumns.map(csvField).join(',')}${RECORD_END}`);
    for await (const rows of pages) {
      let text = '';
      for (const row of rows) text += csvLine(row);
      count += rows.length;
      await handle.write(text);
    }
  } finally {
    await handle.close();
  }
  return count;
}

/**
 * A part deflated by Node's zlib as its rows come and written out at once. Not the asset workbook's
 * `ZipOut` (shared/workbook/zip-out.ts): that one packs a whole part before adding it, which for a
 * million-row log would hold every compressed sheet in memory; here a part streams to the file.
 */
class NativePart extends ZipPassThrough {
  constructor(name: string) {
    super(name);
    this.compression = 8;
    this.crc = 0;
    this.size = 0;
  }

  override push(chunk: Uint8Array, final?: boolean): void {
    this.crc = nativeDeflateSync.crc32(chunk, this.crc);
    this.size += chunk.length;
    this.process(chunk, final ?? false);
  }

  protected override process(chunk: Uint8Array, final: boolean): void {
    // In this thread: fflate's part takes its bytes as they are pushed, in order.
    const packed = nativeDeflateSync.deflate(chunk, final);
    if (!(packed instanceof Uint8Array)) throw new Error('The audit log deflates in the calling thread');
    this.ondata(null, packed as Uint8Array<ArrayBuffer>, final);
  }
}

/** Text as SpreadsheetML takes it (the workbook writer's escaping), worked out once per text. */
const escaped = new Map<string, string>();
function inlineText(text: string): string {
  let xml = escaped.get(text);
  if (xml === undefined) {
    const body = escapeXml(text);
    xml = `<is><t${/^\s|\s$/.test(body) ? ' xml:space="preserve"' : ''}>${body}</t></is>`;
    if (escaped.size > 100_000) escaped.clear();
    escaped.set(text, xml);
  }
  return xml;
}

/**
 * A cell of the log: text is an inline string (never a formula), a number a number. Written here
 * rather than by `cellXml`, which the log's 7 million cells would run through its general cases.
 */
function xlsxCell(ref: string, value: Scalar | string): string {
  if (value === null || value === '') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : '';
  if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}" t="inlineStr">${inlineText(value)}</c>`;
}

const letters = auditColumns.map((_, i) => columnName(i + 1));

function xlsxRow(index: number, row: AuditRow): string {
  // The time is new on every row: escaped as it is (digits, dashes, colons and a space).
  let cells = `<c r="A${index}" t="inlineStr"><is><t>${timeText(row.at)}</t></is></c>`;
  const values = [row.asset, row.field, row.path, row.previous, row.value, row.source];
  for (let i = 0; i < values.length; i++) cells += xlsxCell(`${letters[i + 1]}${index}`, values[i] ?? null);
  return `<row r="${index}">${cells}</row>`;
}

/** Rows Excel shows in a sheet. */
const EXCEL_ROWS = 1_048_576;
const columnWidths = [20, 30, 40, 30, 16, 16, 40];

/** The audit log as a workbook of one tab, streamed row by row into the ZIP. */
export async function writeAuditXlsx(file: string, pages: AsyncIterable<AuditRow[]>): Promise<number> {
  const handle = await open(file, 'w', 0o600);
  let queued: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else queued.push(chunk);
  });
  const flush = async (): Promise<void> => {
    if (failure) throw failure;
    const chunks = queued;
    queued = [];
    for (const chunk of chunks) await handle.write(chunk);
  };
  const small = (name: string, xml: string): void => {
    const part = new NativePart(name);
    zip.add(part);
    part.push(strToU8(xml), true);
  };
  let count = 0;
  try {
    // The sheets first, each as long as Excel takes (a log over a million changes goes on in a
    // second tab); the parts that name them follow (a ZIP's parts may come in any order).
    const names: string[] = [];
    let sheet: NativePart | undefined;
    let index = 0;
    const startSheet = (): NativePart => {
      names.push(names.length === 0 ? 'Audit log' : `Audit log ${names.length + 1}`);
      const part = new NativePart(`xl/worksheets/sheet${names.length}.xml`);
      zip.add(part);
      const head = sheetHeadXml(
        columnWidths.map((width) => ({ width, style: 0 })),
        { xSplit: 0, ySplit: 1 },
      );
      const titles = auditColumns.map((title, i) => cellXml(`${columnName(i + 1)}1`, title, style.bold));
      part.push(strToU8(`${head}<row r="1">${titles.join('')}</row>`));
      index = 1;
      return part;
    };
    sheet = startSheet();
    for await (const rows of pages) {
      let xml = '';
      for (const row of rows) {
        if (index === EXCEL_ROWS) {
          sheet.push(strToU8(xml + sheetTailXml([])), true);
          xml = '';
          sheet = startSheet();
        }
        xml += xlsxRow(++index, row);
      }
      count += rows.length;
      sheet.push(Buffer.from(xml, 'utf8'));
      await flush();
    }
    sheet.push(strToU8(sheetTailXml([])), true);
    small('[Content_Types].xml', contentTypesXml(names.length));
    small('_rels/.rels', rootRelsXml);
    small('docProps/core.xml', corePropsXml('Audit log', 'Asset Desk', new Date()));
    small('xl/workbook.xml', workbookXml(names));
    small('xl/_rels/workbook.xml.rels', workbookRelsXml(names.length));
    small('xl/styles.xml', stylesXml);
    zip.end();
    await flush();
  } finally {
    await handle.close();
  }
  return count;
}
