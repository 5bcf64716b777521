/**
 * The Portfolio view's tables as a workbook the analyst keeps or sends on: one tab per table, its
 * header row bold and frozen. Small books, so exceljs's in-memory writer does (its styles included).
 */
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { badRequest } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';
import { writeThenRename } from '../storage/write-then-rename';
import type { PickSaveFile } from './workbook-service';

type Table = Parameters<BridgeHandlers['portfolio.export']>[0]['tables'][number];

/** Strings are written as strings, never formulas (a cell starting "=" stays text). */
const asCell = (value: string | number | null): ExcelJS.CellValue =>
  typeof value === 'string' && /^[=+\-@]/.test(value) ? { richText: [{ text: value }] } : value;

export async function writeTablesWorkbook(file: string, tables: readonly Table[]): Promise<void> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Asset Desk';
  for (const table of tables) {
    // The bridge's contract has held each name to Excel's rules (shared/workbook/tab-names.ts).
    const ws = wb.addWorksheet(table.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.addRow(table.columns).font = { bold: true };
    for (const row of table.rows) ws.addRow(row.map(asCell));
    ws.columns.forEach((column) => (column.width = 18));
  }
  await wb.xlsx.writeFile(file);
}

export function portfolioExport(deps: {
  pickSaveFile?: PickSaveFile | undefined;
  /** The browser host: the written file becomes a one-time download; answers its id. */
  offerDownload?: ((file: string, name: string) => string) | undefined;
}): {
  handlers: Pick<BridgeHandlers, 'portfolio.export'>;
} {
  return {
    handlers: {
      'portfolio.export': async ({ tables }) => {
        if (!deps.pickSaveFile) throw badRequest('This host has no save dialog.');
        const defaultName = `Portfolio ${new Date().toISOString().slice(0, 10)}.xlsx`;
        const file = await deps.pickSaveFile({ defaultName, extensions: ['xlsx'] });
        if (file === undefined) return null;
        await writeThenRename(file, (tmp) => writeTablesWorkbook(tmp, tables));
        if (deps.offerDownload) {
          const downloadId = deps.offerDownload(file, defaultName);
          return { fileName: defaultName, tables: tables.length, downloadId };
        }
        return { fileName: basename(file), tables: tables.length };
      },
    },
  };
}
