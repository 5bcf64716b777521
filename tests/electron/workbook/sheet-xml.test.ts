import { describe, expect, it } from 'vitest';
import type { RawOrIssue } from '../../../electron/workbook/sheet-parser';
import { SharedStringsReader, WorksheetReader } from '../../../electron/workbook/sheet-xml';
import { defaultLimits } from '../../../electron/workbook/workbook-limits';

const sheet =
  '<worksheet><sheetData>' +
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><r><t>rich </t></r><r><t xml:space="preserve">text &amp; more</t></r></is></c></row>' +
  '<row r="2" spans="1:4"><c r="A2"><v>12.5</v></c><c r="B2" t="b"><v>1</v></c><c r="D2" t="e"><v>#DIV/0!</v></c></row>' +
  '<row r="3"/>' +
  '<row r="4"><c r="A4"><f>A2*2</f></c><c r="B4" t="str"><f>A1</f><v>&lt;x&gt;</v></c><c r="C4" s="1"/></row>' +
  '<row><c><v>1</v></c><c><v>2</v></c></row>' +
  '</sheetData><rowBreaks count="1"><brk id="3"/></rowBreaks></worksheet>';

function read(chunk: number): Array<[number, RawOrIssue[]]> {
  const strings = new SharedStringsReader(defaultLimits);
  const sst =
    '<sst><si><t>first</t></si><si><r><t>sec</t></r><r><t>ond</t></r><rPh><t>x</t></rPh></si></sst>';
  for (let i = 0; i < sst.length; i += chunk) strings.push(sst.slice(i, i + chunk));
  const rows: Array<[number, RawOrIssue[]]> = [];
  const reader = new WorksheetReader(
    'Tab',
    strings.strings,
    defaultLimits,
    { cells: 0 },
    {
      width: () => undefined,
      row: (n, cells) => rows.push([n, cells]),
    },
  );
  for (let i = 0; i < sheet.length; i += chunk) reader.push(sheet.slice(i, i + chunk));
  return rows;
}

describe('the streaming sheet reader', () => {
  it('reads every kind of cell the same whatever the chunks the ZIP hands it', () => {
    const whole = read(sheet.length);
    expect(whole).toEqual([
      [1, ['first', null, 'rich text & more']],
      [2, [12.5, true, null, { unreadable: 'The cell shows the error #DIV/0!' }]],
      [
        4,
        [
          {
            unreadable:
              'The cell holds a formula without a saved result; open and save the workbook in Excel so the values are computed',
          },
          '<x>',
        ],
      ],
      [5, [1, 2]],
    ]);
    for (const chunk of [1, 2, 3, 5, 7, 11, 64]) expect(read(chunk)).toEqual(whole);
  });
});

describe('the end of the rows', () => {
  it('is found between rows wherever the chunks cut, with space between them or none', () => {
    const indented =
      '<worksheet>\n  <sheetData>\n    <row r="1"><c r="A1"><v>1</v></c></row>\n    <row r="2"><c r="A2"><v>2</v></c></row>' +
      '<row r="3"><c r="A3"><v>3</v></c></row>\n  </sheetData>\n  <extLst><row r="9"><c r="A9"><v>9</v></c></row></extLst>\n</worksheet>';
    for (const chunk of [1, 2, 3, 5, 7, 11, 13, 64, indented.length]) {
      const rows: number[] = [];
      const reader = new WorksheetReader(
        'Tab',
        [],
        defaultLimits,
        { cells: 0 },
        { width: () => undefined, row: (n) => rows.push(n) },
      );
      for (let i = 0; i < indented.length; i += chunk) reader.push(indented.slice(i, i + chunk));
      expect(rows).toEqual([1, 2, 3]);
    }
  });
});

describe('plain number cells', () => {
  it('read as Number reads their text, whole numbers found where they lie', () => {
    const texts = [
      '-0',
      '0012',
      '42',
      '-7',
      '999999999999999',
      '12345678901234567890',
      ' 12',
      '1e3',
      '',
      '-',
      '3.5',
    ];
    const xml =
      '<worksheet><sheetData><row r="1">' +
      texts.map((t, i) => `<c s="1" r="${String.fromCharCode(65 + i)}1"><v>${t}</v></c>`).join('') +
      '<c t="n" r="L1"><v>5</v></c></row></sheetData></worksheet>';
    const rows: RawOrIssue[][] = [];
    new WorksheetReader(
      'Tab',
      [],
      defaultLimits,
      { cells: 0 },
      {
        width: () => undefined,
        row: (_n, cells) => rows.push(cells),
      },
    ).push(xml);
    const expected = texts.map((t) =>
      t.trim() === ''
        ? null
        : Number.isNaN(Number(t))
          ? { unreadable: 'The cell shows an error value' }
          : Number(t),
    );
    expect(rows).toEqual([[...expected, 5]]);
    expect(Object.is(rows[0]![0], -0)).toBe(true);
  });
});
