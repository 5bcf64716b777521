import { randomUUID } from 'node:crypto';
import type { Asset, BatchRequest, BatchResponse } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { PushMode, PushSummary } from '../../shared/sync/types';
import {
  mayHoldRemovedFields,
  serviceIdName,
  toWireRequest,
  withRemovedFieldsKept,
  type AssetIdName,
} from '../../shared/sync/asset-id-name';
import { ApiError } from '../service-client/errors';
import { readBatchAnswer } from '../service-client/fast-asset';
import type { LedgerPort } from '../workspace/ledger-port';
import { BatchSettlement } from './batch-settlement';
import { forgetPlan, takePlan } from './pending-plan';
import { applyBatchAnswer, findRecord, indexBy, type SentBatch } from './batch-answer';
import { BatchPlanner, type PlannedBatch, type PlannedItem, type PlanOptions } from './batch-planner';
import { emptyPush } from './sync-report';

/** What a push learns before its first batch: the progress total and what it will not send. */
export interface PushStart {
  estimate: number;
  conflicted: number;
  unconfirmedDeletes: number;
}

/** A batch recorded in the outbox, its body ready to send (JSON bytes). */
export interface OutgoingBatch {
  batchId: string;
  body: Uint8Array;
}

/** The counts one settled answer adds to the push's summary. */
export type SettledCounts = Pick<PushSummary, 'created' | 'updated' | 'deleted' | 'invalid' | 'notFound'>;

/**
 * A settled answer: its counts, the name its assets carried their id under (see asset-id-name.ts),
 * and `lost` when creates it made are to be reconciled like a lost answer's.
 */
export interface SettledBatch {
  counts: SettledCounts;
  idName: AssetIdName | undefined;
  lost?: true;
}

/**
 * The local part of one push round: batches planned and recorded in the outbox one at a time
 * (`next`), and each answer parsed and settled (`settle`). It runs in the sync's worker thread (see
 * sync-worker.ts), so none of this is main's work; the engine on main only sends.
 */
export class PushRun {
  private readonly planner: BatchPlanner;
  /**
   * Batches out (or about to be), by id: the assets their answers are traced back to, and the copy
   * each carried. Kept lean (ids only): the documents read to plan a batch are garbage once it is.
   */
  private readonly out = new Map<
    string,
    { batch: SentBatch; sent: Map<string, string>; docs: Map<string, AssetDoc> }
  >();

  /**
   * `settled`: where every asset an answer settled is added, true when its copy is now, in
   * substance, the one sent (the window's view of it keeps its document, see `assetViewsOf`).
   */
  constructor(
    private readonly store: LedgerPort,
    private readonly opts: PlanOptions,
    private readonly settled: Map<string, boolean> = new Map(),
  ) {
    this.planner = new BatchPlanner(store, opts, takePlan(store, opts.idName));
  }

  start(): PushStart {
    const { conflicted, unconfirmedDeletes } = this.planner;
    return { estimate: this.planner.estimate(), conflicted, unconfirmedDeletes };
  }

  /**
   * The next batch, read and recorded in the outbox in one transaction (recorded before it is sent:
   * a crash from here on leaves a batch to reconcile, never a guess); null when nothing is left.
   * `blocked`: what strict mode held back while filling it.
   */
  next(): { batch: OutgoingBatch | null; blocked: PushSummary['blocked'] } {
    const batchId = randomUUID();
    const planned = this.store.transaction(() => {
      const batch = this.planner.next();
      if (batch) {
        const items = [...batch.creates, ...batch.updates, ...batch.deletes];
        this.store.beginBatch(
          batchId,
          items.map((item) => item.record.localId),
          // Only new assets are marked in flight; the others are rebased on `sent` (see settle).
          batch.creates.map((item) => item.record.localId),
        );
      }
      return batch;
    });
    const blocked = this.planner.takeBlocked();
    if (!planned) return { batch: null, blocked };
    const lean = (items: PlannedItem[]) =>
      items.map(({ record: { localId, partnersId, serviceAssetId } }) => ({
        record: { localId, partnersId, serviceAssetId },
      }));
    const sent = new Map<string, string>();
    // The copies sent as parsed to plan the batch: its answer is merged into them, not a parse of `sent`.
    const docs = new Map<string, AssetDoc>();
    for (const item of [...planned.creates, ...planned.updates]) {
      if (typeof item.sent !== 'string') continue;
      sent.set(item.record.localId, item.sent);
      if (item.record.current) docs.set(item.record.localId, item.record.current);
    }
    this.out.set(batchId, {
      batch: {
        creates: lean(planned.creates),
        updates: lean(planned.updates),
        deletes: lean(planned.deletes),
      },
      sent,
      docs,
    });
    // Named as the connection's service reads it: the id's name, without the fields it removed.
    const request = toWireRequest(requestBody(planned, this.opts.mode), this.opts.idName);
    const body = new TextEncoder().encode(JSON.stringify(request));
    return { batch: { batchId, body }, blocked };
  }

