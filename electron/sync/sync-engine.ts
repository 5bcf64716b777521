import { BATCH_MAX_PER_FIELD, type Asset, type ValidationContext } from '../../shared/domain';
import { verdictOf } from '../../shared/sync/server-verdict';
import { serviceIdName } from '../../shared/sync/asset-id-name';
import type {
  DryRunRow,
  PendingReview,
  PullSummary,
  PushMode,
  PushSummary,
  ServerVerdict,
  SyncPhase,
  SyncProgress,
  SyncReport,
} from '../../shared/sync/types';
import { ApiError } from '../service-client/errors';
import { serverWaitMs } from '../service-client/server-backoff';
import type { SubmissionApiClient } from '../service-client/service-client';
import type { LedgerPort } from '../workspace/ledger-port';
import { findRecord, indexBy } from './batch-answer';
import { confirmGone, readListing } from './remote-listing';
import { localWorkFor, openSyncLocal, prewarmSyncWorker, type LocalWork, type SyncLocal } from './sync-local';
import type { ContextData } from './sync-session';
import { sendBatches, type SendOutcome } from './send-batches';
import { emptyPull, emptyPush, stopReason, summarize } from './sync-report';

export type { SyncPhase, SyncProgress, PushMode, PullSummary, PushSummary, SyncReport };

export interface SyncEngineOptions {
  store: LedgerPort;
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
  /** Where the local part runs (see sync-local.ts); by default the worker thread when it can. */
  localWork?: LocalWork;
}

interface PushChoices {
  deletes?: ReadonlySet<number> | undefined;
  sendAnyway?: ReadonlySet<string> | undefined;
}

/**
 * Brings the workspace in line with the service: pull (three-way merge), then push the pending
 * creates, updates and deletes in the fewest batches the per-field limit allows, at the pace the
 * rate limit allows. A batch whose answer is lost is reconciled by a pull (matching new assets by
 * partners_id) before anything is resent, so each asset reaches the service exactly once.
 *
 * This side sends and receives; the local part (planning, diffs, validation, JSON, SQLite) runs in
 * the sync's worker thread (sync-local.ts), so main's event loop stays free for the window.
 */
export class SyncEngine {
  private readonly inFlight: number;
  private readonly localWork: LocalWork;

