import { open } from 'node:fs/promises';
import { strToU8, Zip } from 'fflate';
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
import { PooledPart, timeText, Utf8Chunks } from './audit-bytes';
import { auditColumns, type AuditRow } from './audit-log';

const csvFormat: WriteOptions = { delimiter: ',', quoteEdgeWhitespace: true };

/** Bytes handed to the file (and, for the workbook, to the deflate) at a time. */
const CHUNK = 1 << 20;

/** Text a spreadsheet would run as a formula gets an apostrophe, as in the asset CSV (csv.ts). */
function csvField(value: Scalar | string): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return formatDelimitedField(formulaTrigger.test(value) ? `'${value}` : value, csvFormat);
}

/**
 * A field the log repeats (asset, field, path, source: the same few thousand texts, the same
 * string each time), formatted once. Bounded, as a log of imports has a place in every source.
 */
function repeatedCache(format: (text: string) => string): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    let out = cache.get(text);
    if (out === undefined) {
      if (cache.size > 100_000) cache.clear();
      cache.set(text, (out = format(text)));
    }
    return out;
  };
}

/** The audit log as CSV (UTF-8 with a BOM, as the asset CSV), written a chunk at a time. */
export async function writeAuditCsv(file: string, pages: AsyncIterable<AuditRow[]>): Promise<number> {
  const handle = await open(file, 'w', 0o600);
  const repeated = repeatedCache(csvField);
  const out = new Utf8Chunks(CHUNK);
  let count = 0;
  try {
    out.add(`\ufeff${auditColumns.map(csvField).join(',')}${RECORD_END}`);
    for await (const rows of pages) {
      for (const row of rows) {
        // The time is digits, dashes, colons and a space (one before year 0 is no time of a change).
        const time = row.at >= 0 ? timeText(row.at) : csvField(timeText(row.at));
        out.add(
          `${time},${repeated(row.asset)},${repeated(row.field)},${repeated(row.path)},${csvField(row.previous)},${csvField(row.value)},${repeated(row.source)}${RECORD_END}`,
        );
        if (out.full) await handle.write(out.take());
      }
      count += rows.length;
    }
    await handle.write(out.take());
  } finally {
    await handle.close();
  }
  return count;
}

/** A text cell after its reference (`<c r="B2` comes before): an inline string, never a formula. */
function textCell(text: string): string {
  const body = escapeXml(text);
  return `" t="inlineStr"><is><t${/^\s|\s$/.test(body) ? ' xml:space="preserve"' : ''}>${body}</t></is></c>`;
}

/** A value's cell after its reference; '' for no cell (nothing, an empty text, no finite number). */
function valueCell(value: Scalar): string {
  if (value === null || value === '') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `"><v>${value}</v></c>` : '';
  if (typeof value === 'boolean') return `" t="b"><v>${value ? 1 : 0}</v></c>`;
  return textCell(value);
}

/** Texts the shared strings table takes at most (memory); further ones are written inline. */
const SHARED_MAX = 100_000;

/**
 * The columns that repeat (asset, field, path, source: a few thousand texts over a million rows)
 * as shared strings: a cell names its text by number, a third of the bytes of an inline string,
 * so a third less XML to build, encode and deflate. Each text's cell is made once.
 */
class SharedStrings {
  readonly texts: string[] = [];
  private readonly cells = new Map<string, string>();
  /** Cells naming a shared text (the table's `count`). */
  private uses = 0;

  cell(text: string): string {
    let rest = this.cells.get(text);
    if (rest === undefined) {
      if (text === '') rest = '';
      else if (this.texts.length < SHARED_MAX) {
        rest = `" t="s"><v>${this.texts.length}</v></c>`;
        this.texts.push(text);
      } else return textCell(text);
      this.cells.set(text, rest);
    }
    if (rest !== '') this.uses++;
    return rest;
  }

  /** The table (xl/sharedStrings.xml), a text at a time. */
  write(out: Utf8Chunks): void {
    out.add(`${xmlHead}<sst xmlns="${mainNs}" count="${this.uses}" uniqueCount="${this.texts.length}">`);
    for (const text of this.texts) {
      const body = escapeXml(text);
      out.add(`<si><t${/^\s|\s$/.test(body) ? ' xml:space="preserve"' : ''}>${body}</t></si>`);
    }
    out.add('</sst>');
  }
}

