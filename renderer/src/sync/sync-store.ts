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
import { syncResponses, useResponses } from '../responses/responses-store';
import { clearTopic, notify, setPanel, useUi } from '../store/ui';
import { applySettled, noteLastSync, refreshSession, useWorkspace } from '../store/workspace';
import { errorMessage } from '../../../shared/errors';
import { askConfirm } from '../shell/ConfirmDialog';

interface SyncState {
  running: boolean;
  progress: SyncProgress | null;
  report: SyncReport | null;
  finishedAt: string | null;
  error: string | null;
  dryRunning: boolean;
  dryRun: DryRunRow[] | null;
  review: PendingReview | null;
  /** Answers of the portfolio responses waiting to be sent (shown in the review). */
  pendingAnswers: number;
  /** Held-back assets the analyst chose in the review to send anyway, with their errors. */
  sendAnyway: string[];
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
  pendingAnswers: 0,
  sendAnyway: [],
}));

/** One click: pull (three-way merge), then push what is pending, paced by the service's limit. */
export async function runSync(mode: PushMode = 'strict'): Promise<void> {
  if (useSync.getState().running) return;
  // A dry run's verdict was on what was pending before: the sync's report replaces it.
  useSync.setState({
    running: true,
    error: null,
    dryRun: null,
    progress: { phase: 'pull', done: 0, total: 1 },
  });
  try {
    await settled();
    const confirmDeletes = await confirmDeletions();
    const sendAnyway = useSync.getState().sendAnyway;
    const report = await bridge.methods['sync.run']({ mode, confirmDeletes, sendAnyway });
    useSync.setState({ sendAnyway: [] });
    useSync.setState({ report, finishedAt: new Date().toISOString() });
    // The push answered with the views it changed (issue 35): those rows only, no reload. What a
    // pull brought comes through `workspace.changed`, the one reload (App.tsx).
    performance.mark('sync:answered');
    if (report.changes) applySettled(report.changes);
    performance.mark('sync:applied');
    if (report.lastSyncAt) noteLastSync(report.lastSyncAt);
    await refreshSession();
    if (report.stopped)
      notify(report.stopped.reason === 'cancelled' ? 'info' : 'error', report.stopped.message, 'sync');
    else {
      // The failure an earlier notice spoke of is gone.
      clearTopic('sync');
      const p = report.push;
      notify(
        p.invalid > 0 || p.blocked.length > 0 ? 'warning' : 'info',
        `Synced: ${p.created} created, ${p.updated} updated, ${p.deleted} deleted` +
          (p.blocked.length > 0 ? `, ${p.blocked.length} held back` : '') +
          (p.invalid > 0 ? `, ${p.invalid} refused by the service` : '') +
          (p.unconfirmedDeletes > 0 ? `, ${p.unconfirmedDeletes} deletes not confirmed` : '') +
          (report.pull.conflicts > 0
            ? `, ${report.pull.conflicts} conflict${report.pull.conflicts === 1 ? '' : 's'} to resolve`
            : ''),
      );
    }
  } catch (error) {
    useSync.setState({ error: errorMessage(error) });
    notify('error', `Sync failed: ${errorMessage(error)}`, 'sync');
    await refreshSession().catch(() => undefined);
  } finally {
    useSync.setState({ running: false });
  }
}

/** Answers of the portfolio responses waiting to be sent, as main counts them (0 when it cannot). */
export async function refreshPendingAnswers(): Promise<number> {
  const responses = await bridge.methods['responses.list']({}).catch(() => []);
  const pendingAnswers = responses.reduce((n, r) => n + r.modified, 0);
  useSync.setState({ pendingAnswers });
  return pendingAnswers;
}

/** Everything pending, at once: the assets (pull, then push), then the answers waiting. */
export async function syncAll(mode: PushMode = 'strict'): Promise<void> {
  await runSync(mode);
  if ((await refreshPendingAnswers()) > 0) await syncResponses();
  await refreshPendingAnswers();
}

/**
 * The header's Sync: one click sends everything when nothing needs a decision. An asset held back
 * (errors, conflicts) or a delete opens the review first, where the analyst decides; otherwise the
 * review stays one click away in the Sync panel.
 */
export async function syncFromHeader(): Promise<void> {
  if (useSync.getState().running) return;
  useSync.setState({ review: null });
  await loadReview();
  const review = useSync.getState().review;
  const decide =
    !review ||
    review.deletes.length > 0 ||
    review.conflicted.length > 0 ||
    (review.heldBack ?? []).length > 0;
  if (decide) {
    useUi.setState({ dialog: 'review' });
    return;
  }
  setPanel('sync');
  await syncAll();
}