  /**
   * Applies the service's answer (its bytes as received) in one transaction: what it acknowledged
   * becomes the base. An answer that cannot be read after a 2xx leaves the batch ambiguous, to be
   * reconciled: `lost`; so do creates it made without saying whose they are (with their counts).
   * `depthChecked`: the bytes' nesting was read as they arrived (see fast-asset.ts `jsonOf`).
   */
  settle(
    batchId: string,
    bytes: Uint8Array,
    status: number,
    depthChecked = false,
  ): SettledBatch | { lost: true } {
    const out = this.out.get(batchId);
    this.out.delete(batchId);
    if (!out) throw new Error(`No batch ${batchId} in this push`);
    let answer: BatchResponse;
    let json: unknown;
    let idName: AssetIdName | undefined;
    try {
      ({ answer, json, idName } = readBatchAnswer(bytes, status, depthChecked));
    } catch (error) {
      if (!(error instanceof ApiError && error.ambiguous)) throw error;
      this.store.markBatchAmbiguous(batchId);
      return { lost: true };
    }
    if (idName === serviceIdName) answer = keepingRemovedFields(answer, out.batch, out.sent);
    const summary = emptyPush();
    let untraced: string[] = [];
    // Edits made while the batch was out are rebased on the copy it carried (`out.sent`).
    const tx = new BatchSettlement(this.store, out.sent, out.docs);
    this.store.settleBatch(batchId, () => {
      untraced = applyBatchAnswer(tx, out.batch, answer, summary, json);
    });
    forgetPlan(this.store);
    for (const list of [out.batch.creates, out.batch.updates, out.batch.deletes])
      for (const { record } of list) this.settled.set(record.localId, tx.sameAsSent.has(record.localId));
    const { created, updated, deleted, invalid, notFound } = summary;
    const counts = { created, updated, deleted, invalid, notFound };
    if (untraced.length === 0) return { counts, idName };
    // Creates the answer did not trace back are reconciled like a lost answer's (see applyBatchAnswer).
    const reconcile = randomUUID();
    this.store.beginBatch(reconcile, untraced);
    this.store.markBatchAmbiguous(reconcile);
    return { counts, idName, lost: true };
  }

  /**
   * A batch that got no answer: `ambiguous` (it may have been applied) stays in the outbox to be
   * reconciled; otherwise (refused whole, or never sent) it is forgotten.
   */
  drop(batchId: string, ambiguous: boolean): void {
    this.out.delete(batchId);
    if (ambiguous) this.store.markBatchAmbiguous(batchId);
    else this.store.abandonBatch(batchId);
  }
}

/**
 * A service that speaks the real names never answers the fields it removed (`lat`, `lng`, annual
 * `owned_entire_period`): each asset it answered takes them from the copy that was sent, so the
 * workspace keeps them (see asset-id-name.ts).
 */
function keepingRemovedFields(
  answer: BatchResponse,
  batch: SentBatch,
  sent: Map<string, string>,
): BatchResponse {
  const byPartner = indexBy(
    batch.creates.map((item) => item.record),
    (record) => record.partnersId,
  );
  const byService = indexBy(
    batch.updates.map((item) => item.record),
    (record) => record.serviceAssetId,
  );
  const none = new Map();
  const keep = (created: boolean) => (asset: Asset) => {
    const record = findRecord(asset, created ? byPartner : none, created ? none : byService);
    const json = record ? sent.get(record.localId) : undefined;
    if (json === undefined || !mayHoldRemovedFields(json)) return asset;
    const kept = withRemovedFieldsKept(
      asset as unknown as Record<string, unknown>,
      JSON.parse(json) as Record<string, unknown>,
    );
    return kept ? (kept as unknown as Asset) : asset;
  };
  return {
    ...answer,
    created: answer.created.map(keep(true)),
    always_created: answer.always_created.map(keep(true)),
    updated: answer.updated.map(keep(false)),
    always_updated: answer.always_updated.map(keep(false)),
  };
}

/** The request: "send anyway" items go through always_*, which the service saves with their errors. */
function requestBody(batch: PlannedBatch, mode: PushMode): BatchRequest {
  const body: BatchRequest = {};
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
  return body;
}
