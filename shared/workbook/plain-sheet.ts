/**
 * A plain tab of the workbook beside the asset tabs (the meters' Meters and Readings, issue 32): a
 * hidden first row with the tab's marker (an importer knows the tab by it), a bold header of
 * column names, then rows of text, numbers and booleans. Written after the Lists tab.
 */
import { cellXml, columnName, sheetHeadXml, sheetTailXml, style } from './xlsx-parts';

export interface PlainSheet {
  name: string;
  /** Its hidden first row's A1 (`asset_desk:readings`). */
  marker: string;
  columns: ReadonlyArray<{ name: string; width: number }>;
  rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>;
}

/** The Sources tab's marker (electron/workbook/sources-sheet.ts): our reader skips the tab by it. */
export const SOURCES_MARKER = 'asset_desk:sources';

/** Rows are joined into pieces of about this many characters before they go to the ZIP. */
const PIECE = 256 * 1024;

export async function writePlainSheet(
  part: { push(xml: string): Promise<void>; done(xml: string): Promise<void> },
  sheet: PlainSheet,
): Promise<void> {
  let xml = sheetHeadXml(
    sheet.columns.map((c) => ({ width: c.width, style: style.plain })),
    { xSplit: 0, ySplit: 2 },
  );
  xml += `<row r="1" hidden="1">${cellXml('A1', sheet.marker, style.plain)}</row>`;
  xml += `<row r="2">${sheet.columns.map((c, i) => cellXml(`${columnName(i + 1)}2`, c.name, style.bold)).join('')}</row>`;
  for (let r = 0; r < sheet.rows.length; r++) {
    let cells = '';
    (sheet.rows[r] ?? []).forEach((value, i) => {
      if (value !== null && value !== '')
        cells += cellXml(`${columnName(i + 1)}${r + 3}`, value, style.plain);
    });
    xml += `<row r="${r + 3}">${cells}</row>`;
    if (xml.length > PIECE) {
      await part.push(xml);
      xml = '';
    }
  }
  await part.done(xml + sheetTailXml([]));
}
