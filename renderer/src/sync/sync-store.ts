/** The sync as the UI follows it: progress events, the last report, a dry run, the pending review. */
import { create } from 'zustand';
import type {
  DryRunRow,
  PendingReview,
  PushMode,
  SyncProgress,
  SyncReport,
} from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { settled } from '../editing/commands';
import { notify } from '../store/ui';
import { refreshSession, reloadSnapshot } from '../store/workspace';
import { errorMessage } from '../../../shared/errors';

interface SyncState {
  running: boolean;
  progress: SyncProgress | null;
  report: SyncReport | null;
  finishedAt: string | null;
  error: string | null;
  dryRunning: boolean;
  dryRun: DryRunRow[] | null;
  review: PendingReview | null;
}

export const useSync = create<SyncState>(() => ({
  running: false,
  progress: null,
  report: null,
  finishedAt: null,
  error: null,
  dryRunning: false,
  dryRun: null,
  review: null,
}));

/** One click: pull (three-way merge), then push what is pending, paced by the service's limit. */
export async function runSync(mode: PushMode = 'strict'): Promise<void> {
  if (useSync.getState().running) return;
  useSync.setState({ running: true, error: null, progress: { phase: 'pull', done: 0, total: 1 } });
  try {
    await settled();
    const report = await bridge.methods['sync.run']({ mode });
    useSync.setState({ report, finishedAt: new Date().toISOString() });
    await Promise.all([reloadSnapshot(), refreshSession()]);
    if (report.stopped)
      notify(report.stopped.reason === 'cancelled' ? 'info' : 'error', report.stopped.message);
    else {
      const p = report.push;
      notify(
        p.invalid > 0 || p.blocked.length > 0 ? 'warning' : 'info',
        `Synced: ${p.created} created, ${p.updated} updated, ${p.deleted} deleted` +
          (p.invalid + p.blocked.length > 0 ? `, ${p.invalid + p.blocked.length} rejected` : '') +
          (report.pull.conflicts > 0 ? `, ${report.pull.conflicts} conflicts to resolve` : ''),
      );
    }
  } catch (error) {
    useSync.setState({ error: errorMessage(error) });
    notify('error', `Sync failed: ${errorMessage(error)}`);
    await refreshSession().catch(() => undefined);
  } finally {
    useSync.setState({ running: false });
  }
}

export async function cancelSync(): Promise<void> {
  await bridge.methods['sync.cancel']({});
}

/** The service's validation endpoint on everything pending, nothing saved. */
export async function runDryRun(): Promise<void> {
  useSync.setState({ dryRunning: true, error: null });
  try {
    await settled();
    const rows = await bridge.methods['sync.dryRun']({});
    useSync.setState({ dryRun: rows });
  } catch (error) {
    notify('error', `Dry run failed: ${errorMessage(error)}`);
  } finally {
    useSync.setState({ dryRunning: false });
  }
}

export async function loadReview(): Promise<void> {
  try {
    await settled();
    useSync.setState({ review: await bridge.methods['sync.review']({}) });
  } catch (error) {
    notify('error', `Could not list pending changes: ${errorMessage(error)}`);
  }
}

export function connectSyncEvents(): () => void {
  return bridge.on('sync.progress', (progress) => useSync.setState({ progress }));
}
