/** What a sync reports: its counts, the one-line summary, and why it stopped if it did. */
import type { PullSummary, PushSummary, SyncReport } from '../../shared/sync/types';
import { errorMessage } from '../../shared/errors';
import { ApiError, isOfflineError } from '../service-client/errors';

/** Why a sync stopped, in words for the analyst: a 401 pauses it, a cancel keeps the queue. */
export function stopReason(error: unknown): NonNullable<SyncReport['stopped']> {
  if (error instanceof ApiError) {
    if (error.kind === 'unauthorized') {
      return {
        reason: 'unauthorized',
        message: 'Sign in again to continue: the token expired or was revoked. Nothing queued was lost.',
      };
    }
    if (error.kind === 'forbidden') return { reason: 'forbidden', message: error.message };
    if (error.kind === 'cancelled')
      return { reason: 'cancelled', message: 'Sync cancelled; pending changes stay queued.' };
    if (error.kind === 'server') {
      // It answered: not offline. What was not sent stays pending for a later sync.
      const message = `${error.message}. Pending changes stay queued; sync again later.`;
      return { reason: 'error', message, serviceTrouble: true };
    }
    return { reason: 'error', message: error.message, ...(isOfflineError(error) ? { offline: true } : {}) };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { reason: 'cancelled', message: 'Sync cancelled; pending changes stay queued.' };
  }
  return { reason: 'error', message: errorMessage(error) };
}

export function emptyPull(): PullSummary {
  return { added: 0, updated: 0, conflicts: 0, removed: 0, remoteDeletedConflicts: 0, adopted: 0 };
}

export function emptyPush(): PushSummary {
  return {
    requests: 0,
    created: 0,
    updated: 0,
    deleted: 0,
    invalid: 0,
    notFound: 0,
    blocked: [],
    conflicted: 0,
    unconfirmedDeletes: 0,
  };
}

export function summarize(report: SyncReport): string {
  const { push, pull } = report;
  return `Pulled ${pull.added} new, ${pull.updated} changed; sent ${push.created} created, ${push.updated} updated, ${push.deleted} deleted in ${push.requests} request(s); ${push.invalid} rejected, ${push.blocked.length} held back by errors, ${push.conflicted} with conflicts.`;
}
