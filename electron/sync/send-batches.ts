import type { PushSummary, SyncProgress } from '../../shared/sync/types';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';
import type { SyncLocal } from './sync-local';
import type { OutgoingBatch } from './sync-session';

/** A round's end: done, or an answer was lost (to a 5xx: `serverError`, which may ask for a wait). */
export type SendOutcome = 'done' | { lost: true; serverError?: ApiError | undefined };

/**
 * Sends a push round's batches, `lanes` requests in flight: the service works on one while this
 * side settles another. The local part (sync-local.ts) plans and settles in the order it is asked;
 * it is kept one batch ahead (planned and recorded in the outbox while the ones before it are out),
 * so the next request leaves as soon as a lane is free and the local part's time goes to settling
 * answers, not to the batch the service waits for. Each batch has its own outbox entry, so a lost
 * answer is reconciled per batch; one planned but never sent is forgotten.
 */
export async function sendBatches(opts: {
  local: SyncLocal;
  client: SubmissionApiClient;
  entityId: number;
  lanes: number;
  /** The progress total. */
  total: number;
  summary: PushSummary;
  signal?: AbortSignal | undefined;
  onProgress: (progress: SyncProgress) => void;
}): Promise<SendOutcome> {
  const { local, client, entityId, total, summary, signal } = opts;
  let lost = false;
  /** The 5xx that lost an answer, if one did (the engine waits before reconciling). */
  let lostTo: ApiError | undefined;
  let done = 0;
  /** The first settlement that failed: nothing more is planned, and the round fails with it. */
  let failure: { error: unknown } | undefined;
  const settling: Array<Promise<void>> = [];

  const plan = async (): Promise<OutgoingBatch | null> => {
    if (lost || failure) return null;
    const next = await local.run('pushNext', null);
    summary.blocked.push(...next.blocked);
    return next.batch;
  };
  // A batch recorded in the outbox but never sent is forgotten, not left to reconcile.
  const unsent = (batch: OutgoingBatch) =>
    local.run('pushDrop', { batchId: batch.batchId, ambiguous: false });
  /** The batch after the last one taken, planned while that one is out. */
  let ahead: Promise<OutgoingBatch | null> | undefined;
  const take = (): Promise<OutgoingBatch | null> => {
    const next = ahead ?? plan();
    ahead = plan();
    // Awaited by the next take, or dropped at the end: never an unhandled rejection meanwhile.
    ahead.catch(() => undefined);
    return next;
  };
  const settle = async (batch: OutgoingBatch, answer: { bytes: Uint8Array; status: number }) => {
    try {
      // `postBatchBytes` read the answer's nesting as it arrived: the worker need not scan it again.
      const settled = await local.run('pushSettle', {
        batchId: batch.batchId,
        ...answer,
        depthChecked: true,
      });
      if (settled.lost) lost = true;
      if (!('counts' in settled)) return;
      client.assetIds.learn(settled.idName);
      for (const key of ['created', 'updated', 'deleted', 'invalid', 'notFound'] as const)
        summary[key] += settled.counts[key];
      done++;
      opts.onProgress({ phase: 'push', done, total, nextSendAt: client.pacer.nextSendAt() });
    } catch (error) {
      failure ??= { error };
    }
  };

  const lane = async () => {
    let batch = await take();
    while (batch) {
      if (lost || failure || signal?.aborted) {
        await unsent(batch);
        signal?.throwIfAborted();
        return;
      }
      opts.onProgress({ phase: 'push', done, total, nextSendAt: client.pacer.nextSendAt() });
      let answer: { bytes: Uint8Array; status: number };
      try {
        summary.requests++;
        answer = await client.postBatchBytes(entityId, batch.body, signal, (wait) => {
          // The service answered 503: the same batch goes again at `retryAt`; the window says when.
          summary.requests++;
          opts.onProgress({ phase: 'push', done, total, retryAt: wait.until, message: wait.message });
        });
      } catch (error) {
        if (error instanceof ApiError && (error.ambiguous || error.kind === 'cancelled')) {
          await local.run('pushDrop', { batchId: batch.batchId, ambiguous: true });
          if (error.kind === 'cancelled') throw error;
          lost = true;
          if (error.kind === 'server') lostTo ??= error;
          return;
        }
        // Refused whole (401, 403, 400...): nothing was applied.
        await unsent(batch);
        throw error;
      }
      const following = take();
      settling.push(settle(batch, answer));
      batch = await following;
    }
  };

  const lanes = await Promise.allSettled(Array.from({ length: Math.min(opts.lanes, total) }, lane));
  await Promise.all(settling);
  const left = await ahead?.catch(() => null);
  if (left) await unsent(left);
  const refused = lanes.find((result) => result.status === 'rejected');
  if (refused) throw refused.reason;
  if (failure) throw failure.error;
  // Cancelled once the last batch was out: what was sent is settled, and the sync says cancelled.
  signal?.throwIfAborted();
  opts.onProgress({ phase: 'push', done, total: Math.max(done, total) });
  return lost ? { lost: true, serverError: lostTo } : 'done';
}
