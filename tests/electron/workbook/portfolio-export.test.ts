/**
 * `portfolio.export` with tab names Excel refuses: each is a bad_request naming the name and the
 * rule, before the save dialog and before any file is written (exceljs used to throw mid-write,
 * answered "internal").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, dispatchToEnvelope, type Dispatch } from '../../../electron/bridge/dispatch';
import { startTestApp, type TestApp } from '../../../support/test-app';

let app: TestApp;
let dispatch: Dispatch;

beforeAll(async () => {
  app = await startTestApp();
  dispatch = createDispatcher(app.core.handlers);
}, 120_000);
afterAll(() => app?.close());

const table = (name: string) => ({ name, columns: ['Asset'], rows: [['Tower A']] });

describe('portfolio.export tab names', () => {
  it.each([
    [['A', 'a'], /"A" and "a" are the same to Excel, which ignores case/],
    [['Energy', 'ENERGY'], /"Energy" and "ENERGY" are the same/],
    [['History'], /"History" is "History", which Excel keeps for itself/],
    [['history'], /"history" is "History"/],
    [["'abc'"], /"'abc'" starts or ends with an apostrophe/],
    [["abc'"], /starts or ends with an apostrophe/],
    [['A/B'], /"A\/B" contains one of/],
    [['Q1: energy'], /contains one of/],
    [['   '], /is blank/],
    [[''], /is blank/],
    [['x'.repeat(32)], /is longer than 31 characters/],
  ])('refuses %j with the reason', async (names, reason) => {
    const file = join(app.dataDir, `refused-${Math.random().toString(36).slice(2)}.xlsx`);
    app.picker.saveNext = file;
    const answer = await dispatchToEnvelope(dispatch, 'portfolio.export', { tables: names.map(table) });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('bad_request');
    expect(answer.error.message).toMatch(reason);
    expect(existsSync(file)).toBe(false);
  });

  it('writes names Excel takes, apostrophes and all inside them', async () => {
    const file = join(app.dataDir, 'portfolio.xlsx');
    app.picker.saveNext = file;
    const names = ["Analyst's view", 'A', 'B', 'Histories', 'x'.repeat(31)];
    const answer = await dispatchToEnvelope(dispatch, 'portfolio.export', { tables: names.map(table) });
    expect(answer).toMatchObject({ ok: true, result: { tables: 5 } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((sheet) => sheet.name)).toEqual(names);
  });
});
