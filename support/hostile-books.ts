/**
 * Hostile workbooks under the 40 MB file limit (hardening item 7), built here and small on disk:
 * deflate packs their repetition to almost nothing. Used by the limit tests and the workbook bench
 * (which times their refusals).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';

const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const pkgNs = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A minimal XLSX of one tab whose sheetData is `rows` (after a names row), with an optional shared-strings table. */
export function craft(dir: string, name: string, rows: string, sharedStrings?: string): string {
  const files: Record<string, Uint8Array> = {
    '_rels/.rels': strToU8(
      `<Relationships xmlns="${pkgNs}"><Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<workbook xmlns="${ns}" xmlns:r="${relNs}"><sheets><sheet name="Asset Characteristics" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="${pkgNs}"><Relationship Id="rId1" Type="${relNs}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${relNs}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<worksheet xmlns="${ns}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>service_asset_id</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>${rows}</sheetData></worksheet>`,
    ),
  };
  if (sharedStrings !== undefined)
    files['xl/sharedStrings.xml'] = strToU8(`<sst xmlns="${ns}">${sharedStrings}</sst>`);
  const file = join(dir, name);
  writeFileSync(file, zipSync(files, { level: 9 }));
  return file;
}

export const repeat = (n: number, item: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => item(i)).join('');

export const hostile = {
  /** More shared strings than the table may hold. */
  strings: (dir: string): string =>
    craft(
      dir,
      'strings.xlsx',
      '',
      repeat(2_000_001, () => '<si><t>a</t></si>'),
    ),
  /** A shared-strings table of 80 one-megabyte texts. */
  stringBomb: (dir: string): string => {
    const long = 'x'.repeat(1024 * 1024);
    return craft(
      dir,
      'string-bomb.xlsx',
      '',
      repeat(80, () => `<si><t>${long}</t></si>`),
    );
  },
  /** 100,000 rows each with a cell in column XFD. */
  xfd: (dir: string): string =>
    craft(
      dir,
      'xfd.xlsx',
      repeat(100_000, (i) => `<row r="${i + 2}"><c r="XFD${i + 2}"><v>1</v></c></row>`),
    ),
  /** A million blank rows. */
  blankRows: (dir: string): string =>
    craft(
      dir,
      'blank.xlsx',
      repeat(1_000_000, (i) => `<row r="${i + 2}"/>`),
    ),
  /** One row of 20 MB. */
  longRow: (dir: string): string =>
    craft(
      dir,
      'long-row.xlsx',
      `<row r="2"><c r="A2" t="inlineStr"><is><t>${'y'.repeat(20 * 1024 * 1024)}</t></is></c></row>`,
    ),
  /** 5,000 tabs whose relationships all point at one worksheet part of 20,000 rows (issue 29). */
  sharedParts: (dir: string): string => {
    const file = craft(
      dir,
      'shared-parts.xlsx',
      repeat(20_000, (i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`),
    );
    const sheets = repeat(5_000, (i) => `<sheet name="T${i}" sheetId="${i + 1}" r:id="rId1"/>`);
    const zip = unzipSync(readFileSync(file));
    zip['xl/workbook.xml'] = strToU8(
      `<workbook xmlns="${ns}" xmlns:r="${relNs}"><sheets>${sheets}</sheets></workbook>`,
    );
    writeFileSync(file, zipSync(zip, { level: 9 }));
    return file;
  },
  /** An archive whose central directory says the sheet unpacks to 3 GB. */
  declared: (dir: string): string => {
    const file = craft(dir, 'declared.xlsx', '<row r="2"><c r="A2"><v>1</v></c></row>');
    const bytes = readFileSync(file);
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    for (let at = bytes.indexOf(central); at >= 0; at = bytes.indexOf(central, at + 4))
      if (bytes.subarray(at + 46, at + 46 + name.length).equals(name))
        bytes.writeUInt32LE(3 * 1024 ** 3, at + 24);
    writeFileSync(file, bytes);
    return file;
  },
};

/** A CSV of a header and one line of 39 million commas: under the 40 MB file limit (issue 29). */
export function commasCsv(dir: string): string {
  const file = join(dir, 'commas.csv');
  writeFileSync(file, Buffer.concat([Buffer.from('service_asset_id,name\n'), Buffer.alloc(39_000_000, ',')]));
  return file;
}
