/**
 * A cell's history (issue 31): every value it held, newest first, each with its source in words
 * ("pasted from the clipboard", "from assets-2025.xlsx, Energy!F12", "from the service, updated
 * 3 Mar 2026") and its time. Opened from the cell menu or Alt+H; read from main each time it opens.
 */
import { useEffect, useRef, useState } from 'react';
import type { CellHistoryEntry } from '../../../shared/history/change-source';
import { dayInWords, sourceInWords } from '../../../shared/history/source-words';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { formatValue } from '../grid-model/values';
import { showMetersOf } from '../meters/meters-store';
import { setTab } from '../store/ui';
import { useCellHistoryUi, type CellTarget } from './cell-history-ui';

function readHistory(target: CellTarget): Promise<CellHistoryEntry[]> {
  if (target.responseId !== undefined && target.variable !== undefined)
    return bridge.methods['workspace.answerHistory']({
      responseId: target.responseId,
      variable: target.variable,
    });
  return bridge.methods['workspace.cellHistory']({ localId: target.localId ?? '', path: target.path ?? '' });
}

const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '(empty)';
  return Array.isArray(value) ? value.join(', ') : formatValue(value);
};

/**
 * Where an entry came from, in words; a value made from meters offers the way to them: the Meters
 * tab on this asset's meters and readings (its filter), the panel closed.
 */
function SourceOf({
  entry,
  localId,
  close,
}: {
  entry: CellHistoryEntry;
  localId?: string;
  close: () => void;
}) {
  const words = sourceInWords(entry.source);
  if (entry.source.kind !== 'meters' || localId === undefined) return <>{words}</>;
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

const timeOf = (at: number): string => {
  const date = new Date(at);
  const hh = String(date.getHours()).padStart(2, '0');
  const mm = String(date.getMinutes()).padStart(2, '0');
  return `${dayInWords(date.getTime() - date.getTimezoneOffset() * 60_000)}, ${hh}:${mm}`;
};

export function CellHistoryPanel() {
  const target = useCellHistoryUi((s) => s.shown);
  const ref = useRef<HTMLDialogElement>(null);
  const [entries, setEntries] = useState<CellHistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!target) {
      if (dialog.open) dialog.close();
      return;
    }
    if (!dialog.open) dialog.showModal();
    let live = true;
    setEntries(null);
    setError(null);
    readHistory(target).then(
      (list) => live && setEntries(list),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [target]);

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
                      <SourceOf entry={entry} localId={target.localId} close={close} />
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
