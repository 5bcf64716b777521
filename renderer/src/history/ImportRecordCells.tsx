/**
 * The cells an applied import changed, a page at a time (`importCellsWindow`, main's window): a
 * record of thousands of cells is read page by page through `workspace.importRecord`'s `offset`,
 * never whole. The cell of the history entry that opened the record is highlighted and scrolled
 * to on the page that holds it.
 */
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../shared/errors';
import { importCellsWindow, type ImportDetail } from '../../../shared/history/import-record';
import { bridge } from '../bridge';
import type { ImportTarget } from './cell-history-ui';
import { count, shown } from './history-words';

type Page = Pick<ImportDetail, 'offset' | 'rows' | 'highlighted' | 'changes'>;

export function ImportRecordCells({ record, target }: { record: ImportDetail; target: ImportTarget }) {
  const [page, setPage] = useState<Page>(record);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const marked = useRef<HTMLTableRowElement>(null);
  const top = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setPage(record);
  }, [record]);
  // The highlighted cell in view, else the page's top (an effect returns nothing).
  useEffect(() => {
    if (marked.current) marked.current.scrollIntoView({ block: 'center' });
    else top.current?.scrollTo({ top: 0 });
  }, [page]);

  const go = (offset: number) => {
    setReading(true);
    setError(null);
    bridge.methods['workspace.importRecord']({ ...target, offset }).then(
      (found) => {
        setPage(found);
        setReading(false);
      },
      (err: unknown) => {
        setError(errorMessage(err));
        setReading(false);
      },
    );
  };

  if (page.changes === 0) return null;
  const end = page.offset + page.rows.length;
  const paged = page.changes > page.rows.length;
  return (
    <>
      <p className="hint" role="status">
        {paged
          ? `Cells ${page.offset + 1}–${end} of ${page.changes.toLocaleString('en-US')} it changed:`
          : `The ${count(page.changes, 'cell')} it changed:`}
      </p>
      <div className="import-record-cells" ref={top}>
        <table className="cell-history-table">
          <thead>
            <tr>
              <th scope="col">In the file</th>
              <th scope="col">Asset</th>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Was</th>
            </tr>
          </thead>
          <tbody>
            {page.rows.map((row, i) => (
              <tr
                key={page.offset + i}
                ref={i === page.highlighted ? marked : undefined}
                className={i === page.highlighted ? 'highlighted' : undefined}
                aria-current={i === page.highlighted ? 'true' : undefined}
                data-testid="import-record-cell"
              >
                <td>{row.place ?? ''}</td>
                <td>{row.asset}</td>
                <td title={row.path}>{row.field}</td>
                <td>{shown(row.value)}</td>
                <td>{shown(row.previous)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error && <p className="error">{error}</p>}
      {paged && (
        <div className="import-record-pages">
          <button
            type="button"
            disabled={reading || page.offset === 0}
            onClick={() => go(Math.max(0, page.offset - importCellsWindow))}
          >
            Earlier cells
          </button>
          <button type="button" disabled={reading || end >= page.changes} onClick={() => go(end)}>
            Later cells
          </button>
        </div>
      )}
    </>
  );
}