  constructor(private readonly opts: SyncEngineOptions) {
    this.inFlight = Math.max(1, opts.inFlight ?? 2);
    this.localWork = opts.localWork ?? localWorkFor(opts.store);
    if (this.localWork === 'worker') prewarmSyncWorker();
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
      await this.withLocal(async (local) => {
        try {
          report.pull = await this.pullWith(local, options.signal);
          await this.pushWith(local, report.push, options.mode ?? 'strict', options.signal, options);
        } finally {
          // Stopped or not, what was settled is in the workspace: the window gets its views. A
          // worker that stopped cannot say (none: the window reads the workspace again).
          report.changes = await local
            .run('changes', { idName: this.opts.client.assetIds.name })
            .catch(() => undefined);
        }
      });
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
   * Fetches every asset of the entity and merges it into the workspace as pages arrive (merges are
   * idempotent); then settles lost batches and marks what the service no longer has.
   */
  async pull(signal?: AbortSignal): Promise<PullSummary> {
    return this.withLocal((local) => this.pullWith(local, signal));
  }

  async push(options: { mode?: PushMode; signal?: AbortSignal } = {}): Promise<PushSummary> {
    const summary = emptyPush();
    await this.withLocal((local) => this.pushWith(local, summary, options.mode ?? 'strict', options.signal));
    return summary;
  }

  /** What a sync would send, with what a strict push would hold back: made in the local part. */
  async review(): Promise<PendingReview> {
    const idName = this.opts.client.assetIds.name;
    return this.withLocal((local) => local.run('review', { ...this.contexts(), idName }));
  }

  /** The service's verdict on every pending create and update, without saving anything. */
  async dryRun(
    signal?: AbortSignal,
  ): Promise<Array<{ localId: string; valid: boolean; validations: ServerVerdict }>> {
    const { client, entityId } = this.opts;
    // The bodies come from the click's one plan, in the local part; this side only sends.
    const work = await this.withLocal((local) => local.run('dryRunWork', { idName: client.assetIds.name }));
    const byPartner = indexBy(work.createRecords, (record) => record.partnersId);
    const byService = indexBy(work.updateRecords, (record) => record.serviceAssetId);
    const { creates, updates } = work;
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

  private async withLocal<T>(fn: (local: SyncLocal) => Promise<T>): Promise<T> {
    const local = await openSyncLocal(this.opts.store, this.localWork);
    try {
      return await fn(local);
    } finally {
      // A worker that stopped has closed its connection with it: the run's own error says why.
      await local.close().catch(() => undefined);
    }
  }

  private async pullWith(local: SyncLocal, signal?: AbortSignal): Promise<PullSummary> {
    const { client, entityId } = this.opts;
    this.progress({ phase: 'pull', done: 0, total: 1 });
    await local.run('pullStart', null);
    const listing = await readListing({
      signal,
      onPage: (done, total) => this.progress({ phase: 'pull', done, total }),
      readPage: async (page, perPage, lastPageFor, pageSignal) => {
        const { bytes, meta, status } = await client.listAssetsPageBytes(entityId, page, perPage, pageSignal);
        const lastPage = lastPageFor(meta);
        const taken = local.run('pullPage', { bytes, status, page, meta, lastPage });
        // The first page whose assets name their id tells which name this service speaks.
        const ids = taken.then(({ ids, idName }) => {
          client.assetIds.learn(idName);
          return ids;
        });
        return { meta, ids };
      },
    });
    // An asset the listing lacked is asked for by itself: only a 404 says it is gone.
    const missing = await local.run('pullLacking', { seen: [...listing.seen] });
    const found: Asset[] = [];
    const gone = await confirmGone(client, entityId, missing, (asset) => found.push(asset), signal);
    // The GETs' answers taught the client the service's name (see asset-id-name.ts).
    const realNames = found.length > 0 && client.assetIds.name === serviceIdName;
    return local.run('pullFinish', { found, gone: [...gone], realNames });
  }

  private async pushWith(
    local: SyncLocal,
    summary: PushSummary,
    mode: PushMode,
    signal?: AbortSignal,
    choices: PushChoices = {},
  ): Promise<void> {
    const { store, client } = this.opts;
    const rounds = this.opts.maxReconcileRounds ?? 5;
    /** The 5xx that lost the last round's answer, and how many such waits there were. */
    let serverError: ApiError | undefined;
    let waits = 0;
    for (let round = 0; ; round++) {
      if (store.unsettledBatches().length > 0) {
        if (serverError && waits >= Math.min(rounds, client.serverBackoff.attempts)) throw serverError;
        if (round >= rounds)
          throw new ApiError('network', 'The service keeps dropping answers; pending changes stay queued.');
        if (serverError) {
          // The service answered 5xx and may have done the work: wait (it is having trouble), then
          // check what it holds before anything is resent.
          const wait = serverWaitMs(waits++, serverError.details.retryAfterMs, client.serverBackoff);
          this.progress({
            phase: 'reconcile',
            done: 0,
            total: 1,
            retryAt: client.clock.now() + wait,
            message: serverError.message,
          });
          await client.clock.sleep(wait, signal);
        }
        this.progress({
          phase: 'reconcile',
          done: 0,
          total: 1,
          message: 'Checking what the service received',
        });
        await this.pullWith(local, signal);
      }
      const outcome = await this.pushRound(local, summary, mode, signal, choices);
      if (outcome === 'done') return;
      serverError = outcome.serverError;
    }
  }

  /** One pass over the pending work: `lost` when an answer was lost (a reconcile comes next). */
  private async pushRound(
    local: SyncLocal,
    summary: PushSummary,
    mode: PushMode,
    signal: AbortSignal | undefined,
    { deletes, sendAnyway }: PushChoices,
  ): Promise<SendOutcome> {
    this.progress({ phase: 'validate', done: 0, total: 1 });
    const start = await local.run('pushStart', {
      mode,
      size: this.opts.maxPerField ?? BATCH_MAX_PER_FIELD,
      ...this.contexts(),
      deletes: deletes ? [...deletes] : undefined,
      sendAnyway: sendAnyway ? [...sendAnyway] : undefined,
      idName: this.opts.client.assetIds.name,
    });
    if (deletes) summary.unconfirmedDeletes = start.unconfirmedDeletes;
    summary.conflicted = start.conflicted;
    summary.blocked = [];
    if (start.estimate === 0) return 'done';
    return sendBatches({
      local,
      client: this.opts.client,
      entityId: this.opts.entityId,
      lanes: this.inFlight,
      total: start.estimate,
      summary,
      signal,
      onProgress: (progress) => this.progress(progress),
    });
  }

  /** The rules' contexts as data for the local part (see ContextData). */
  private contexts(): { createCtx: ContextData; updateCtx: ContextData; checkNames: boolean } {
    const data = (ctx: ValidationContext): ContextData => {
      const { isNameTaken: _names, ...rest } = ctx;
      return rest;
    };
    const createCtx = this.opts.validationContext('create');
    const updateCtx = this.opts.validationContext('update');
    return {
      createCtx: data(createCtx),
      updateCtx: data(updateCtx),
      checkNames: createCtx.isNameTaken !== undefined || updateCtx.isNameTaken !== undefined,
    };
  }

  private progress(progress: SyncProgress): void {
    this.opts.onProgress?.(progress);
  }
}
