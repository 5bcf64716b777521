import { randomUUID } from 'node:crypto';
import {
  BATCH_MAX_PER_FIELD,
  type Asset,
  type BatchRequest,
  type BatchResponse,
  type ValidationContext,
} from '../../shared/domain';
import { verdictOf } from '../../shared/sync/server-verdict';
import type {
  DryRunRow,
  PullSummary,
  PushMode,
  PushSummary,
  ServerVerdict,
  SyncPhase,
  SyncProgress,
  SyncReport,
} from '../../shared/sync/types';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';
import type { AssetRecord } from '../workspace/asset-record';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { applyBatchAnswer, findRecord, indexBy } from './batch-answer';
import { BatchPlanner, type PlannedBatch, type PlannedItem } from './batch-planner';
import { confirmGone, readListing } from './remote-listing';
import { emptyPull, emptyPush, stopReason, summarize } from './sync-report';

export type { SyncPhase, SyncProgress, PushMode, PullSummary, PushSummary, SyncReport };

export interface SyncEngineOptions {
  store: WorkspaceStore;
  client: SubmissionApiClient;
  entityId: number;
  /** The rules' context: the entity's area unit, the assessment year and the cached lists. */
  validationContext: (mode: 'create' | 'update') => ValidationContext;
  onProgress?: (progress: SyncProgress) => void;
  /** How often to reconcile and retry after a batch whose answer was lost, before giving up. */
  maxReconcileRounds?: number;
  /** The service's per-field limit; tests shrink it to make many batches out of few assets. */
  maxPerField?: number;
  /** Batches in flight at once (default 2). */
  inFlight?: number;
}

/**
 * Brings the workspace in line with the service: pull (three-way merge), then push the pending
 * creates, updates and deletes in the fewest batches the per-field limit allows, at the pace the
 * rate limit allows. A batch whose answer is lost is reconciled by a pull (matching new assets by
 * partners_id) before anything is resent, so each asset reaches the service exactly once.
 */
export class SyncEngine {
  private readonly inFlight: number;

  constructor(private readonly opts: SyncEngineOptions) {
    this.inFlight = Math.max(1, opts.inFlight ?? 2);
  }

  /**
   * `deletes`: the service ids whose deletion the analyst confirmed; a delete of any other asset
   * stays pending (the pool is shared: a delete removes the asset for every data partner).
   * Omitted: every pending delete (the engine's own callers and tests).
   */
  async sync(
    options: {
      mode?: PushMode;
      signal?: AbortSignal;
      deletes?: ReadonlySet<number>;
      /** Local ids to send with their errors (always_*) instead of holding them back. */
      sendAnyway?: ReadonlySet<string>;
    } = {},
  ): Promise<SyncReport> {
    const report: SyncReport = { pull: emptyPull(), push: emptyPush() };
    try {
      report.pull = await this.pull(options.signal);
      await this.pushInto(report.push, options.mode ?? 'strict', options.signal, options);
      this.progress({ phase: 'done', done: 1, total: 1, message: summarize(report) });
    } catch (error) {
      report.stopped = stopReason(error);
      this.progress({
        phase:
          report.stopped.reason === 'unauthorized'
            ? 'paused'
            : report.stopped.reason === 'cancelled'
              ? 'cancelled'
              : 'failed',
        done: 0,
        total: 0,
        message: report.stopped.message,
      });
    }
    return report;
  }

  /**
   * Fetches every asset of the entity and merges it into the workspace, a page at a time as pages
   * arrive (each page one transaction, each merge idempotent); then settles lost batches and marks
   * what the service no longer has.
   */
  async pull(signal?: AbortSignal): Promise<PullSummary> {
    const { client, store, entityId } = this.opts;
    this.progress({ phase: 'pull', done: 0, total: 1 });
    const summary = emptyPull();
    const newByPartner = new Map<number, AssetRecord>();
    for (const record of store.pending().creates) {
      if (record.partnersId !== null) newByPartner.set(record.partnersId, record);
    }
    const merge = (assets: Asset[]) =>
      store.transaction(() => applyPage(store, assets, newByPartner, summary));
    const listing = await readListing(client, entityId, {
      signal,
      onPage: (done, total) => this.progress({ phase: 'pull', done, total }),
      onAssets: merge,
    });
    // An asset the listing lacked is asked for by itself: only a 404 says it is gone.
    const missing = store.serviceIds().filter((id) => !listing.seen.has(id));
    const gone = await confirmGone(client, entityId, missing, (asset) => merge([asset]), signal);
    store.transaction(() => {
      for (const { batchId } of store.unsettledBatches()) store.abandonBatch(batchId);
      const marked = store.markMissingRemote(gone);
      summary.removed = marked.removed;
      summary.remoteDeletedConflicts = marked.conflicts;
    });
    return summary;
  }

