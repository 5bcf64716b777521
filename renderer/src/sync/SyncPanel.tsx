/**
 * The sync in one place: the button, progress with phase and counts, the rate-limit wait as a
 * countdown, the results (held-back and refused rows linked to their cells), conflicts side by side, a dry run.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SyncPhase } from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { settled } from '../editing/commands';
import { formatValue } from '../grid-model/values';
import { assetName, cellOfPath } from '../grid-model/rows';
import { jumpTo, notify } from '../store/ui';
import { applyViews, useWorkspace, viewsInOrder } from '../store/workspace';
import { pathLabel } from '../validation/labels';
import { blockedKeyToPath, serviceIssues } from '../validation/issues';
import { cancelSync, openReview, runDryRun, syncAll, useSync } from './sync-store';
import { errorMessage } from '../../../shared/errors';

const phaseLabels: Record<SyncPhase, string> = {
  pull: 'Pulling the service’s changes',
  validate: 'Checking against the rules',
  push: 'Sending changes',
  reconcile: 'Checking what the service received',
  done: 'Done',
  paused: 'Paused',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const go = (localId: string, path: string) => jumpTo(localId, path, cellOfPath(localId, path).grid);

export function SyncPanel() {
  const { running, progress, report, finishedAt, dryRunning } = useSync();
  return (
    <section className="side-panel sync-panel" aria-labelledby="sync-title" data-testid="sync-panel">
      <header className="panel-header">
        <h2 id="sync-title">Sync</h2>
      </header>
      <div className="sync-actions">
        <button
          type="button"
          className="primary"
          disabled={running}
          onClick={() => void syncAll()}
          data-testid="sync-now"
          title="Send everything pending: assets and portfolio responses"
        >
          {running ? 'Syncing…' : 'Sync now'}
        </button>
        <button type="button" disabled={running} onClick={openReview} data-testid="sync-review">
          Review…
        </button>
        {running && (
          <button type="button" onClick={() => void cancelSync()}>
            Cancel
          </button>
        )}
        <button
          type="button"
          disabled={running || dryRunning}
          onClick={() => void runDryRun()}
          data-testid="dry-run"
        >
          {dryRunning ? 'Checking…' : 'Server dry run'}
        </button>
      </div>
      {progress && (running || progress.phase !== 'done') && <Progress />}
      {report && (
        <div className="sync-report" data-testid="sync-report">
          <h3>Last sync{finishedAt ? ` · ${new Date(finishedAt).toLocaleTimeString()}` : ''}</h3>
          <p>
            Pulled: {report.pull.added} new, {report.pull.updated} updated, {report.pull.removed} removed
            {report.pull.conflicts > 0 &&
              `, ${report.pull.conflicts} conflict${report.pull.conflicts === 1 ? '' : 's'}`}
          </p>
          <p data-testid="sync-push-summary">
            Sent: {report.push.created} created, {report.push.updated} updated, {report.push.deleted} deleted
            {report.push.invalid > 0 && `, ${report.push.invalid} refused by the service`}
            {report.push.blocked.length > 0 && `, ${report.push.blocked.length} held back (errors)`}
            {report.push.conflicted > 0 && `, ${report.push.conflicted} waiting on conflicts`}
          </p>
          {report.stopped && <p className="error">{report.stopped.message}</p>}
        </div>
      )}
      <Conflicts />
      <Rejected />
      <DryRun />
    </section>
  );
}

function Progress() {
  const progress = useSync((s) => s.progress);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  if (!progress) return null;
  const pct = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const wait =
    progress.nextSendAt && progress.nextSendAt > now ? Math.ceil((progress.nextSendAt - now) / 1000) : 0;
  // The service answered 5xx: the sync tries again at retryAt (see shared/sync/types.ts).
  const retry = progress.retryAt && progress.retryAt > now ? Math.ceil((progress.retryAt - now) / 1000) : 0;
  return (
    <div className="sync-progress" data-testid="sync-progress">
      <div className="progress-label">
        {phaseLabels[progress.phase]} · {progress.done} / {progress.total}
        {progress.message ? ` · ${progress.message}` : ''}
      </div>
      <progress max={100} value={pct} aria-label="Sync progress" />
      {wait > 0 && (
        <div className="countdown" data-testid="countdown" role="timer">
          Waiting for the service’s rate limit: next batch in {wait} s
        </div>
      )}
      {retry > 0 && progress.retryAt !== undefined && (
        <div className="countdown" data-testid="retry-countdown" role="timer">
          The service is having trouble (it answered, so this is not a connection problem): trying again at{' '}
          {new Date(progress.retryAt).toLocaleTimeString()}, in {retry} s
        </div>
      )}
    </div>
  );
}

function Conflicts() {
  const assets = useWorkspace((s) => s.assets);
  const order = useWorkspace((s) => s.order);
  // The store counts them: without any, the views are not walked (20,000 after a push's answer).
  const count = useWorkspace((s) => s.counts.conflicts);
  const conflicted = useMemo(
    () =>
      count === 0
        ? []
        : viewsInOrder({ order, assets }).filter((v) => v.conflicts.length > 0 || v.remoteDeleted),
    [count, order, assets],
  );
  if (conflicted.length === 0) return null;
  const resolve = async (localId: string, path: string, choice: 'mine' | 'theirs') => {
    try {
      await settled();
      const view = await bridge.methods['workspace.resolveConflict']({ localId, path, choice });
      if (view) applyViews([view]);
      else applyViews([], [localId]);
    } catch (error) {
      notify('error', errorMessage(error));
    }
  };
  const resolveDeletion = async (localId: string, choice: 'mine' | 'theirs') => {
    const view = await bridge.methods['workspace.resolveRemoteDeletion']({ localId, choice });
    if (view) applyViews([view]);
    else applyViews([], [localId]);
  };
  return (
    <div className="conflicts" data-testid="conflicts">
      <h3>Conflicts ({conflicted.length})</h3>
      <p className="hint">
        Both you and the service changed these. Choose per field; the sync sends your choice.
      </p>
      {conflicted.map((view) => (
        <div key={view.localId} className="conflict-asset">
          <h4>{assetName(view)}</h4>
          {view.remoteDeleted && (
            <div className="conflict-row">
              <span>Deleted on the service, changed here.</span>
              <button type="button" onClick={() => void resolveDeletion(view.localId, 'mine')}>
                Keep mine (create again)
              </button>
              <button type="button" onClick={() => void resolveDeletion(view.localId, 'theirs')}>
                Accept deletion
              </button>
            </div>
          )}
          {view.conflicts.length > 0 && (
            <table className="conflict-table">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Mine</th>
                  <th scope="col">Theirs</th>
                </tr>
              </thead>
              <tbody>
                {view.conflicts.map((c) => (
                  <tr key={c.path} data-testid="conflict-row" data-path={c.path}>
                    <th scope="row">
                      <button type="button" className="link-button" onClick={() => go(view.localId, c.path)}>
                        {pathLabel(c.path)}
                      </button>
                      <div className="hint">was {formatValue(c.base) || '(empty)'}</div>
                    </th>
                    <td>
                      <ChoiceButton
                        value={c.mine}
                        label="keep mine"
                        testId="keep-mine"
                        onChoose={() => void resolve(view.localId, c.path, 'mine')}
                      />
                    </td>
                    <td>
                      <ChoiceButton
                        value={c.theirs}
                        label="take theirs"
                        testId="take-theirs"
                        onChoose={() => void resolve(view.localId, c.path, 'theirs')}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </div>
  );
}

function Rejected() {
  const report = useSync((s) => s.report);
  const assets = useWorkspace((s) => s.assets);
  const order = useWorkspace((s) => s.order);
  const rows = useMemo(() => {
    const out: Array<{ localId: string; name: string; path: string; message: string; source: string }> = [];
    for (const b of report?.push.blocked ?? []) {
      const view = assets.get(b.localId);
      for (const [field, messages] of Object.entries(b.errors)) {
        for (const message of messages)
          out.push({
            localId: b.localId,
            name: view ? assetName(view) : b.localId,
            path: blockedKeyToPath(view?.doc, field),
            message,
            source: 'held back',
          });
      }
    }
    // Walked by id, most views passed over unread: 20,000 of them after a push's answer.
    for (const id of order) {
      const view = assets.get(id);
      if (!view || view.serverValidations === null || view.status === 'deleted') continue;
      for (const issue of serviceIssues(view.localId, view.serverValidations)) {
        if (issue.severity !== 'error') continue;
        out.push({
          localId: view.localId,
          name: assetName(view),
          path: issue.path,
          message: issue.message,
          source: 'service',
        });
      }
    }
    return out;
  }, [report, order, assets]);
  if (rows.length === 0) return null;
  return (
    <div className="rejected" data-testid="rejected">
      <h3>Held back or refused by the service ({new Set(rows.map((r) => r.localId)).size} assets)</h3>
      <ul className="problem-list">
        {rows.slice(0, 200).map((r, i) => (
          <li key={`${r.localId}${r.path}${i}`}>
            <button type="button" className="problem problem-error" onClick={() => go(r.localId, r.path)}>
              <span className="problem-where">
                {r.name} · {pathLabel(r.path)}
              </span>
              <span className="problem-message">
                <span className="tag">{r.source}</span>
                {r.message}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function DryRun() {
  const rows = useSync((s) => s.dryRun);
  const assets = useWorkspace((s) => s.assets);
  const box = useRef<HTMLDivElement | null>(null);
  // The result lands below the report: bring it into view when it arrives.
  useEffect(() => {
    if (rows) box.current?.scrollIntoView({ block: 'nearest' });
  }, [rows]);
  if (!rows) return null;
  const invalid = rows.filter((r) => !r.valid);
  return (
    <div className="dry-run" data-testid="dry-run-results" ref={box}>
      <h3>Server dry run</h3>
      <p>
        {rows.length === 0
          ? 'Nothing pending to check.'
          : `${rows.length - invalid.length} of ${rows.length} pending assets would be accepted.`}
      </p>
      <ul className="problem-list">
        {invalid.map((row) => {
          const view = assets.get(row.localId);
          return serviceIssues(row.localId, row.validations)
            .filter((i) => i.severity === 'error')
            .map((issue, i) => (
              <li key={`${row.localId}${issue.path}${i}`}>
                <button
                  type="button"
                  className="problem problem-error"
                  onClick={() => go(row.localId, issue.path)}
                >
                  <span className="problem-where">
                    {view ? assetName(view) : row.localId} · {pathLabel(issue.path)}
                  </span>
                  <span className="problem-message">{issue.message}</span>
                </button>
              </li>
            ));
        })}
      </ul>
    </div>
  );
}

/** One side of a conflicted field: its value, and choosing it. */
function ChoiceButton(props: { value: unknown; label: string; testId: string; onChoose: () => void }) {
  return (
    <button type="button" className="choice" data-testid={props.testId} onClick={props.onChoose}>
      {formatValue(props.value) || '(empty)'}
      <span className="choice-label">{props.label}</span>
    </button>
  );
}
