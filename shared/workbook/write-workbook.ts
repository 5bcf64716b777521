import { writePlainSheet, type PlainSheet } from './plain-sheet';
import { strToU8, Zip, ZipDeflate, ZipPassThrough, type ZipInputFile } from 'fflate';
import {
  defaultCertificationSchemes,
  defaultCountries,
  defaultEnergyRatingSchemes,
  defaultPropertyTypes,
} from '../domain';
import type { AssetInput, ListItem } from '../domain';
import { columnSpec, formulaTrigger, schemeListOf, toCellValue, type ColumnSpec } from './cells';
import { workbookLayout, type ColumnSource, type LayoutOptions, type WorkbookSheet } from './layout';
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

/** Where the file's bytes go, in order (a Node `FileHandle` is one). */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<unknown>;
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
type Record_ = Record<string, unknown>;

/** Excel keeps a list validation's inline formula to 255 characters; longer lists get no dropdown. */
const MAX_INLINE_LIST = 255;
/** Sheet XML is handed to the compressor in pieces of about this many characters. */
const PIECE = 1 << 18;
/**
 * Deflate level 1: the sheets are repetitive XML, so it already packs them about 5:1, at several
 * times the speed of the default level.
 */
const LEVEL = 1;

function rawValue(asset: Doc, source: ColumnSource, annualByYear: Map<number, Record_> | undefined): unknown {
  switch (source.kind) {
    case 'asset':
      return asset[source.field];
    case 'annual':
      return annualByYear?.get(source.year)?.[source.field];
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
 * Raw deflate of a part's pieces as one stream (`final` ends it): a host's native zlib packs several
 * times faster than fflate's JavaScript one (Node: `deflateRawSync` with a sync flush per piece).
 */
export interface RawDeflate {
  deflate(piece: Uint8Array, final: boolean): Uint8Array;
  /** CRC-32 of `piece` continuing from `previous` (the ZIP's checksum of the part). */
  crc32(piece: Uint8Array, previous: number): number;
}

/** A part compressed by a `RawDeflate`; fflate keeps its size and CRC and writes the ZIP around it. */
class DeflatedPart extends ZipPassThrough {
  constructor(
    name: string,
    private readonly deflate: RawDeflate,
  ) {
    super(name);
    this.compression = 8;
    this.crc = 0;
    this.size = 0;
  }

  override push(chunk: Uint8Array, final?: boolean): void {
    this.crc = this.deflate.crc32(chunk, this.crc);
    this.size += chunk.length;
    this.process(chunk, final ?? false);
  }

  protected override process(chunk: Uint8Array, final: boolean): void {
    // A host's deflate returns bytes over a plain ArrayBuffer (Node's Buffer pool), never a shared one.
    this.ondata(null, this.deflate.deflate(chunk, final) as Uint8Array<ArrayBuffer>, final);
  }
}

/** The ZIP being written: parts go in one after another, compressed bytes queue for the sink. */
class ZipOut {
  private readonly zip: Zip;
  private queued: Uint8Array[] = [];
  private failure: Error | null = null;

  constructor(
    private readonly sink: ByteSink,
    private readonly deflate: RawDeflate | undefined,
  ) {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure = error;
      else this.queued.push(chunk);
    });
  }

  /**
   * A part written whole. Deflated like the rest: a stored part behind a data descriptor has no
   * length any reader can find without the central directory (SheetJS, for one, cannot).
   */
  small(name: string, xml: string): void {
    const part = this.newPart(name);
    this.zip.add(part);
    part.push(strToU8(xml), true);
  }

  private newPart(name: string): ZipInputFile & { push(chunk: Uint8Array, final?: boolean): void } {
    return this.deflate ? new DeflatedPart(name, this.deflate) : new ZipDeflate(name, { level: LEVEL });
  }

  /** A part streamed in pieces; `done` ends it. */
  part(name: string): { push(xml: string): Promise<void>; done(xml: string): Promise<void> } {
    const part = this.newPart(name);
    this.zip.add(part);
    return {
      push: async (xml) => {
        part.push(strToU8(xml));
        await this.flush();
      },
      done: async (xml) => {
        part.push(strToU8(xml), true);
        await this.flush();
      },
    };
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunks = this.queued;
    this.queued = [];
    for (const chunk of chunks) await this.sink.write(chunk);
  }

  async end(): Promise<void> {
    this.zip.end();
    await this.flush();
  }
}

