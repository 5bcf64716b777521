import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssetInput } from '../../../shared/domain';
import { nativeDeflate } from '../../../electron/workbook/native-deflate';
import { writeAssetWorkbook } from '../../../shared/workbook/write-workbook';
import { inflateAndScanFloor, workbookXmlParts } from '../../../bench/support/workbook-floors';

const years = [2023, 2024];
const docs: AssetInput[] = Array.from({ length: 40 }, (_, i) => ({
  name: `Asset ${i} <&>`,
  country: 'NL',
  property_type_code: 'OCHI',
  size: 1_000 + i,
  annual_data: years.map((year) => ({ year, en_abs_we: 10 * i + year, en_cov_we: 900, en_tot_we: 1_000 })),
}));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function exportBook(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'floor-test-'));
  dirs.push(dir);
  const file = join(dir, 'book.xlsx');
  const handle = await open(file, 'w');
  try {
    await writeAssetWorkbook(handle, docs, { years }, nativeDeflate);
  } finally {
    await handle.close();
  }
  return file;
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

// The floors must do the same work as what they floor, on the same data: these check they do.
describe('workbook floors', () => {
  it('the export floor packs exactly the XML the export writes', async () => {
    const file = await exportBook();
    const parts = await workbookXmlParts(docs, years);
    const text = parts.map((part) => part.toString('utf8')).join('');
    expect(text).toContain('Asset 39 &lt;&amp;&gt;');
    // The same bytes the import floor unpacks from the file the export wrote.
    expect(inflateAndScanFloor(file).unpacked).toBe(parts.reduce((n, part) => n + part.length, 0));
    for (const part of parts)
      expect(inflateRawSync(deflateRawSync(part, { level: 1 })).equals(part)).toBe(true);
  });

  it("the import floor finds every cell's tags in every sheet of the file", async () => {
    const file = await exportBook();
    const parts = await workbookXmlParts(docs, years);
    const sheets = parts.map((part) => part.toString('utf8')).filter((xml) => xml.includes('<sheetData'));
    const cells = sheets.reduce((n, xml) => n + count(xml, '<c '), 0);
    expect(cells).toBeGreaterThan(docs.length * 4);
    expect(inflateAndScanFloor(file).cells).toBe(cells);
  });
});
