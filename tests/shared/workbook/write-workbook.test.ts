import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { AssetInput } from '../../../shared/domain';
import { nativeDeflate, nativeDeflateSync } from '../../../electron/workbook/native-deflate';
import { columnSpec, formulaTrigger, schemeListOf, toCellValue } from '../../../shared/workbook/cells';
import { workbookLayout, type ColumnSource, type WorkbookSheet } from '../../../shared/workbook/layout';
import { cellXml, columnName } from '../../../shared/workbook/xlsx-parts';
import { writeAssetWorkbook, type RawDeflate } from '../../../shared/workbook/write-workbook';
import { CHUNK_BYTES } from '../../../shared/workbook/xml-bytes';

const years = [2023, 2024];

/** Assets with every kind of cell the writer meets, and text long enough to span chunks. */
function assets(count: number): AssetInput[] {
  const odd = ['=SUM(A1)', '+1', '-x', '@me', '\tTab', 'Zürich <&> "quoted"', '日本語', 'a\u0001b', '', '😀'];
  return Array.from({ length: count }, (_, i) => ({
    name:
      i === 7
        ? `long ${'é'.repeat(CHUNK_BYTES)} end`
        : i % 10 === 0
          ? `=SUM(A${i})`
          : `Asset ${i} ${odd[i % odd.length]}`,
    country: 'NL',
    property_type_code: 'OCHI',
    size: [1000 + i, 0.1 + i, -5 - i, 1e21, -0, Number.NaN, 2 ** 31, -(2 ** 31), 12345678901][i % 9],
    gav: i % 4 === 0 ? null : i * 1.5,
    construction_year: 1990 + (i % 30),
    certifications: [{ certification_id: i % 2 ? 1 : 987654, level: 'Gold', size: 10, year: 2020 }],
    energy_ratings: i % 3 ? [{ energy_rating_id: 1, level: 'A', size: 5 }] : [],
    annual_data: [
      ...years.map((year) => ({
        year,
        owned_entire_period: i % 2 === 0,
        ncmr_status: 'Standing Investment',
        en_data_from: i % 5 === 0 ? 'not a date' : `${year}-01-01`,
        // Real days, a leap day, days no calendar has, and years before 1900 or written oddly.
        en_data_to:
          [
            '2023-02-30',
            '2024-02-29',
            '2023-02-29',
            '1900-02-29',
            '1899-12-31',
            '0099-01-01',
            '2024-13-01',
            '2024-1-01',
            ' 2024-01-01',
          ][i % 12] ?? `${year}-12-31`,
        en_abs_we: 10 * i + year,
        en_cov_we: 900,
        en_tot_we: i % 6 === 0 ? Number.POSITIVE_INFINITY : 1_000,
        ghg_abs_s1_w: i % 7 === 0 ? { not: 'a value' } : 0.25 * i,
      })),
      // A second record of a year: the last one counts.
      ...(i % 11 === 0 ? [{ year: 2024, en_abs_we: 1 }] : []),
    ],
  })) as AssetInput[];
}

/** A sheet as the writer wrote it before issue 33: cell by cell through `cellXml`. */
function referenceRows(sheet: WorkbookSheet, docs: readonly AssetInput[]): string {
  const value = (asset: AssetInput, source: ColumnSource): unknown => {
    const annual = new Map<number, Record<string, unknown>>();
    for (const r of (asset.annual_data ?? []) as Record<string, unknown>[])
      if (typeof r['year'] === 'number') annual.set(r['year'], r);
    switch (source.kind) {
      case 'asset':
        return asset[source.field];
      case 'annual':
        return annual.get(source.year)?.[source.field];
      default: {
        const list = asset[source.kind];
        return Array.isArray(list)
          ? (list[source.index] as Record<string, unknown>)?.[source.field]
          : undefined;
      }
    }
  };
  const schemes = { certifications: new Map([[1, 'BREEAM']]), energy_ratings: new Map([[1, 'EU EPC']]) };
  let xml = '';
  docs.forEach((asset, i) => {
    const r = i + 3;
    let row = `<row r="${r}">`;
    sheet.columns.forEach((column, c) => {
      const spec = columnSpec(column.source);
      const raw = value(asset, column.source);
      if (raw === null || raw === undefined) return;
      const list = schemeListOf(column.source);
      const v = list && typeof raw === 'number' ? (schemes[list].get(raw) ?? raw) : toCellValue(raw, spec);
      if (v === null) return;
      const style = typeof v === 'string' && formulaTrigger.test(v) ? 2 : spec?.type === 'date' ? 1 : 0;
      row += cellXml(`${columnName(c + 1)}${r}`, v, style);
    });
    xml += `${row}</row>`;
  });
  return xml;
}