  async push(options: { mode?: PushMode; signal?: AbortSignal } = {}): Promise<PushSummary> {
    const summary = emptyPush();
    await this.pushInto(summary, options.mode ?? 'strict', options.signal);
    return summary;
  }

  /** The service's verdict on every pending create and update, without saving anything. */
  async dryRun(
    signal?: AbortSignal,
  ): Promise<Array<{ localId: string; valid: boolean; validations: ServerVerdict }>> {
    const { store, client, entityId } = this.opts;
    const work = store.pending();
    const creates = work.creates.map((record) => store.createPayloadOf(record));
    const updates = work.updates.map((entry) => entry.patch);
    const byPartner = indexBy(work.creates, (record) => record.partnersId);
    const byService = indexBy(
      work.updates.map((u) => u.record),
      (record) => record.serviceAssetId,
    );
    const results: DryRunRow[] = [];
    for (let offset = 0; offset < Math.max(creates.length, updates.length); offset += BATCH_MAX_PER_FIELD) {
      const answer = await client.validate(
        entityId,
        {
          create: creates.slice(offset, offset + BATCH_MAX_PER_FIELD),
          update: updates.slice(offset, offset + BATCH_MAX_PER_FIELD),
        },
        signal,
      );
      for (const asset of answer.valid) {
        const record = findRecord(asset, byPartner, byService);
        if (record) results.push({ localId: record.localId, valid: true, validations: verdictOf(asset) });
      }
      for (const asset of answer.invalid) {
        const record = findRecord(asset, byPartner, byService);
        if (record) results.push({ localId: record.localId, valid: false, validations: verdictOf(asset) });
      }
    }
    return results;
  }

  private async pushInto(
    summary: PushSummary,
    mode: PushMode,
    signal?: AbortSignal,
    choices: { deletes?: ReadonlySet<number>; sendAnyway?: ReadonlySet<string> } = {},
  ): Promise<void> {
    const { store } = this.opts;
    const rounds = this.opts.maxReconcileRounds ?? 5;
    for (let round = 0; ; round++) {
      if (store.unsettledBatches().length > 0) {
        if (round >= rounds)
          throw new ApiError('network', 'The service keeps dropping answers; pending changes stay queued.');
        this.progress({
          phase: 'reconcile',
          done: 0,
          total: 1,
          message: 'Checking what the service received',
        });
        await this.pull(signal);
      }
      const planner = this.plan(summary, mode, choices);
      const total = planner.estimate();
      if (total === 0) return;
      // Two batches in flight: the service works on one while this side settles the other and
      // validates the next. Each batch has its own outbox entry, so a lost answer is reconciled per
      // batch as before.
      let lost = false;
      let done = 0;
      const worker = async () => {
        for (;;) {
          signal?.throwIfAborted();
          if (lost) return;
          const batch = planner.next();
          if (!batch) return;
          this.progress({ phase: 'push', done, total, nextSendAt: this.opts.client.pacer.nextSendAt() });
          const outcome = await this.sendBatch(batch, mode, summary, signal);
          if (outcome === 'lost') lost = true;
          else done++;
        }
      };
      await settleAll(Array.from({ length: Math.min(this.inFlight, total) }, worker));
      this.progress({ phase: 'push', done, total: Math.max(done, total) });
      if (!lost) return;
    }
  }

