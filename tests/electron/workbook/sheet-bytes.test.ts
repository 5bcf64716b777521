import { describe, expect, it } from 'vitest';
import { denseCells, type RawOrIssue, type RowCells } from '../../../electron/workbook/sheet-parser';
import { WorksheetBytesReader } from '../../../electron/workbook/sheet-bytes';
import { SharedStringsReader, WorksheetReader } from '../../../electron/workbook/sheet-xml';
import { defaultLimits, type WorkbookLimits } from '../../../electron/workbook/workbook-limits';

/**
 * The byte reader (what the import reads worksheets with) held to the string reader (the import's
 * reader before it, still the readings import's) on tricky sheets, cut into chunks of every size:
 * the same rows, the same cells, the same refusals.
 */

const strings = (() => {
  const reader = new SharedStringsReader(defaultLimits);
  reader.push(
    '<sst><si><t>first</t></si><si><r><t>sec</t></r><r><t>ond</t></r><rPh><t>x</t></rPh></si>' +
      '<si><t xml:space="preserve"> café &amp; 日本 </t></si></sst>',
  );
  return reader.strings;
})();

type Rows = Array<[number, RawOrIssue[]]>;
type Outcome = Rows | { refused: string };

function readWith(
  kind: 'bytes' | 'text',
  xml: string,
  chunk: number,
  opts: { width?: number; limits?: Partial<WorkbookLimits> } = {},
): Outcome {
  const rows: Rows = [];
  const limits = { ...defaultLimits, ...opts.limits };
  const sink = {
    width: () => opts.width,
    row: (n: number, cells: RawOrIssue[]) => rows.push([n, cells.slice()]),
  };
  try {
    if (kind === 'bytes') {
      const reader = new WorksheetBytesReader(
        'Tab',
        strings,
        limits,
        { cells: 0 },
        {
          width: sink.width,
          row: (n: number, cells: RowCells) => sink.row(n, denseCells(cells)),
        },
      );
      const bytes = Buffer.from(xml);
      for (let i = 0; i < bytes.length; i += chunk) reader.push(bytes.subarray(i, i + chunk));
    } else {
      const reader = new WorksheetReader('Tab', strings, limits, { cells: 0 }, sink);
      const bytes = Buffer.from(xml);
      const decoder = new TextDecoder();
      for (let i = 0; i < bytes.length; i += chunk)
        reader.push(decoder.decode(bytes.subarray(i, i + chunk), { stream: true }));
      reader.push(decoder.decode());
    }
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
  return rows;
}

/**
 * The byte reader gives what the string reader gives, fed the same chunks, at every chunk size
 * given (a row's byte limit is met only by a row held across chunks, in both); returns what the
 * string reader read from the whole text.
 */
function expectSame(
  xml: string,
  opts: { width?: number; limits?: Partial<WorkbookLimits> } = {},
  chunks = [1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 64, 1000],
): Outcome {
  for (const chunk of [...chunks, Buffer.byteLength(xml)]) {
    expect(readWith('bytes', xml, chunk, opts), `bytes, chunks of ${chunk}`).toEqual(
      readWith('text', xml, chunk, opts),
    );
  }
  return readWith('text', xml, Buffer.byteLength(xml), opts);
}

const sheet = (rows: string): string =>
  `<?xml version="1.0"?><worksheet><cols><col min="1" max="1"/></cols><sheetData>${rows}</sheetData><rowBreaks count="1"><brk id="3"/></rowBreaks></worksheet>`;

describe('the byte reader against the string reader', () => {
  it('reads shared strings, inline strings, escapes and text that is not ASCII the same', () => {
    const rows = expectSame(
      sheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>' +
          '<c r="D1" t="s"><v>9</v></c><c r="E1" t="s"><v> 1 </v></c><c r="F1" t="s"><v></v></c></row>' +
          '<row r="2"><c r="A2" t="inlineStr"><is><t>plain</t></is></c>' +
          '<c r="B2" t="inlineStr"><is><t xml:space="preserve"> spaced </t></is></c>' +
          '<c r="C2" t="inlineStr"><is><r><t>rich </t></r><r><t>text</t></r></is></c>' +
          '<c r="D2" t="inlineStr"><is><t>a &amp; b &lt;c&gt; &#x41;&#66; &quot;q&quot;</t></is></c>' +
          '<c r="E2" t="inlineStr"><is><t>Zürich – 東京 🏢</t></is></c>' +
          '<c r="F2" t="inlineStr"><is><t/></is></c><c r="G2" t="inlineStr"><is><t></t></is></c>' +
          '<c r="H2" t="inlineStr"><is><t>ruby</t><rPh><t>r</t></rPh></is></c>' +
          '<c r="I2" t="str"><f>A1</f><v>&lt;x&gt; é</v></c><c r="J2" t="inlineStr"><is><t>a > b</t></is></c></row>',
      ),
    );
    expect(rows).toEqual([
      [
        1,
        [
          'first',
          'second',
          ' café & 日本 ',
          { unreadable: 'The cell refers to a text the workbook does not hold' },
          'second',
          'first',
        ],
      ],
      [
        2,
        [
          'plain',
          ' spaced ',
          'rich text',
          'a & b <c> AB "q"',
          'Zürich – 東京 🏢',
          '',
          '',
          'ruby',
          '<x> é',
          'a > b',
        ],
      ],
    ]);
  });

  it('reads numbers as Number reads their text: exponents, negatives, long digits, blanks, errors', () => {
    const values = [
      '12.5',
      '-3',
      '-0',
      '0',
      '007',
      '1E-3',
      '1.5e+10',
      '-2.5E-7',
      '1e22',
      '123456789012345e22',
      '1e23',
      '0.30000000000000004',
      '123456789012345678',
      '9007199254740993',
      ' 42 ',
      '',
      '+5',
      '.5',
      '-.5',
      '1.',
      '.',
      '-',
      '1e',
      '1e+',
      'abc',
      '1.2.3',
      '0x10',
      'Infinity',
      '1e400',
      '4.9e-324',
      '2.2250738585072014E-308',
      '45292',
      '45292.75',
      '-1234567.891',
      '99999999999999.9',
      '0.000001',
      '1E0',
    ];
    const cells = values.map((v, i) => `<c r="${letters(i + 1)}7"><v>${v}</v></c>`).join('');
    const rows = expectSame(sheet(`<row r="7">${cells}</row>`), {}, [1, 3, 7, 64]);
    const read = (rows as Rows)[0]![1];
    values.forEach((v, i) => {
      const expected =
        v.trim() === ''
          ? null
          : Number.isNaN(Number(v))
            ? { unreadable: 'The cell shows an error value' }
            : Number(v);
      expect(read[i], v).toEqual(expected);
    });
    expect(Object.is(read[2], -0)).toBe(true);
  });

  it('reads booleans, errors, dates, formulas with and without results, and empty cells the same', () => {
    expectSame(
      sheet(
        '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="b"><v>0</v></c><c r="C3" t="b"><v>true</v></c>' +
          '<c r="D3" t="b"><v> 1 </v></c><c r="E3" t="b"><v>2</v></c><c r="F3" t="e"><v>#DIV/0!</v></c>' +
          '<c r="G3" t="d"><v>2024-01-31T00:00:00Z</v></c><c r="H3"><f>A3*2</f></c><c r="I3"><f>A3</f><v>4</v></c>' +
          '<c r="J3" s="1"/><c r="K3" s="1"></c><c r="L3"><v/></c><c r="M3" t="n"><v>5</v></c>' +
          '<c r="N3" t="s"><f>X</f><v>0</v></c><c r="O3"><v>1<!-- x --></v></c><c r="P3" t="b"><v/></c></row>',
      ),
    );
  });

  it('places cells by reference, in any attribute order, or one after another without one', () => {
    expectSame(
      sheet(
        '<row r="4" spans="1:9" ht="15"><c s="3" t="s" r="C4"><v>0</v></c><c r="A4" s="1"><v>1</v></c>' +
          '<c><v>2</v></c><c r="e4"><v>3</v></c><c r="AA4"><v>4</v></c></row>' +
          '<row><c><v>1</v></c><c><v>2</v></c></row><row r="9"/><row><c r="B10"><v>3</v></c></row>' +
          '<row r="x"><c r="A1"><v>1</v></c></row><row r=""><c r="A1"><v>1</v></c></row>' +
          '<row r="12"><c\tr="A12"><v>1</v></c><cx r="B12"><v>2</v></cx><c r="C12"><v>3</v></c></row>',
      ),
    );
  });

  it('finds the rows wherever the chunks cut, with space, other elements and text after the rows', () => {
    expectSame(
      '<worksheet>\n  <sheetData>\n    <row r="1">\n      <c r="A1"><v>1</v></c>\n    </row>\n' +
        '    <row r="2" />\n    <rowx r="3"><c r="A3"><v>3</v></c></rowx>\n    <row\tr="4"><c r="A4"><v>4</v></c></row>\n' +
        '  </sheetData>\n  <row r="5"><c r="A5"><v>5</v></c></row>\n</worksheet>',
    );
    expectSame('<worksheet><sheetData/></worksheet>');
    expectSame('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>');
  });

  it('leaves out the cells right of the width and reads what is malformed the same', () => {
    const rows = '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c><c r="C1"><v>3</v></c></row>';
    expectSame(sheet(rows), { width: 2 });
    expectSame(
      sheet(
        '<row r="1"><c r="A1"><v>1</c><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><v>5</v></c></row>',
      ),
    );
    expectSame(sheet('<row r="1"><c r="A1"><v>12</v><c r="B1"><v>2</v></c></row>'));
    expectSame(sheet('<row r="1"><c r="A1"><v>12</row><row r="2"><c r="A2"><v>2</v></c></row>'));
    expectSame(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>a</row><row r="2"/>'));
    expectSame(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s'));
  });

  it('refuses what crosses a limit the same way', () => {
    const many = Array.from(
      { length: 30 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`,
    ).join('');
    const blank = Array.from({ length: 30 }, (_, i) => `<row r="${i + 1}"/>`).join('');
    for (const [xml, limits] of [
      [many, { maxRowElements: 20 }],
      [blank, { maxRowElements: 20 }],
      [many, { maxCells: 25 }],
      [sheet('<row r="1"><c r="A1"><v>1</v></c><c r="ZZ1"><v>2</v></c></row>'), { maxColumns: 100 }],
      [sheet('<row r="1"><c><v>1</v></c><c><v>1</v></c><c><v>1</v></c></row>'), { maxColumns: 2 }],
      [sheet(`<row r="1">${'<c><v>1</v></c>'.repeat(40)}</row>`), { maxRowBytes: 300 }],
      [sheet(`<row r="1" ${'x="1" '.repeat(60)}><c><v>1</v></c></row>`), { maxRowBytes: 300 }],
    ] as const) {
      expectSame(xml, { limits }, [1, 7, 64, 200]);
      expect(readWith('bytes', xml, 64, { limits })).toHaveProperty('refused');
    }
  });

  it('reads generated sheets of every kind of cell the same at any cut', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const kinds = [
      () => `<v>${random(2_000_000) - 1_000_000}</v>`,
      () => `<v>${(random(1_000_000) / 1000).toString()}</v>`,
      () => `<v>${(random(1000) * 1.1e-9).toString()}</v>`,
      () => `<v>${Math.sqrt(random(10_000))}</v>`,
      () => `<v>${random(60_000)}</v>`,
    ];
    const texts = ['Asset 1', 'a &amp; b', 'Genève', '', ' x ', '北京'];
    for (let round = 0; round < 4; round++) {
      let xml = '';
      for (let r = 1; r <= 40; r++) {
        xml += `<row r="${r}">`;
        for (let c = 1; c <= 12; c++) {
          const ref = random(5) === 0 ? '' : ` r="${letters(c)}${r}"`;
          const pick = random(10);
          if (pick < 5) xml += `<c${ref} s="1">${kinds[random(kinds.length)]!()}</c>`;
          else if (pick === 5) xml += `<c${ref} t="s"><v>${random(4)}</v></c>`;
          else if (pick === 6)
            xml += `<c${ref} t="inlineStr"><is><t>${texts[random(texts.length)]}</t></is></c>`;
          else if (pick === 7) xml += `<c${ref} t="b"><v>${random(2)}</v></c>`;
          else if (pick === 8) xml += `<c${ref}/>`;
        }
        xml += '</row>';
      }
      expectSame(sheet(xml), {}, [1, 2, 3, 5, 17, 100, 257]);
    }
  });
});

function letters(column: number): string {
  let out = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}
