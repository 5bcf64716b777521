import { strToU8 } from 'fflate';
import { writePlainSheet, type PlainSheet } from './plain-sheet';
import {
  defaultCertificationSchemes,
  defaultCountries,
  defaultEnergyRatingSchemes,
  defaultPropertyTypes,
} from '../domain';
import type { AssetInput, ListItem } from '../domain';
import { columnSpec, type ColumnSpec } from './cells';
import { workbookLayout, type ColumnSource, type LayoutOptions, type WorkbookSheet } from './layout';
import { AnnualSlots } from './annual-slots';
import { RowStarts, SheetRows } from './sheet-rows';
import {
  cellXml,
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
  type ListValidation,
} from './xlsx-parts';
import { ZipOut, type ByteSink, type RawDeflate } from './zip-out';

export type { ByteSink, RawDeflate } from './zip-out';

export interface WriteWorkbookOptions {
  /** The reporting years side by side, e.g. `reportingYears(...)` or `allYears(...)`. */
  years: readonly number[];
  /** Title stored in the workbook properties. */
  title?: string;
  /** Area unit shown in the labels of floor-area columns (see `LayoutOptions.areaUnitLabel`). */
  areaUnitLabel?: string;
  /**
   * The service's lists behind the property-type, country, certification and energy-rating columns
   * (default: the built-in snapshot). They go to a `Lists` tab, codes (scheme ids) beside labels
   * (names). The columns' dropdowns offer the codes, and for schemes the names: a certification's or
   * rating's scheme is written by its name, which the import reads back to its id.
   */
  lists?: Partial<Record<ListField, readonly ListItem[]>>;
  /** Empty rows below the data that still get the dropdowns, for assets the analyst adds. */
  spareRows?: number;
  /** Tabs after the Lists tab (the meters' Meters and Readings: shared/meters/workbook-tabs.ts). */
  extraSheets?: readonly PlainSheet[];
}

type Doc = AssetInput;
type ListField = 'property_type_code' | 'country' | 'certification_id' | 'energy_rating_id';

/** The tab holding the lists. */
export const LISTS_SHEET = 'Lists';
/**
 * Its hidden first row, where the asset tabs keep their variable names: importers skip the tab by
 * it (a streaming reader may not know a tab's name while reading it).
 */
export const LISTS_MARKER = 'asset_desk:lists';
const listTitles: Record<ListField, string> = {
  property_type_code: 'Property type',
  country: 'Country',
  certification_id: 'Certification',
  energy_rating_id: 'Energy rating',
};
/** Column letters of each list's codes on the Lists tab (labels sit one column to the right). */
const listColumns: Record<ListField, string> = {
  property_type_code: 'A',
  country: 'D',
  certification_id: 'G',
  energy_rating_id: 'J',
};

function labelColumn(field: ListField): string {
  return String.fromCharCode(listColumns[field].charCodeAt(0) + 1);
}

/** The schemes of certifications and energy ratings as a list: their id beside their name. */
export function schemeList(schemes: readonly { id: number; name: string }[]): ListItem[] {
  return schemes.map((s) => ({ value: String(s.id), label: s.name }));
}

/** Excel keeps a list validation's inline formula to 255 characters; longer lists get no dropdown. */
const MAX_INLINE_LIST = 255;
/**
 * Asset rows between turns of the event loop (about a quarter of a millisecond of building): a
 * packer in another thread is handed a part's next chunk only on such a turn, once it is done with
 * the one before (Node's zlib streams answer on main's event loop), so the pool idles from then to
 * main's next turn. Timed per export of 10,000 assets (issue 33, 465 chunks, a sampler reading the
 * threads' states): at 16 rows the pool sat idle 0.03-0.18 s (median 0.09 s) with a chunk waiting
 * for main, at 8 rows 0.02-0.07 s (0.04 s); the twice as many turns cost no CPU that showed.
 */
const ROWS_PER_TURN = 8;

function recordSlots(
  assets: readonly Doc[],
): Pick<LayoutOptions, 'certificationSlots' | 'energyRatingSlots'> {
  let c = 1;
  let e = 1;
  for (const a of assets) {
    c = Math.max(c, Array.isArray(a.certifications) ? a.certifications.length : 0);
    e = Math.max(e, Array.isArray(a.energy_ratings) ? a.energy_ratings.length : 0);
  }
  return { certificationSlots: c, energyRatingSlots: e };
}

