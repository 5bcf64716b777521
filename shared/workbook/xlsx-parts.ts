/**
 * The SpreadsheetML our workbook writer emits, as strings: the package's fixed parts, a sheet's
 * head and tail, one cell. Only what the asset workbook uses: a few styles (date, text, bold), column
 * widths, a frozen header, a hidden row, list validations. Cells are written as they come (inline
 * strings, no shared-strings table), so a sheet streams out row by row.
 */

/** Style indexes of `stylesXml`'s cellXfs. */
export const style = { plain: 0, date: 1, text: 2, bold: 3 } as const;

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const mainNs = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const pkgRelNs = 'http://schemas.openxmlformats.org/package/2006/relationships';

// XML 1.0 has no place for most control characters; Excel would call the file corrupt.
// eslint-disable-next-line no-control-regex
const invalidXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  let out = text;
  if (/[&<>"]/.test(out))
    out = out.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return invalidXml.test(out) ? out.replace(invalidXml, '') : out;
}

/** A 1-based column index as the sheet names it (1 → A, 27 → AA). */
export function columnName(index: number): string {
  let n = index;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export function contentTypesXml(sheets: number): string {
  const overrides = Array.from(
    { length: sheets },
    (_, i) =>
      `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('');
  return (
    `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
    `${overrides}</Types>`
  );
}

export const rootRelsXml =
  `${xmlHead}<Relationships xmlns="${pkgRelNs}">` +
  `<Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/>` +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  '</Relationships>';

export function corePropsXml(title: string, creator: string, now: Date): string {
  const at = now.toISOString().replace(/\.\d+Z$/, 'Z');
  return (
    `${xmlHead}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(title)}</dc:title><dc:creator>${escapeXml(creator)}</dc:creator>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${at}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${at}</dcterms:modified></cp:coreProperties>`
  );
}

export function workbookXml(sheetNames: readonly string[]): string {
  const sheets = sheetNames
    .map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('');
  return (
    `${xmlHead}<workbook xmlns="${mainNs}" xmlns:r="${relNs}">` +
    `<bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`
  );
}

export function workbookRelsXml(sheets: number): string {
  const rels = Array.from(
    { length: sheets },
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${relNs}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  ).join('');
  return (
    `${xmlHead}<Relationships xmlns="${pkgRelNs}">${rels}` +
    `<Relationship Id="rId${sheets + 1}" Type="${relNs}/styles" Target="styles.xml"/></Relationships>`
  );
}

/** cellXfs in the order of `style`: plain, date (yyyy-mm-dd), text (@), bold. */
export const stylesXml =
  `${xmlHead}<styleSheet xmlns="${mainNs}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

export interface SheetColumn {
  width: number;
  style: number;
}

/** Everything before the first row: the frozen panes (`xSplit` columns, `ySplit` rows) and columns. */
export function sheetHeadXml(
  columns: readonly SheetColumn[],
  frozen?: { xSplit: number; ySplit: number },
): string {
  const pane = frozen
    ? `<pane xSplit="${frozen.xSplit}" ySplit="${frozen.ySplit}" topLeftCell="${columnName(frozen.xSplit + 1)}${frozen.ySplit + 1}" activePane="bottomRight" state="frozen"/>`
    : '';
  const cols = columns
    .map(
      (c, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${c.style ? ` style="${c.style}"` : ''}/>`,
    )
    .join('');
  return (
    `${xmlHead}<worksheet xmlns="${mainNs}" xmlns:r="${relNs}">` +
    `<sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews>` +
    `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`
  );
}

export interface ListValidation {
  sqref: string;
  formula: string;
  errorTitle: string;
  error: string;
}

export function sheetTailXml(validations: readonly ListValidation[]): string {
  const dv = validations
    .map(
      (v) =>
        `<dataValidation type="list" allowBlank="1" showErrorMessage="1" errorTitle="${escapeXml(v.errorTitle)}" error="${escapeXml(v.error)}" sqref="${v.sqref}"><formula1>${escapeXml(v.formula)}</formula1></dataValidation>`,
    )
    .join('');
  return `</sheetData>${dv ? `<dataValidations count="${validations.length}">${dv}</dataValidations>` : ''}</worksheet>`;
}

const excelEpochMs = Date.UTC(1899, 11, 30);

/** One cell's XML (`ref` like "B3"); `cellStyle` 0 writes no style attribute. */
export function cellXml(ref: string, value: string | number | boolean | Date, cellStyle: number): string {
  const s = cellStyle ? ` s="${cellStyle}"` : '';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? `<c r="${ref}"${s}><v>${value}</v></c>` : '';
    case 'boolean':
      return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
    case 'string':
      return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
    default:
      return `<c r="${ref}"${s}><v>${(value.getTime() - excelEpochMs) / 86_400_000}</v></c>`;
  }
}
