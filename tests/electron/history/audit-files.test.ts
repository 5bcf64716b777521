import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeAuditCsv, writeAuditXlsx } from '../../../electron/history/audit-files';
import type { AuditRow } from '../../../electron/history/audit-log';

const rows: AuditRow[] = [
  {
    at: Date.UTC(2026, 2, 3, 10, 4, 5),
    asset: 'Tower <A> & "B"',
    field: 'City',
    path: 'city',
    previous: 'Rotterdam',
    value: '=HYPERLINK("http://evil.example","click")',
    source: 'typed',
  },
  {
    at: Date.UTC(2026, 2, 3, 11, 0, 0),
    asset: ' Spaced ',
    field: '2024 · Energy',
    path: 'annual_data/2024/en_abs_wf',
    previous: null,
    value: 1234.5,
    source: 'from assets-2025.xlsx, Energy!F12',
  },
];

async function* pages(): AsyncGenerator<AuditRow[]> {
  yield rows.slice(0, 1);
  yield rows.slice(1);
}

describe('the audit log files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'asset-desk-audit-'));

  it('CSV: a line per change, formula-like text neutralised with an apostrophe', async () => {
    const file = join(dir, 'audit.csv');
    expect(await writeAuditCsv(file, pages())).toBe(2);
    const lines = (await readFile(file, 'utf8'))
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Asset,Field,Path,Old value,New value,Source');
    expect(lines[1]).toBe(
      `2026-03-03 10:04:05,"Tower <A> & ""B""",City,city,Rotterdam,"'=HYPERLINK(""http://evil.example"",""click"")",typed`,
    );
    expect(lines[2]).toBe(
      '2026-03-03 11:00:00," Spaced ",2024 · Energy,annual_data/2024/en_abs_wf,,1234.5,"from assets-2025.xlsx, Energy!F12"',
    );
  });

  it('XLSX: read back by an independent reader, text as text (never a formula), numbers as numbers', async () => {
    const file = join(dir, 'audit.xlsx');
    expect(await writeAuditXlsx(file, pages())).toBe(2);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet = wb.getWorksheet('Audit log');
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'Time (UTC)',
      'Asset',
      'Field',
      'Path',
      'Old value',
      'New value',
      'Source',
    ]);
    const first = sheet!.getRow(2);
    expect(first.getCell(2).value).toBe('Tower <A> & "B"');
    expect(first.getCell(6).type).toBe(ExcelJS.ValueType.String);
    expect(first.getCell(6).value).toBe('=HYPERLINK("http://evil.example","click")');
    const second = sheet!.getRow(3);
    expect(second.getCell(2).value).toBe(' Spaced ');
    expect(second.getCell(5).value).toBeNull();
    expect(second.getCell(6).value).toBe(1234.5);
    expect(second.getCell(7).value).toBe('from assets-2025.xlsx, Energy!F12');
  });
});