/**
 * A row of the log, written here rather than by `cellXml`, which the log's 7 million cells would
 * run through its general cases.
 */
function xlsxRow(index: number, row: AuditRow, shared: SharedStrings): string {
  // The time is new on every row: written as it is (digits, dashes, colons and a space).
  return (
    `<row r="${index}"><c r="A${index}" t="inlineStr"><is><t>${timeText(row.at)}</t></is></c>` +
    cellAt('B', index, shared.cell(row.asset)) +
    cellAt('C', index, shared.cell(row.field)) +
    cellAt('D', index, shared.cell(row.path)) +
    cellAt('E', index, valueCell(row.previous)) +
    cellAt('F', index, valueCell(row.value)) +
    cellAt('G', index, shared.cell(row.source)) +
    '</row>'
  );
}

/** A cell from its reference on; none for no value. */
function cellAt(letter: string, index: number, rest: string): string {
  return rest === '' ? '' : `<c r="${letter}${index}${rest}`;
}

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const mainNs = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const sharedStringsType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml';

/** Rows Excel shows in a sheet. */
const EXCEL_ROWS = 1_048_576;
const columnWidths = [20, 30, 40, 30, 16, 16, 40];

/**
 * The audit log as a workbook of one tab, streamed into the ZIP: a chunk of rows is deflated in
 * the thread pool while the next is built (PooledPart), the packed bytes written as they come.
 */
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
  const small = async (name: string, xml: string): Promise<void> => {
    const part = new PooledPart(name);
    zip.add(part);
    await part.write(strToU8(xml), true);
  };
  const shared = new SharedStrings();
  const out = new Utf8Chunks(CHUNK);
  let count = 0;
  try {
    // The sheets first, each as long as Excel takes (a log over a million changes goes on in a
    // second tab); the parts that name them follow (a ZIP's parts may come in any order).
    const names: string[] = [];
    let index = 0;
    const startSheet = (): PooledPart => {
      names.push(names.length === 0 ? 'Audit log' : `Audit log ${names.length + 1}`);
      const part = new PooledPart(`xl/worksheets/sheet${names.length}.xml`);
      zip.add(part);
      const head = sheetHeadXml(
        columnWidths.map((width) => ({ width, style: 0 })),
        { xSplit: 0, ySplit: 1 },
      );
      const titles = auditColumns.map((title, i) => cellXml(`${columnName(i + 1)}1`, title, style.bold));
      out.add(`${head}<row r="1">${titles.join('')}</row>`);
      index = 1;
      return part;
    };
    let sheet = startSheet();
    for await (const rows of pages) {
      for (const row of rows) {
        if (index === EXCEL_ROWS) {
          out.add(sheetTailXml([]));
          await sheet.write(out.take(), true);
          sheet = startSheet();
        }
        out.add(xlsxRow(++index, row, shared));
        if (out.full) {
          await sheet.write(out.take());
          await flush();
        }
      }
      count += rows.length;
    }
    out.add(sheetTailXml([]));
    await sheet.write(out.take(), true);
    const strings = new PooledPart('xl/sharedStrings.xml');
    zip.add(strings);
    shared.write(out);
    await strings.write(out.take(), true);
    // The workbook writer's parts, with the shared strings' part and relationship added.
    await small(
      '[Content_Types].xml',
      contentTypesXml(names.length).replace(
        '</Types>',
        `<Override PartName="/xl/sharedStrings.xml" ContentType="${sharedStringsType}"/></Types>`,
      ),
    );
    await small('_rels/.rels', rootRelsXml);
    await small('docProps/core.xml', corePropsXml('Audit log', 'Asset Desk', new Date()));
    await small('xl/workbook.xml', workbookXml(names));
    await small(
      'xl/_rels/workbook.xml.rels',
      workbookRelsXml(names.length).replace(
        '</Relationships>',
        `<Relationship Id="rId${names.length + 2}" Type="${relNs}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    );
    await small('xl/styles.xml', stylesXml);
    zip.end();
    await flush();
  } finally {
    await handle.close();
  }
  return count;
}