async function write(docs: readonly AssetInput[], deflate?: RawDeflate): Promise<Record<string, string>> {
  const chunks: Uint8Array[] = [];
  await writeAssetWorkbook(
    { write: async (chunk) => chunks.push(chunk.slice()) },
    docs,
    {
      years,
      lists: {
        certification_id: [{ value: '1', label: 'BREEAM' }],
        energy_rating_id: [{ value: '1', label: 'EU EPC' }],
      },
    },
    deflate,
  );
  const book = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    book.set(chunk, at);
    at += chunk.length;
  }
  return Object.fromEntries(Object.entries(unzipSync(book)).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

describe('writeAssetWorkbook', () => {
  const docs = assets(60);
  const layout = workbookLayout({ years, certificationSlots: 1, energyRatingSlots: 1 });

  /** Each asset tab of `parts`, written for `books`, holds the rows the cell-by-cell writer wrote. */
  function expectReferenceRows(parts: Record<string, string>, books: readonly AssetInput[]): void {
    workbookLayout({ years, certificationSlots: 1, energyRatingSlots: 1 }).forEach((sheet, i) => {
      const xml = parts[`xl/worksheets/sheet${i + 1}.xml`] ?? '';
      const rows = xml.slice(xml.indexOf('<row r="3">'), xml.indexOf('</sheetData>'));
      const reference = referenceRows(sheet, books);
      // Where they first differ, not both whole (a row holds a text of a quarter megabyte).
      let at = 0;
      while (at < rows.length && rows[at] === reference[at]) at++;
      expect({ sheet: sheet.name, at, rows: rows.slice(at - 80, at + 80) }).toEqual({
        sheet: sheet.name,
        at: reference.length,
        rows: reference.slice(at - 80, at + 80),
      });
      expect(rows.length).toBe(reference.length);
    });
  }

  it('writes each tab the cells the cell-by-cell writer wrote, byte for byte', async () => {
    const parts = await write(docs, nativeDeflate);
    expectReferenceRows(parts, docs);
    // What the reference must have covered, so the comparison means something.
    const has = (sheet: number, text: string): boolean =>
      (parts[`xl/worksheets/sheet${sheet}.xml`] ?? '').includes(text);
    expect(has(1, 't="inlineStr"><is><t xml:space="preserve">Asset 1 +1</t>')).toBe(true);
    expect(has(1, ' s="2" t="inlineStr"><is><t xml:space="preserve">=SUM(A10)')).toBe(true);
    expect(has(1, 'Zürich &lt;&amp;&gt; &quot;quoted&quot;')).toBe(true);
    expect(has(1, '<v>-2147483648</v>')).toBe(true);
    expect(has(1, '<v>1e+21</v>')).toBe(true);
    expect(has(1, `long ${'é'.repeat(CHUNK_BYTES)} end`)).toBe(true);
    expect(has(7, '>BREEAM</t>')).toBe(true);
    expect(has(7, '<v>987654</v>')).toBe(true);
    expect(has(2, ' t="b"><v>1</v>')).toBe(true);
    expect(has(3, ' s="1"><v>44927</v>')).toBe(true);
    expect(has(3, 'not a date')).toBe(true);
  });

  it('writes every cell of an asset whose fields differ from the asset before', async () => {
    // A tab looks at the columns the assets before filled, for as long as each fills the same
    // fields in the same order: a field left undefined, then given, must still be written.
    const record = (year: number, i: number): Record<string, unknown> =>
      i % 4 === 1
        ? { year, en_abs_we: undefined, en_cov_we: 900 }
        : i % 4 === 2
          ? { year, en_abs_we: i, en_cov_we: 900 }
          : i % 4 === 3
            ? { year, en_cov_we: 900, en_abs_we: i }
            : { year, ghg_abs_s1_w: i };
    const books = Array.from({ length: 24 }, (_, i) => ({
      name: i % 5 === 3 ? undefined : `Asset ${i}`,
      size: i % 3 === 0 ? undefined : 100 + i,
      ...(i % 7 === 2 ? { gav: i } : {}),
      certifications: i % 6 === 5 ? [] : [{ certification_id: 1, level: 'Gold', size: i, year: 2020 }],
      annual_data: (i % 8 === 4 ? [2024] : years).map((year) => record(year, i >> 1)),
    })) as AssetInput[];
    expectReferenceRows(await write(books, nativeDeflate), books);
  });

  it('writes a book larger than one write to the sink whole, each write taken before the next', async () => {
    // Names of random letters pack to about 60% of their size: 6 MB of them on each of six tabs
    // are written in several runs of chunks, each joined in the same array (zip-out.ts `batches`).
    let seed = 7;
    const letter = (): string =>
      String.fromCharCode(97 + (((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % 26));
    const books = Array.from({ length: 300 }, (_, i) => ({
      name: `${i} ${Array.from({ length: 20_000 }, letter).join('')}`,
    })) as AssetInput[];
    const parts = await write(books, nativeDeflate);
    // Every tab but the two of records names its assets.
    for (const tab of [1, 2, 3, 4, 5, 6]) {
      const sheet = parts[`xl/worksheets/sheet${tab}.xml`] ?? '';
      expect(books.filter((asset) => !sheet.includes(`>${asset.name}</t>`))).toEqual([]);
    }
  });

  it('writes the same parts with any deflate: in the thread pool, in the thread, or fflate', async () => {
    const pooled = await write(docs, nativeDeflate);
    const inThread = await write(docs, nativeDeflateSync);
    const fflate = await write(docs);
    delete pooled['docProps/core.xml'];
    delete inThread['docProps/core.xml'];
    delete fflate['docProps/core.xml'];
    expect(Object.keys(pooled)).toHaveLength(layout.length + 6);
    expect(inThread).toEqual(pooled);
    expect(fflate).toEqual(pooled);
  });

  it('fails the export when the deflate fails, and leaves no failure unhandled', async () => {
    const failing: RawDeflate = {
      deflate: (piece, final) =>
        final ? Promise.reject(new Error('disk full')) : nativeDeflate.deflate(piece, final),
      crc32: nativeDeflate.crc32,
    };
    await expect(write(docs, failing)).rejects.toThrow('disk full');
  });
});
