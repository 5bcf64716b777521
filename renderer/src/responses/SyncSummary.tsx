/** The last responses sync in one line, with what needs the analyst's attention. */
import { useResponses } from './responses-store';

export function SyncSummary() {
  const report = useResponses((s) => s.report);
  const error = useResponses((s) => s.syncError);
  const list = useResponses((s) => s.list);
  if (error)
    return (
      <p className="error sync-summary" role="alert" data-testid="responses-sync-error">
        Sync failed: {error}
      </p>
    );
  if (!report) return null;
  const nameOf = (id: number) => list?.find((r) => r.id === id)?.name ?? `response ${id}`;
  return (
    <div className="sync-summary" role="status" data-testid="responses-sync-report">
      <span data-testid="sync-sent">{report.sent} sent</span>
      <span data-testid="sync-conflicts" className={report.conflicts.length > 0 ? 'count-conflict' : ''}>
        {report.conflicts.length} conflict{report.conflicts.length === 1 ? '' : 's'}
      </span>
      <span data-testid="sync-errors" className={report.rejected.length > 0 ? 'count-error' : ''}>
        {report.rejected.length} error{report.rejected.length === 1 ? '' : 's'}
      </span>
      <span className="hint">{report.pulled} read from the service</span>
      {report.stopped && (
        <span className="count-error" data-testid="sync-stopped">
          Stopped: {report.stopped.message}
        </span>
      )}
      {report.notTaken.length > 0 && (
        <div className="sync-not-taken" data-testid="sync-not-taken">
          <p>
            This service does not take {report.notTaken.length === 1 ? 'this indicator' : 'these indicators'}{' '}
            (it answered “{report.notTaken[0]?.message}”). Answers to{' '}
            {report.notTaken.length === 1 ? 'it' : 'them'} stay here and are not sent; every other indicator
            syncs as usual.
          </p>
          <ul>
            {report.notTaken.map((n) => (
              <li key={n.variable}>
                {n.label} <code>{n.variable}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.rejected.length > 0 && (
        <ul className="sync-rejected">
          {report.rejected.map((r) => (
            <li key={`${r.responseId}:${r.variable}`}>
              {nameOf(r.responseId)} · <code>{r.variable}</code>: {r.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