  /** Pending work as a planner that fills batches lazily (see BatchPlanner). */
  private plan(
    summary: PushSummary,
    mode: PushMode,
    { deletes, sendAnyway }: { deletes?: ReadonlySet<number>; sendAnyway?: ReadonlySet<string> },
  ): BatchPlanner {
    this.progress({ phase: 'validate', done: 0, total: 1 });
    const work = this.opts.store.pending();
    if (deletes) {
      const confirmed = work.deletes.filter(
        (record) => record.serviceAssetId !== null && deletes.has(record.serviceAssetId),
      );
      summary.unconfirmedDeletes = work.deletes.length - confirmed.length;
      work.deletes = confirmed;
    }
    summary.conflicted = work.conflicted.length;
    summary.blocked = [];
    return new BatchPlanner(work, {
      mode,
      size: this.opts.maxPerField ?? BATCH_MAX_PER_FIELD,
      store: this.opts.store,
      createCtx: this.opts.validationContext('create'),
      updateCtx: this.opts.validationContext('update'),
      blocked: summary.blocked,
      ...(sendAnyway ? { sendAnyway } : {}),
    });
  }

  private async sendBatch(
    batch: PlannedBatch,
    mode: PushMode,
    summary: PushSummary,
    signal?: AbortSignal,
  ): Promise<'settled' | 'lost'> {
    const { store, client, entityId } = this.opts;
    const batchId = randomUUID();
    const body: BatchRequest = {};
    // "Send anyway" items go through always_*: the service saves them with their errors.
    const always = (item: PlannedItem) => mode === 'always' || item.anyway === true;
    const creates = batch.creates.filter((i) => !always(i)).map((i) => i.payload);
    const alwaysCreates = batch.creates.filter(always).map((i) => i.payload);
    const updates = batch.updates.filter((i) => !always(i)).map((i) => i.payload);
    const alwaysUpdates = batch.updates.filter(always).map((i) => i.payload);
    if (creates.length > 0) body.create = creates;
    if (alwaysCreates.length > 0) body.always_create = alwaysCreates;
    if (updates.length > 0) body.update = updates;
    if (alwaysUpdates.length > 0) body.always_update = alwaysUpdates;
    if (batch.deletes.length > 0) body.delete = batch.deletes.map((i) => i.payload);
    const items = [...batch.creates, ...batch.updates, ...batch.deletes];
    // Recorded before sending: a crash from here on leaves a batch to reconcile, never a guess.
    store.beginBatch(
      batchId,
      items.map((item) => item.record.localId),
    );
    let answer: BatchResponse;
    try {
      summary.requests++;
      answer = await client.postBatch(entityId, body, signal);
    } catch (error) {
      if (error instanceof ApiError && (error.ambiguous || error.kind === 'cancelled')) {
        store.markBatchAmbiguous(batchId);
        if (error.kind === 'cancelled') throw error;
        return 'lost';
      }
      // Refused whole (401, 403, 400...): nothing was applied.
      store.abandonBatch(batchId);
      throw error;
    }
    store.settleBatch(batchId, (tx) => applyBatchAnswer(tx, batch, answer, summary));
    return 'settled';
  }

  private progress(progress: SyncProgress): void {
    this.opts.onProgress?.(progress);
  }
}

/** Merges one page of remote assets; a new asset whose create answer was lost is adopted, not added. */
function applyPage(
  store: WorkspaceStore,
  remote: Asset[],
  newByPartner: Map<number, AssetRecord>,
  summary: PullSummary,
): void {
  for (const asset of remote) {
    if (asset.service_asset_id === null) continue;
    // Our creates carry integer partners ids; a string one (older answers) is someone else's.
    const pending = typeof asset.partners_id === 'number' ? newByPartner.get(asset.partners_id) : undefined;
    if (pending && !store.assetByServiceId(asset.service_asset_id)) {
      // A create whose answer was lost: the service has it, so it is not sent again.
      store.acknowledge(pending.localId, asset);
      newByPartner.delete(pending.partnersId as number);
      summary.adopted++;
      continue;
    }
    const outcome = store.applyRemote(asset);
    if (outcome === 'added') summary.added++;
    else if (outcome === 'updated') summary.updated++;
    else if (outcome === 'conflict') summary.conflicts++;
  }
}

/** Like Promise.all, but waits for every task before rethrowing the first failure. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
