import ExcelJS from 'exceljs';
import { defaultCountries, defaultPropertyTypes } from '../domain';
import type { AssetInput, ListItem } from '../domain';
import { columnSpec, formulaTrigger, toCellValue, type ColumnSpec } from './cells';
import { workbookLayout, type ColumnSource, type LayoutOptions, type WorkbookSheet } from './layout';

export interface WriteWorkbookOptions {
  /** The reporting years side by side, e.g. `reportingYears(...)` or `allYears(...)`. */
  years: readonly number[];
  /** Title stored in the workbook properties. */
  title?: string;
  /** Area unit shown in the labels of floor-area columns (see `LayoutOptions.areaUnitLabel`). */
  areaUnitLabel?: string;
  /**
   * The service's lists behind the property-type and country columns (default: the built-in
   * snapshot). They go to a `Lists` tab, codes beside labels, which the columns' dropdowns offer.
   */
  lists?: Partial<Record<ListField, readonly ListItem[]>>;
  /** Empty rows below the data that still get the dropdowns, for assets the analyst adds. */
  spareRows?: number;
}

type Doc = AssetInput;
type ListField = 'property_type_code' | 'country';

/** The tab holding the lists. */
export const LISTS_SHEET = 'Lists';
/**
 * Its hidden first row, where the asset tabs keep their variable names: importers skip the tab by
 * it (a streaming reader may not know a tab's name while reading it).
 */
export const LISTS_MARKER = 'asset_desk:lists';
const listTitles: Record<ListField, string> = { property_type_code: 'Property type', country: 'Country' };
/** Column letters of each list's codes on the Lists tab (labels sit one column to the right). */
const listColumns: Record<ListField, string> = { property_type_code: 'A', country: 'D' };
type Record_ = Record<string, unknown>;

/** Excel keeps a list validation's inline formula to 255 characters; longer lists get no dropdown. */
const MAX_INLINE_LIST = 255;

function rawValue(asset: Doc, source: ColumnSource, annualByYear: Map<number, Record_>): unknown {
  switch (source.kind) {
    case 'asset':
      return asset[source.field];
    case 'annual':
      return annualByYear.get(source.year)?.[source.field];
    case 'certifications':
    case 'energy_ratings': {
      const list = asset[source.kind];
      return Array.isArray(list) ? (list[source.index] as Record_ | undefined)?.[source.field] : undefined;
    }
  }
}

function slots(assets: readonly Doc[]): Pick<LayoutOptions, 'certificationSlots' | 'energyRatingSlots'> {
  let c = 1;
  let e = 1;
  for (const a of assets) {
    c = Math.max(c, Array.isArray(a.certifications) ? a.certifications.length : 0);
    e = Math.max(e, Array.isArray(a.energy_ratings) ? a.energy_ratings.length : 0);
  }
  return { certificationSlots: c, energyRatingSlots: e };
}

function dropdown(
  spec: ColumnSpec | undefined,
  source: ColumnSource,
  lists: Record<ListField, readonly ListItem[]>,
) {
  if (source.kind === 'asset' && source.field in lists) {
    const field = source.field as ListField;
    const items = lists[field];
    if (items.length === 0) return undefined;
    const letter = listColumns[field];
    return `${LISTS_SHEET}!$${letter}$3:$${letter}$${items.length + 2}`;
  }
  let list: readonly string[] | undefined;
  if (spec?.type === 'boolean') list = ['TRUE', 'FALSE'];
  else if (spec?.codes) list = spec.codes;
  if (!list || list.length === 0) return undefined;
  const formula = `"${list.join(',')}"`;
  if (formula.length > MAX_INLINE_LIST || list.some((c) => c.includes(',') || c.includes('"')))
    return undefined;
  return formula;
}

const plainStyle: Partial<ExcelJS.Style> = {};
const dateStyle: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd' };
const textStyle: Partial<ExcelJS.Style> = { numFmt: '@' };

/** exceljs implements worksheet data validations (also in the streaming writer) but does not type them. */
interface DataValidationsApi {
  add(address: string, validation: ExcelJS.DataValidation): void;
}
function validations(ws: ExcelJS.Worksheet): DataValidationsApi {
  return (ws as unknown as { dataValidations: DataValidationsApi }).dataValidations;
}

function addSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: WorkbookSheet,
  assets: readonly Doc[],
  annualIndex: Map<Doc, Map<number, Record_>>,
  opts: WriteWorkbookOptions,
  lists: Record<ListField, readonly ListItem[]>,
): void {
  const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', xSplit: 1, ySplit: 2 }] });
  const specs = sheet.columns.map((c) => columnSpec(c.source));
  ws.columns = sheet.columns.map((c, i) => ({
    key: c.key,
    width: c.width,
    ...(specs[i]?.type === 'date' ? { style: dateStyle } : {}),
  }));
  // Row 1: API variable names, hidden; importers key on these. Row 2: what analysts read.
  const names = ws.addRow(sheet.columns.map((c) => c.key));
  names.hidden = true;
  names.commit();
  const labels = ws.addRow(sheet.columns.map((c) => c.label));
  labels.font = { bold: true };
  labels.commit();
  const empty = new Map<number, Record_>();
  const columnStyles: Array<Partial<ExcelJS.Style>> = [];
  specs.forEach((spec, i) => (columnStyles[i + 1] = spec?.type === 'date' ? dateStyle : plainStyle));
  for (const asset of assets) {
    const byYear = annualIndex.get(asset) ?? empty;
    // Sparse and 1-based: exceljs creates (and, in styled columns, writes) a cell for every null it
    // is given, and most cells of a topic tab are empty; an absent index costs nothing.
    const values: Array<string | number | boolean | Date> = [];
    for (let i = 0; i < sheet.columns.length; i++) {
      const column = sheet.columns[i] as WorkbookSheet['columns'][number];
      const v = toCellValue(rawValue(asset, column.source, byYear), specs[i]);
      if (v === null) continue;
      values[i + 1] = v;
    }
    const row = ws.addRow(values);
    // exceljs caches a style by object identity and gives each new cell a fresh copy: sharing one
    // object per kind of cell saves computing the same style XML a million times.
    row.eachCell((cell, column) => {
      const v = values[column];
      // Strings are written as strings, never formulas; the Text format also keeps Excel from
      // turning them into one when the analyst edits the cell.
      if (typeof v === 'string' && formulaTrigger.test(v)) cell.style = textStyle;
      else cell.style = columnStyles[column] ?? plainStyle;
    });
    row.commit();
  }
  const lastRow = 2 + assets.length + (opts.spareRows ?? 500);
  sheet.columns.forEach((c, i) => {
    const formula = dropdown(specs[i], c.source, lists);
    if (!formula) return;
    const letter = ws.getColumn(i + 1).letter;
    validations(ws).add(`${letter}3:${letter}${lastRow}`, {
      type: 'list',
      allowBlank: true,
      formulae: [formula],
      showErrorMessage: true,
      errorTitle: c.label,
      error: 'Pick a value from the list.',
    });
  });
  ws.commit();
}

/**
 * Writes the asset workbook to `filename`, streaming rows to disk so a pool of thousands of assets
 * with eight tabs of ~100 columns does not have to fit in memory as cell objects. Accepts the
 * service's assets and the workspace's documents alike (both are `AssetInput`).
 */
export async function writeAssetWorkbook(
  filename: string,
  assets: readonly Doc[],
  opts: WriteWorkbookOptions,
): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename, useStyles: true, useSharedStrings: false });
  wb.creator = 'Asset Desk';
  wb.title = opts.title ?? 'Assets';
  const annualIndex = new Map<Doc, Map<number, Record_>>();
  for (const a of assets) {
    const byYear = new Map<number, Record_>();
    for (const r of Array.isArray(a.annual_data) ? a.annual_data : [])
      if (typeof r.year === 'number') byYear.set(r.year, r);
    annualIndex.set(a, byYear);
  }
  const layout = workbookLayout({
    years: opts.years,
    ...slots(assets),
    ...(opts.areaUnitLabel ? { areaUnitLabel: opts.areaUnitLabel } : {}),
  });
  const lists: Record<ListField, readonly ListItem[]> = {
    property_type_code: opts.lists?.property_type_code ?? defaultPropertyTypes,
    country: opts.lists?.country ?? defaultCountries,
  };
  for (const sheet of layout) addSheet(wb, sheet, assets, annualIndex, opts, lists);
  addListsSheet(wb, lists);
  await wb.commit();
}

/** Codes beside their labels, as the service's lists give them: the dropdowns' source. */
function addListsSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  lists: Record<ListField, readonly ListItem[]>,
): void {
  const ws = wb.addWorksheet(LISTS_SHEET);
  ws.columns = [{ width: 12 }, { width: 40 }, { width: 4 }, { width: 12 }, { width: 40 }];
  const fields = Object.keys(listColumns) as ListField[];
  const marker = ws.addRow([LISTS_MARKER]);
  marker.hidden = true;
  marker.commit();
  const header = ws.addRow(
    fields.flatMap((f, i) => [
      `${listTitles[f]} code`,
      listTitles[f],
      ...(i < fields.length - 1 ? [''] : []),
    ]),
  );
  header.font = { bold: true };
  header.commit();
  const rows = Math.max(...fields.map((f) => lists[f].length));
  for (let r = 0; r < rows; r++) {
    const values: string[] = [];
    fields.forEach((f, i) => {
      const item = lists[f][r];
      values[i * 3 + 1] = item?.value ?? '';
      values[i * 3 + 2] = item?.label ?? '';
    });
    ws.addRow(values).commit();
  }
  ws.commit();
}