/** A tab's dropdowns, down to `lastRow` (spare rows below the data included). */
function validations(
  sheet: WorkbookSheet,
  lastRow: number,
  lists: Record<ListField, readonly ListItem[]>,
): ListValidation[] {
  const out: ListValidation[] = [];
  sheet.columns.forEach((c, i) => {
    const formula = dropdown(columnSpec(c.source), c.source, lists);
    if (!formula) return;
    const letter = columnName(i + 1);
    out.push({
      sqref: `${letter}3:${letter}${lastRow}`,
      formula,
      errorTitle: c.label,
      error: 'Pick a value from the list.',
    });
  });
  return out;
}

function dropdown(
  spec: ColumnSpec | undefined,
  source: ColumnSource,
  lists: Record<ListField, readonly ListItem[]>,
) {
  // The asset's list fields, and the scheme of a certification or rating (its id, named on the Lists tab).
  const listed =
    (source.kind === 'asset' && source.field in lists) ||
    (source.kind === 'certifications' && source.field === 'certification_id') ||
    (source.kind === 'energy_ratings' && source.field === 'energy_rating_id');
  if (listed) {
    const field = source.field as ListField;
    const items = lists[field];
    if (items.length === 0) return undefined;
    // A scheme is picked by its name (the label column, one to the right of the ids).
    const letter = source.kind === 'asset' ? listColumns[field] : labelColumn(field);
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

/**
 * Asset rows `from` to `to` (their indexes in `assets`) into every tab. A plain loop apart from the
 * async writer: the compiler optimises it with the rows' code inlined, and the writer's own
 * machinery (its awaits, its state) stays out of that code (issue 33: the writer, compiled with
 * the rows inside it, cost the compiler's thread as much again as the rows' own code, then was
 * thrown away at the end).
 */
function writeRows(
  tabs: readonly SheetRows[],
  slots: AnnualSlots,
  assets: readonly Doc[],
  from: number,
  to: number,
): void {
  for (let a = from; a < to; a++) {
    const asset = assets[a]!;
    slots.fillAsset(asset);
    // The first asset is on row 3, below the variable names and the labels.
    for (let t = 0; t < tabs.length; t++) tabs[t]!.row(asset, a + 3);
    slots.clear();
  }
}

/** A part written as XML text in pieces (a plain tab), packed as it comes. */
function textPart(
  out: ZipOut,
  name: string,
): { push(xml: string): Promise<void>; done(xml: string): Promise<void> } {
  const packing = out.packing();
  return {
    push: async (xml) => {
      packing.push(strToU8(xml), false);
      await out.turn();
      await packing.settled();
    },
    done: async (xml) => {
      packing.push(strToU8(xml), true);
      await out.add(name, packing);
    },
  };
}

async function writeListsSheet(
  out: ZipOut,
  index: number,
  lists: Record<ListField, readonly ListItem[]>,
): Promise<void> {
  const fields = Object.keys(listColumns) as ListField[];
  const widths = [12, 40, 4, 12, 40, 4, 14, 50, 4, 14, 40].map((width) => ({ width, style: style.plain }));
  let xml = sheetHeadXml(widths);
  xml += `<row r="1" hidden="1">${cellXml('A1', LISTS_MARKER, style.plain)}</row>`;
  const header = fields.flatMap(
    (f, i) => [i * 3, `${listTitles[f]} code`, i * 3 + 1, listTitles[f]] as const,
  );
  let headerXml = '';
  for (let i = 0; i < header.length; i += 2)
    headerXml += cellXml(`${columnName((header[i] as number) + 1)}2`, header[i + 1] as string, style.bold);
  xml += `<row r="2">${headerXml}</row>`;
  const rows = Math.max(...fields.map((f) => lists[f].length));
  for (let r = 0; r < rows; r++) {
    let row = '';
    fields.forEach((f, i) => {
      const item = lists[f][r];
      if (item?.value) row += cellXml(`${columnName(i * 3 + 1)}${r + 3}`, item.value, style.plain);
      if (item?.label) row += cellXml(`${columnName(i * 3 + 2)}${r + 3}`, item.label, style.plain);
    });
    xml += `<row r="${r + 3}">${row}</row>`;
  }
  await out.small(`xl/worksheets/sheet${index}.xml`, strToU8(xml + sheetTailXml([])));
}

/**
 * Writes the asset workbook to `sink`: every asset tab is built at once, row by row, as XML bytes
 * deflated chunk by chunk, so a pool of thousands of assets with eight tabs of ~100 columns never
 * sits in memory as cells or as XML; only the tabs' deflated bytes (about a sixth of the XML) wait
 * until the last row, then go into the ZIP tab after tab.
 * Accepts the service's assets and the workspace's documents alike (both are `AssetInput`).
 */
export async function writeAssetWorkbook(
  sink: ByteSink,
  assets: readonly Doc[],
  opts: WriteWorkbookOptions,
  /** The host's deflate (default: fflate's, level 1). */
  deflate?: RawDeflate,
): Promise<void> {
  const layout = workbookLayout({
    years: opts.years,
    ...recordSlots(assets),
    ...(opts.areaUnitLabel ? { areaUnitLabel: opts.areaUnitLabel } : {}),
  });
  const lists: Record<ListField, readonly ListItem[]> = {
    property_type_code: opts.lists?.property_type_code ?? defaultPropertyTypes,
    country: opts.lists?.country ?? defaultCountries,
    certification_id: opts.lists?.certification_id ?? schemeList(defaultCertificationSchemes),
    energy_rating_id: opts.lists?.energy_rating_id ?? schemeList(defaultEnergyRatingSchemes),
  };
  const extra = opts.extraSheets ?? [];
  const names = [...layout.map((s) => s.name), LISTS_SHEET, ...extra.map((s) => s.name)];
  const out = new ZipOut(sink, deflate);
  // The book's small parts go in first, while the rows are built: each waits for the packer (a
  // round trip through the pool), which the rows' first turns give them (issue 33).
  const head = (async () => {
    await out.small('[Content_Types].xml', strToU8(contentTypesXml(names.length)));
    await out.small('_rels/.rels', strToU8(rootRelsXml));
    await out.small(
      'docProps/core.xml',
      strToU8(corePropsXml(opts.title ?? 'Assets', 'Asset Desk', new Date())),
    );
    await out.small('xl/workbook.xml', strToU8(workbookXml(names)));
    await out.small('xl/_rels/workbook.xml.rels', strToU8(workbookRelsXml(names.length)));
    await out.small('xl/styles.xml', strToU8(stylesXml));
  })();
  // Awaited before the tabs go in; until then a failure must not count as unhandled.
  head.catch(() => undefined);
  // Every asset tab at once, an asset's rows written to all of them (sheet-rows.ts says why).
  const slots = new AnnualSlots(layout.flatMap((sheet) => sheet.columns.map((c) => c.source)));
  const starts = new RowStarts();
  const tabs = layout.map((sheet) => new SheetRows(sheet, out.packing(), slots, lists, starts));
  // A turn of the event loop after every few rows: the packer's streams are handed their next
  // pieces only on main's turn, so a writer that built for long stretches without one would leave
  // the pool idle; then a wait only where a part has too many pieces still to pack.
  for (let from = 0; from < assets.length; from += ROWS_PER_TURN) {
    writeRows(tabs, slots, assets, from, Math.min(assets.length, from + ROWS_PER_TURN));
    await out.turn();
    for (let t = 0; t < tabs.length; t++) await tabs[t]!.packing.settled();
  }
  const lastRow = 2 + assets.length + (opts.spareRows ?? 500);
  // Every tab ended before the first goes into the ZIP: ended one by one as each went in, a tab's
  // last piece waited for the tabs before it to be packed (issue 33: 0.03-0.08 s of the export).
  for (const tab of tabs) tab.end(sheetTailXml(validations(tab.sheet, lastRow, lists)));
  await head;
  for (const [i, tab] of tabs.entries()) await out.add(`xl/worksheets/sheet${i + 1}.xml`, tab.packing);
  await writeListsSheet(out, tabs.length + 1, lists);
  for (const [i, sheet] of extra.entries())
    await writePlainSheet(textPart(out, `xl/worksheets/sheet${tabs.length + 2 + i}.xml`), sheet);
  await out.end();
}
