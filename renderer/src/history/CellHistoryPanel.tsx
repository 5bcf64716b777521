/**
 * A cell's history (issue 31): every value it held, newest first, each with its source in words
 * ("pasted from the clipboard", "from assets-2025.xlsx, Energy!F12", "from the service, updated
 * 3 Mar 2026") and its time. Opened from the cell menu or Alt+H; read from main each time it opens.
 * An import's entry opens the import's record (ImportRecordPanel.tsx).
 */
import type { CellHistoryEntry } from '../../../shared/history/change-source';
import { sourceInWords } from '../../../shared/history/source-words';
import { bridge } from '../bridge';
import { showMetersOf } from '../meters/meters-store';
import { setTab } from '../store/ui';
import { shown, timeOf } from './history-words';
import { openImportRecord, useCellHistoryUi, type CellTarget } from './cell-history-ui';
import { useModalRead } from './use-modal-read';

function readHistory(target: CellTarget): Promise<CellHistoryEntry[]> {
  if (target.meterCell) return bridge.methods['workspace.meterCellHistory'](target.meterCell);
  if (target.responseId !== undefined && target.variable !== undefined)
    return bridge.methods['workspace.answerHistory']({
      responseId: target.responseId,
      variable: target.variable,
    });
  return bridge.methods['workspace.cellHistory']({ localId: target.localId ?? '', path: target.path ?? '' });
}

/**
 * Where an entry came from, in words; a value made from meters offers the way to them: the Meters
 * tab on this asset's meters and readings (its filter), the panel closed; one from an import, the
 * import's record (the file itself is gone), this cell highlighted in it.
 */
function SourceOf({
  entry,
  target,
  close,
}: {
  entry: CellHistoryEntry;
  target: CellTarget;
  close: () => void;
}) {
  const words = sourceInWords(entry.source);
  const { localId, path } = target;
  const source = entry.source;
  if ((source.kind === 'workbook' || source.kind === 'csv') && source.import !== undefined) {
    const importId = source.import;
    const show = () =>
      openImportRecord({
        importId,
        ...(localId !== undefined && path !== undefined ? { localId, path } : {}),
      });
    return (
      <>
        {words}{' '}
        <button type="button" className="link-button" data-testid="cell-history-import" onClick={show}>
          Show the import
        </button>
      </>
    );
  }
  if (source.kind !== 'meters' || localId === undefined) return <>{words}</>;
  const jump = () => {
    close();
    setTab('meters');
    void showMetersOf(localId);
  };
  return (
    <>
      {words}{' '}
      <button type="button" className="link-button" data-testid="cell-history-meters" onClick={jump}>
        Show the meters
      </button>
    </>
  );
}

export function CellHistoryPanel() {
  const target = useCellHistoryUi((s) => s.shown);
  const { ref, result: entries, error } = useModalRead(target, readHistory);

  const close = () => useCellHistoryUi.setState({ shown: null });
  return (
    <dialog
      ref={ref}
      className="dialog cell-history"
      aria-labelledby="cell-history-title"
      data-testid="cell-history"
      onClose={close}
    >
      {target && (
        <>
          <h2 id="cell-history-title">History of {target.title}</h2>
          {error && <p className="error">{error}</p>}
          {!entries && !error && <p role="status">Reading the history…</p>}
          {entries?.length === 0 && <p>This cell has never had a value.</p>}
          {entries && entries.length > 0 && (
            <table className="cell-history-table">
              <thead>
                <tr>
                  <th scope="col">Value</th>
                  <th scope="col">Was</th>
                  <th scope="col">Where it came from</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry, i) => (
                  <tr key={i} data-testid="cell-history-entry" data-source={entry.source.kind}>
                    <td>{shown(entry.value)}</td>
                    <td>{entry.source.kind === 'before-history' ? '' : shown(entry.previous)}</td>
                    <td>
                      <SourceOf entry={entry} target={target} close={close} />
                    </td>
                    <td>{timeOf(entry.at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
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
