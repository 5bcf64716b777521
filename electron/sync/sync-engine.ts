import { randomUUID } from 'node:crypto';
import {
  BATCH_MAX_PER_FIELD,
  hasErrors,
  validateAsset,
  type Asset,
  type AssetInput,
  type BatchRequest,
  type BatchResponse,
  type ValidationContext,
  type Validations,
} from '../../shared/domain';
import { verdictOf } from '../../shared/sync/server-verdict';
import type { AssetDoc } from '../../shared/sync/asset-doc';
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
import { ApiError, isOfflineError } from './api-errors';
import { errorMessage } from '../../shared/errors';
import type { SubmissionApiClient } from './api-client';
import type { AssetRecord, PendingWork, WorkspaceStore } from '../workspace/workspace-store';

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

  async sync(options: { mode?: PushMode; signal?: AbortSignal } = {}): Promise<SyncReport> {
    const report: SyncReport = { pull: emptyPull(), push: emptyPush() };
    try {
      report.pull = await this.pull(options.signal);
      await this.pushInto(report.push, options.mode ?? 'strict', options.signal);
      this.progress({ phase: 'done', done: 1, total: 1, message: summarize(report) });
    } catch (error) {
      report.stopped = this.stopReason(error);
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
    const seen = new Set<number>();
    const newByPartner = new Map<number, AssetRecord>();
    for (const record of store.pending().creates) {
      if (record.partnersId !== null) newByPartner.set(record.partnersId, record);
    }
    await client.listAllAssets(entityId, {
      signal,
      onPage: (done, total) => this.progress({ phase: 'pull', done, total }),
      onAssets: (assets) => store.transaction(() => applyPage(store, assets, seen, newByPartner, summary)),
    });
    store.transaction(() => {
      for (const { batchId } of store.unsettledBatches()) store.abandonBatch(batchId);
      const missing = store.markMissingRemote(seen);
      summary.removed = missing.removed;
      summary.remoteDeletedConflicts = missing.conflicts;
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

  private async pushInto(summary: PushSummary, mode: PushMode, signal?: AbortSignal): Promise<void> {
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
      const planner = this.plan(summary, mode);
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
  private plan(summary: PushSummary, mode: PushMode): BatchPlanner {
    this.progress({ phase: 'validate', done: 0, total: 1 });
    const work = this.opts.store.pending();
    summary.conflicted = work.conflicted.length;
    summary.blocked = [];
    return new BatchPlanner(work, {
      mode,
      size: this.opts.maxPerField ?? BATCH_MAX_PER_FIELD,
      store: this.opts.store,
      createCtx: this.opts.validationContext('create'),
      updateCtx: this.opts.validationContext('update'),
      blocked: summary.blocked,
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
    if (batch.creates.length > 0)
      body[mode === 'always' ? 'always_create' : 'create'] = batch.creates.map((i) => i.payload);
    if (batch.updates.length > 0)
      body[mode === 'always' ? 'always_update' : 'update'] = batch.updates.map((i) => i.payload);
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
    store.settleBatch(batchId, (tx) => {
      const byPartner = indexBy(
        batch.creates.map((i) => i.record),
        (record) => record.partnersId,
      );
      const byService = indexBy(
        [...batch.updates, ...batch.deletes].map((i) => i.record),
        (record) => record.serviceAssetId,
      );
      for (const asset of [...answer.created, ...answer.always_created]) {
        const record = findRecord(asset, byPartner, new Map());
        if (record) tx.acknowledged(record.localId, asset);
        summary.created++;
      }
      for (const asset of [...answer.updated, ...answer.always_updated]) {
        const record = findRecord(asset, new Map(), byService);
        if (record) tx.acknowledged(record.localId, asset);
        summary.updated++;
      }
      for (const asset of answer.deleted) {
        const record = findRecord(asset, new Map(), byService);
        if (record) tx.deleted(record.localId);
        summary.deleted++;
      }
      for (const asset of answer.invalid) {
        const record = findRecord(asset, byPartner, byService);
        if (record) tx.invalid(record.localId, verdictOf(asset));
        summary.invalid++;
      }
      const deleting = new Set(batch.deletes.map((i) => i.record.localId));
      for (const asset of answer.not_found) {
        const record = findRecord(asset, new Map(), byService);
        if (!record) continue;
        // A delete of an asset the service no longer has has done its job.
        if (deleting.has(record.localId)) tx.deleted(record.localId);
        else tx.notFound(record.localId);
        summary.notFound++;
      }
    });
    return 'settled';
  }

  private progress(progress: SyncProgress): void {
    this.opts.onProgress?.(progress);
  }

  private stopReason(error: unknown): NonNullable<SyncReport['stopped']> {
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
      return { reason: 'error', message: error.message, ...(isOfflineError(error) ? { offline: true } : {}) };
    }
    if (error instanceof Error && error.name === 'AbortError') {
      return { reason: 'cancelled', message: 'Sync cancelled; pending changes stay queued.' };
    }
    return { reason: 'error', message: errorMessage(error) };
  }
}

interface PlannedItem {
  record: AssetRecord;
  payload: AssetInput | AssetDoc;
}

interface PlannedBatch {
  creates: PlannedItem[];
  updates: PlannedItem[];
  deletes: PlannedItem[];
}

/** Merges one page of remote assets; a new asset whose create answer was lost is adopted, not added. */
function applyPage(
  store: WorkspaceStore,
  remote: Asset[],
  seen: Set<number>,
  newByPartner: Map<number, AssetRecord>,
  summary: PullSummary,
): void {
  for (const asset of remote) {
    if (asset.service_asset_id === null) continue;
    seen.add(asset.service_asset_id);
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

/**
 * Fills batches from the pending queues, validating each candidate only when its batch is packed:
 * the first batch leaves as soon as it is full, and the rest are validated while it is in flight.
 * Greedy packing in queue order gives the fewest requests the per-field limit allows.
 */
class BatchPlanner {
  private readonly cursor = { creates: 0, updates: 0, deletes: 0 };

  constructor(
    private readonly work: PendingWork,
    private readonly opts: {
      mode: PushMode;
      size: number;
      store: WorkspaceStore;
      createCtx: ValidationContext;
      updateCtx: ValidationContext;
      blocked: PushSummary['blocked'];
    },
  ) {}

  /** Batches needed if nothing is blocked: the progress total. */
  estimate(): number {
    const { creates, updates, deletes } = this.work;
    return Math.ceil(Math.max(creates.length, updates.length, deletes.length) / this.opts.size);
  }

  next(): PlannedBatch | undefined {
    const batch: PlannedBatch = {
      creates: this.take(this.work.creates, 'creates', (record) => this.createItem(record)),
      updates: this.take(this.work.updates, 'updates', (entry) => this.updateItem(entry)),
      deletes: this.take(this.work.deletes, 'deletes', (record) => ({
        record,
        payload: { service_asset_id: record.serviceAssetId },
      })),
    };
    return batch.creates.length + batch.updates.length + batch.deletes.length > 0 ? batch : undefined;
  }

  private take<T>(
    queue: T[],
    key: keyof BatchPlanner['cursor'],
    toItem: (entry: T) => PlannedItem | undefined,
  ) {
    const items: PlannedItem[] = [];
    while (items.length < this.opts.size && this.cursor[key] < queue.length) {
      const item = toItem(queue[this.cursor[key]++] as T);
      if (item) items.push(item);
    }
    return items;
  }

  private createItem(record: AssetRecord): PlannedItem | undefined {
    const payload = this.opts.store.createPayloadOf(record);
    return this.checked(record, payload, payload, this.opts.createCtx);
  }

  private updateItem({ record, patch }: PendingWork['updates'][number]): PlannedItem | undefined {
    return this.checked(record, record.current ?? {}, patch, this.opts.updateCtx);
  }

  /** Strict mode holds back what the shared rules reject: the service would refuse it anyway. */
  private checked(record: AssetRecord, whole: AssetInput, payload: AssetInput, ctx: ValidationContext) {
    if (this.opts.mode === 'strict') {
      const result = validateAsset(whole, ctx);
      if (hasErrors(result)) {
        this.opts.blocked.push({ localId: record.localId, errors: flattenErrors(result) });
        return undefined;
      }
    }
    return { record, payload };
  }
}

/** Like Promise.all, but waits for every task before rethrowing the first failure. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

function indexBy<K>(records: AssetRecord[], key: (record: AssetRecord) => K | null): Map<K, AssetRecord> {
  const map = new Map<K, AssetRecord>();
  for (const record of records) {
    const value = key(record);
    if (value !== null) map.set(value, record);
  }
  return map;
}

function findRecord(
  asset: { service_asset_id?: unknown; partners_id?: unknown },
  byPartner: Map<number | null, AssetRecord>,
  byService: Map<number | null, AssetRecord>,
): AssetRecord | undefined {
  if (typeof asset.service_asset_id === 'number') {
    const record = byService.get(asset.service_asset_id);
    if (record) return record;
  }
  if (typeof asset.partners_id === 'number') return byPartner.get(asset.partners_id);
  return undefined;
}

function flattenErrors(result: ReturnType<typeof validateAsset>): Validations['errors'] {
  const errors: Validations['errors'] = { ...result.asset.errors };
  result.annualData.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`annual_data[${index}].${field}`] = messages;
  });
  result.certifications.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`certifications[${index}].${field}`] = messages;
  });
  result.energyRatings.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`energy_ratings[${index}].${field}`] = messages;
  });
  return errors;
}

function emptyPull(): PullSummary {
  return { added: 0, updated: 0, conflicts: 0, removed: 0, remoteDeletedConflicts: 0, adopted: 0 };
}

function emptyPush(): PushSummary {
  return {
    requests: 0,
    created: 0,
    updated: 0,
    deleted: 0,
    invalid: 0,
    notFound: 0,
    blocked: [],
    conflicted: 0,
  };
}

function summarize(report: SyncReport): string {
  const { push, pull } = report;
  return `Pulled ${pull.added} new, ${pull.updated} changed; sent ${push.created} created, ${push.updated} updated, ${push.deleted} deleted in ${push.requests} request(s); ${push.invalid} rejected, ${push.blocked.length} held back by errors, ${push.conflicted} with conflicts.`;
}
