/** One line per asset of an import preview: what would change, or why the asset is rejected. */
import type { CellIssue, ImportPreview, PreviewRow } from '../../../shared/workbook/import-export-types';
import { pathLabel } from '../validation/labels';
import { showValue, statusLabel, statusOrder } from './format';

/** A pool of thousands of assets would make the dialog sluggish; the counts above say the rest. */
const MAX_ROWS = 300;
/** A new asset lists every field it brings; the first few identify it, the rest fold away. */
const MAX_INLINE_CHANGES = 8;

export function PreviewTable({ preview, showUnchanged }: { preview: ImportPreview; showUnchanged: boolean }) {
  const rows = preview.rows
    .filter((r) => showUnchanged || r.status !== 'unchanged')
    .sort((a, b) => statusOrder[a.status] - statusOrder[b.status]);
  const shown = rows.slice(0, MAX_ROWS);
  if (rows.length === 0) {
    return (
      <p className="hint preview-empty" data-testid="preview-empty">
        {preview.rows.length === 0
          ? 'The file holds no asset rows.'
          : 'Every asset in the file is unchanged.'}
      </p>
    );
  }
  return (
    <div className="preview-scroll" tabIndex={0} aria-label="Import preview rows">
      <table className="preview-table" data-testid="preview-table">
        <caption className="visually-hidden">
          Assets in {preview.fileName} and what the import does to them
        </caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Asset</th>
            <th scope="col">Changes and problems</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => (
            <PreviewLine key={row.localId ?? `${row.status}:${row.name ?? ''}:${i}`} row={row} />
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p className="hint">
          Showing the first {shown.length} of {rows.length} assets.
        </p>
      )}
    </div>
  );
}

function PreviewLine({ row }: { row: PreviewRow }) {
  const inline = row.changes.slice(0, MAX_INLINE_CHANGES);
  const folded = row.changes.slice(MAX_INLINE_CHANGES);
  return (
    <tr
      className={`preview-row status-${row.status}`}
      data-testid="preview-row"
      data-status={row.status}
      data-local-id={row.localId ?? ''}
      data-service-id={row.serviceAssetId ?? ''}
    >
      <td>
        <span className={`status-badge status-${row.status}`}>{statusLabel[row.status]}</span>
      </td>
      <td className="preview-asset">
        <span className="preview-name">{row.name ?? '(no name)'}</span>
        {row.serviceAssetId !== null && <span className="hint"> #{row.serviceAssetId}</span>}
      </td>
      <td>
        {row.errors.length > 0 && (
          <ul className="preview-problems">
            {row.errors.map((issue, i) => (
              <ProblemLine key={`${issue.cell}:${i}`} issue={issue} />
            ))}
          </ul>
        )}
        {inline.length > 0 && (
          <ul className="preview-changes">
            {inline.map((change) => (
              <ChangeLine key={change.path} change={change} />
            ))}
          </ul>
        )}
        {folded.length > 0 && (
          <details className="preview-more">
            <summary>{folded.length} more fields</summary>
            <ul className="preview-changes">
              {folded.map((change) => (
                <ChangeLine key={change.path} change={change} />
              ))}
            </ul>
          </details>
        )}
        {row.status === 'unchanged' && <span className="hint">No change</span>}
      </td>
    </tr>
  );
}

function ChangeLine({ change }: { change: PreviewRow['changes'][number] }) {
  return (
    <li data-testid="preview-change" data-path={change.path}>
      <span className="change-field">{pathLabel(change.path)}</span>
      {change.cell && <span className="cell-ref">{change.cell}</span>}
      <span className="change-values">
        <span className="change-before" data-testid="change-before">
          {showValue(change.before)}
        </span>
        <span aria-label="becomes"> → </span>
        <span className="change-after" data-testid="change-after">
          {showValue(change.after)}
        </span>
      </span>
    </li>
  );
}

export function ProblemLine({ issue }: { issue: CellIssue }) {
  const where = issue.cell ? `${issue.sheet}!${issue.cell}` : issue.sheet;
  return (
    <li
      className={`preview-problem severity-${issue.severity}`}
      data-testid="preview-problem"
      data-cell={where}
    >
      <span className="problem-badge">{issue.severity === 'error' ? 'Problem' : 'Warning'}</span>
      {where && <span className="cell-ref">{where}</span>}
      {/* Most reasons quote the cell already; the value is shown when the reason does not. */}
      {issue.value && !issue.reason.includes(issue.value) && (
        <span className="problem-value">“{issue.value}”</span>
      )}
      <span className="problem-reason" data-testid="problem-reason">
        {issue.reason}
      </span>
    </li>
  );
}
