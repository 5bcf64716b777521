/**
 * An applied import's record (issue 31: "jump to the import"): the file is deleted once read, so
 * this shows what the workspace kept of it: the file, when, its tabs, what was applied and left
 * out, its undo step, and the cells it changed with where each was in the file, a page at a time
 * (ImportRecordCells.tsx), the cell of the history entry that opened it highlighted and scrolled
 * to. Opened from a cell's history ("Show the import") or the Import dialog's "Recent imports".
 */
import type { ImportSummary } from '../../../shared/history/import-record';
import { bridge } from '../bridge';
import { useCellHistoryUi } from './cell-history-ui';
import { useModalRead } from './use-modal-read';
import { ImportRecordCells } from './ImportRecordCells';
import { count, importFacts, timeOf } from './history-words';
import './history.css';

const kindWords: Record<ImportSummary['kind'], string> = {
  workbook: 'Workbook import',
  csv: 'CSV import',
  readings: 'Readings import',
};

const stepWords: Record<ImportSummary['step'], string> = {
  done: 'can be undone (Ctrl+Z while it is the last step)',
  undone: 'undone',
  gone: 'no longer kept for undo',
};

export function ImportRecordPanel() {
  const target = useCellHistoryUi((s) => s.importShown);
  const {
    ref,
    result: record,
    error,
  } = useModalRead(target, (found) => bridge.methods['workspace.importRecord'](found));

  const close = () => useCellHistoryUi.setState({ importShown: null });
  const added = record
    ? Object.entries(record.added).map(([kind, n]) => count(n, kind === 'reading' ? 'reading' : kind))
    : [];
  return (
    <dialog
      ref={ref}
      className="dialog import-record"
      aria-labelledby="import-record-title"
      data-testid="import-record"
      onClose={close}
    >
      {target && (
        <>
          <h2 id="import-record-title">
            {record ? `${kindWords[record.kind]} from ${record.file}` : 'An import'}
          </h2>
          {error && <p className="error">{error}</p>}
          {!record && !error && <p role="status">Reading the import…</p>}
          {record && (
            <>
              <dl className="import-record-facts" data-testid="import-record-facts">
                <dt>Applied</dt>
                <dd>{timeOf(record.at)}</dd>
                {record.sheets.length > 0 && (
                  <>
                    <dt>Tabs read</dt>
                    <dd>{record.sheets.join(', ')}</dd>
                  </>
                )}
                <dt>What it did</dt>
                <dd>{importFacts(record)}</dd>
                {added.length > 0 && (
                  <>
                    <dt>Added</dt>
                    <dd>{added.join(', ')}</dd>
                  </>
                )}
                <dt>Undo step</dt>
                <dd>
                  “{record.label}”: {stepWords[record.step]}
                </dd>
              </dl>
              <ImportRecordCells record={record} target={target} />
            </>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={close} autoFocus>
              Close
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