async function writeSheet(
  out: ZipOut,
  index: number,
  sheet: WorkbookSheet,
  assets: readonly Doc[],
  annualIndex: Map<Doc, Map<number, Record_>>,
  opts: WriteWorkbookOptions,
  lists: Record<ListField, readonly ListItem[]>,
): Promise<void> {
  const part = out.part(`xl/worksheets/sheet${index}.xml`);
  const specs = sheet.columns.map((c) => columnSpec(c.source));
  const letters = sheet.columns.map((_, i) => columnName(i + 1));
  const columnStyles = specs.map((spec) => (spec?.type === 'date' ? style.date : style.plain));
  let xml = sheetHeadXml(
    sheet.columns.map((c, i) => ({ width: c.width, style: columnStyles[i] ?? style.plain })),
    { xSplit: 1, ySplit: 2 },
  );
  // Row 1: API variable names, hidden; importers key on these. Row 2: what analysts read.
  xml += `<row r="1" hidden="1">${sheet.columns.map((c, i) => cellXml(`${letters[i]}1`, c.key, style.plain)).join('')}</row>`;
  xml += `<row r="2">${sheet.columns.map((c, i) => cellXml(`${letters[i]}2`, c.label, style.bold)).join('')}</row>`;
  const yearSlot = new Map(opts.years.map((y, i) => [y, i]));
  // A certification's or rating's scheme is written by its name (an id the list lacks stays a number).
  const names = (list: readonly ListItem[]): Map<number, string> =>
    new Map(list.map((item) => [Number(item.value), item.label]));
  const schemeNames = {
    certifications: names(lists.certification_id),
    energy_ratings: names(lists.energy_rating_id),
  };
  const cells = sheet.columns.map((c, i) => ({
    schemes: ((l) => (l ? schemeNames[l] : undefined))(schemeListOf(c.source)),
    source: c.source,
    slot: c.source.kind === 'annual' ? (yearSlot.get(c.source.year) ?? -1) : -1,
    spec: specs[i],
    style: columnStyles[i] ?? style.plain,
    prefix: letters[i] as string,
  }));
  const dates = new Map<string, string | number | boolean | Date | null>();
  const byYear: Array<Record_ | undefined> = new Array<Record_ | undefined>(opts.years.length);
  let r = 2;
  for (const asset of assets) {
    r++;
    const annual = annualIndex.get(asset);
    for (let y = 0; y < opts.years.length; y++) byYear[y] = annual?.get(opts.years[y] as number);
    let row = `<row r="${r}">`;
    for (const cell of cells) {
      const raw =
        cell.slot >= 0 ? byYear[cell.slot]?.[cell.source.field] : rawValue(asset, cell.source, annual);
      if (raw === null || raw === undefined) continue;
      let v: string | number | boolean | Date | null;
      if (cell.schemes && typeof raw === 'number') v = cell.schemes.get(raw) ?? raw;
      else if (cell.spec?.type === 'date' && typeof raw === 'string') {
        // Dates repeat across a pool: each distinct text is parsed once.
        v = dates.get(raw) ?? null;
        if (!dates.has(raw)) dates.set(raw, (v = toCellValue(raw, cell.spec)));
      } else v = toCellValue(raw, cell.spec);
      if (v === null) continue;
      // Strings are written as strings, never formulas; the Text format also keeps Excel from
      // turning them into one when the analyst edits the cell.
      const s = typeof v === 'string' && formulaTrigger.test(v) ? style.text : cell.style;
      row += cellXml(`${cell.prefix}${r}`, v, s);
    }
    xml += `${row}</row>`;
    if (xml.length > PIECE) {
      await part.push(xml);
      xml = '';
    }
  }
  const lastRow = 2 + assets.length + (opts.spareRows ?? 500);
  const validations: ListValidation[] = [];
  sheet.columns.forEach((c, i) => {
    const formula = dropdown(specs[i], c.source, lists);
    if (!formula) return;
    const letter = letters[i] as string;
    validations.push({
      sqref: `${letter}3:${letter}${lastRow}`,
      formula,
      errorTitle: c.label,
      error: 'Pick a value from the list.',
    });
  });
  await part.done(xml + sheetTailXml(validations));
}

/** Codes beside their labels, as the service's lists give them: the dropdowns' source. */
async function writeListsSheet(
  out: ZipOut,
  index: number,
  lists: Record<ListField, readonly ListItem[]>,
): Promise<void> {
  const part = out.part(`xl/worksheets/sheet${index}.xml`);
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
  await part.done(xml + sheetTailXml([]));
}

/**
 * Writes the asset workbook to `sink` as it is built, row by row into a streamed ZIP, so a pool of
 * thousands of assets with eight tabs of ~100 columns never sits in memory as cells or as XML.
 * Accepts the service's assets and the workspace's documents alike (both are `AssetInput`).
 */
export async function writeAssetWorkbook(
  sink: ByteSink,
  assets: readonly Doc[],
  opts: WriteWorkbookOptions,
  /** The host's deflate (default: fflate's, level 1). */
  deflate?: RawDeflate,
): Promise<void> {
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
    certification_id: opts.lists?.certification_id ?? schemeList(defaultCertificationSchemes),
    energy_rating_id: opts.lists?.energy_rating_id ?? schemeList(defaultEnergyRatingSchemes),
  };
  const extra = opts.extraSheets ?? [];
  const names = [...layout.map((s) => s.name), LISTS_SHEET, ...extra.map((s) => s.name)];
  const out = new ZipOut(sink, deflate);
  out.small('[Content_Types].xml', contentTypesXml(names.length));
  out.small('_rels/.rels', rootRelsXml);
  out.small('docProps/core.xml', corePropsXml(opts.title ?? 'Assets', 'Asset Desk', new Date()));
  out.small('xl/workbook.xml', workbookXml(names));
  out.small('xl/_rels/workbook.xml.rels', workbookRelsXml(names.length));
  out.small('xl/styles.xml', stylesXml);
  let index = 0;
  for (const sheet of layout) await writeSheet(out, ++index, sheet, assets, annualIndex, opts, lists);
  await writeListsSheet(out, ++index, lists);
  for (const sheet of extra) await writePlainSheet(out.part(`xl/worksheets/sheet${++index}.xml`), sheet);
  await out.end();
}