/** The review of what is pending (the dialog the header's Sync opens when there is a decision). */
export function openReview(): void {
  useSync.setState({ review: null });
  useUi.setState({ dialog: 'review' });
  void loadReview();
}

/**
 * A delete removes the asset from the pool every data partner shares, so Sync names every asset it
 * would delete (name and service id) and sends only the deletes the analyst confirms; declined
 * ones stay pending, struck through and restorable.
 */
async function confirmDeletions(): Promise<number[]> {
  const review = await bridge.methods['sync.review']({});
  const ids = review.deletes.flatMap((d) => (d.serviceAssetId === null ? [] : [d.serviceAssetId]));
  if (ids.length === 0) return [];
  const items = review.deletes
    .filter((d) => d.serviceAssetId !== null)
    .map((d) => `${d.name} (id ${d.serviceAssetId})`);
  const count = ids.length.toLocaleString('en-US');
  // The app's own dialog: the first names listed, the rest summed up ("and 10,031 more").
  const ok = await askConfirm({
    title: ids.length === 1 ? 'Delete an asset on the service' : `Delete ${count} assets on the service`,
    message: `Sync will delete ${ids.length === 1 ? 'this asset' : `these ${count} assets`} on the service, for every data partner of the entity. Delete ${ids.length === 1 ? 'it' : 'them'}?`,
    items,
    show: 20,
    detail: 'Declined deletes stay pending, struck through; ↺ restores an asset.',
    action: ids.length === 1 ? 'Delete on the service' : `Delete ${count} on the service`,
  });
  if (ok) return ids;
  notify('info', 'Deletes not sent: they stay pending, struck through; ↺ restores an asset.');
  return [];
}

/** "Send anyway" for one held-back asset (saved by the service with its errors), or not. */
export function toggleSendAnyway(localId: string, on: boolean): void {
  useSync.setState((s) => ({
    sendAnyway: on ? [...new Set([...s.sendAnyway, localId])] : s.sendAnyway.filter((id) => id !== localId),
  }));
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
    const [review, responses] = await Promise.all([
      bridge.methods['sync.review']({}),
      // Answers waiting count too: one Sync sends them with the assets. Without responses (none
      // loaded yet, or signed out) there is nothing of them to send.
      bridge.methods['responses.list']({}).catch(() => []),
    ]);
    useSync.setState({ review, pendingAnswers: responses.reduce((n, r) => n + r.modified, 0) });
  } catch (error) {
    notify('error', `Could not list pending changes: ${errorMessage(error)}`);
  }
}

/** Which workspace (connection and entity) is open; null while none is. */
const workspaceKey = (meta: ReturnType<typeof useWorkspace.getState>['meta']): string | null =>
  meta ? `${meta.connectionId}:${meta.entity.id}` : null;

/**
 * Another workspace opened: what was shown of the one before (its last sync, a dry run, the review,
 * the cell selection's count) is not this one's. A reload of the same workspace keeps it.
 */
function forgetOtherWorkspace(): () => void {
  let shown = workspaceKey(useWorkspace.getState().meta);
  return useWorkspace.subscribe((s) => {
    const key = workspaceKey(s.meta);
    if (key === null || key === shown) return;
    const before = shown;
    shown = key;
    if (before === null) return;
    useSync.setState({
      progress: null,
      report: null,
      finishedAt: null,
      error: null,
      dryRun: null,
      review: null,
      sendAnyway: [],
    });
    useUi.setState({ rangeStats: null });
  });
}

export function connectSyncEvents(): () => void {
  const offs = [
    forgetOtherWorkspace(),
    bridge.on('sync.progress', (progress) => useSync.setState({ progress })),
    // Main's probe reached the service again: the header shows it, and "offline" notices go.
    bridge.on('session.online', () => {
      void refreshSession().catch(() => undefined);
      const last = useSync.getState().report;
      if (last?.stopped?.offline) clearTopic('sync');
    }),
    // The Responses tab's list is read again after every answer: the header's badge follows it.
    useResponses.subscribe((s, prev) => {
      if (s.list && s.list !== prev.list)
        useSync.setState({ pendingAnswers: s.list.reduce((n, r) => n + r.modified, 0) });
    }),
  ];
  return () => offs.forEach((off) => off());
}
