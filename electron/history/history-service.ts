/**
 * Cell history and the audit log over the open workspace (issue 31): a cell's, an answer's or a
 * meter's or reading's cell's history (`meter-cell-history.ts`), the grid's markers, the audit log's export, and the records of the imports applied (the
 * file is gone; `workspace/import-records.ts`). Its slice of the bridge: `workspace.cellHistory`,
 * `workspace.answerHistory`, `workspace.meterCellHistory`, `workspace.handCells`, `workspace.exportAuditLog`,
 * `workspace.importRecord`, `workspace.recentImports`. What is recorded is recorded by the write path (CellHistory is its
 * ChangeRecorder), never here.
 */
import { basename } from 'node:path';
import { badRequest, notFound } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';
import { writeThenRename } from '../storage/write-then-rename';
import type { PickSaveFile } from '../workbook/workbook-service';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { auditPages, type AuditFilter } from './audit-log';
import { writeAuditCsv, writeAuditXlsx } from './audit-files';
import { cellsOf } from '../workspace/cell-values';
import { meterCellHistory } from './meter-cell-history';

export type HistoryHandlers = Pick<
  BridgeHandlers,
  | 'workspace.cellHistory'
  | 'workspace.answerHistory'
  | 'workspace.meterCellHistory'
  | 'workspace.handCells'
  | 'workspace.exportAuditLog'
  | 'workspace.importRecord'
  | 'workspace.recentImports'
>;

export interface HistoryDeps {
  /** The open workspace's store (throws, in words, when none is open). */
  store(): WorkspaceStore;
  pickSaveFile?: PickSaveFile | undefined;
  /** The browser host: the written file becomes a one-time download; answers its id. */
  offerDownload?: ((file: string, name: string) => string) | undefined;
}

/** Writes the audit log of `filter` to `file`; answers how many lines it holds. */
export function exportAuditLog(
  store: WorkspaceStore,
  file: string,
  format: 'csv' | 'xlsx',
  filter: AuditFilter,
): Promise<number> {
  const pages = auditPages(store.cells, filter);
  return format === 'csv' ? writeAuditCsv(file, pages) : writeAuditXlsx(file, pages);
}

export function historyService(deps: HistoryDeps): { handlers: HistoryHandlers } {
  return {
    handlers: {
      'workspace.cellHistory': ({ localId, path }) => {
        const store = deps.store();
        const current = cellsOf('asset', store.asset(localId)?.current ?? null).get(path) ?? null;
        return store.cells.entries({ kind: 'asset', id: localId }, path, current);
      },
      'workspace.answerHistory': ({ responseId, variable }) => {
        const store = deps.store();
        const current = cellsOf('answer', store.cells.answerValue(responseId, variable)).get('value') ?? null;
        return store.cells.entries({ kind: 'answer', id: `${responseId}:${variable}` }, 'value', current);
      },
      'workspace.meterCellHistory': (cell) => meterCellHistory(deps.store(), cell),
      'workspace.handCells': ({ ids }) => Object.fromEntries(deps.store().cells.handCells('asset', ids)),
      'workspace.importRecord': ({ importId, localId, path, offset }) => {
        const cell = localId !== undefined && path !== undefined ? { localId, path } : undefined;
        const record = deps.store().imports.detail(importId, cell, offset);
        if (!record) throw notFound('That import is not recorded in this workspace.');
        return record;
      },
      'workspace.recentImports': () => deps.store().imports.recent(),
      'workspace.exportAuditLog': async ({ format, from, to, localIds }) => {
        const store = deps.store();
        if (!deps.pickSaveFile) throw badRequest('This host has no save dialog.');
        const defaultName = `Audit log ${new Date().toISOString().slice(0, 10)}.${format}`;
        const file = await deps.pickSaveFile({ defaultName, extensions: [format] });
        if (file === undefined) return null;
        let changes = 0;
        await writeThenRename(file, async (tmp) => {
          changes = await exportAuditLog(store, tmp, format, { from, to, localIds });
        });
        if (deps.offerDownload) {
          const downloadId = deps.offerDownload(file, defaultName);
          return { fileName: defaultName, changes, downloadId };
        }
        return { fileName: basename(file), changes };
      },
    },
  };
}
