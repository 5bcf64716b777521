import {
  hasErrors,
  validateAsset,
  type AssetInput,
  type ValidationContext,
  type Validations,
} from '../../shared/domain';
import { updatePayload, type AssetDoc } from '../../shared/sync/asset-doc';
import type { PushMode, PushSummary } from '../../shared/sync/types';
import { changesAnything, type AssetIdName } from '../../shared/sync/asset-id-name';
import type { AssetRecord, AssetRow, ParsedDocs } from '../workspace/asset-record';
import { candidateKind, candidateOf, type PendingWork, type PlannedDocs } from './pending-work';
import type { SlicedPlan } from './plan-slices';
import type { LedgerPort } from '../workspace/ledger-port';

export interface PlannedItem {
  record: AssetRecord;
  payload: AssetInput | AssetDoc;
  /** The local copy as it was read to be sent (JSON text): edits made meanwhile rebase on it. */
  sent?: string | null;
  /** Sent with its errors (always_create / always_update): the analyst chose "send anyway". */
  anyway?: boolean;
}

export interface PlannedBatch {
  creates: PlannedItem[];
  updates: PlannedItem[];
  deletes: PlannedItem[];
}

export interface PlanOptions {
  mode: PushMode;
  size: number;
  createCtx: ValidationContext;
  updateCtx: ValidationContext;
  /** Service ids whose deletion the analyst confirmed; absent: every pending delete. */
  deletes?: ReadonlySet<number> | undefined;
  /** Assets the analyst chose to send with their errors, through always_create / always_update. */
  sendAnyway?: ReadonlySet<string> | undefined;
  /** The name the service reads the asset id under: the request is written with it. */
  idName: AssetIdName;
}

type Queue = 'creates' | 'updates' | 'deletes';

/** The plan's queue each batch queue is filled from. */
const planQueue = { creates: 'create', updates: 'update', deletes: 'delete' } as const;

/**
 * Fills batches from the pending queues. The queues are the click's plan (pending-plan.ts: one for
 * the review, the dry run and the push), made in slices (plan-slices.ts): a batch asks the plan for
 * as many more of a queue as it still has room for, so the first batch leaves after one slice and
 * the later slices are planned while earlier batches are out. Each asset's documents are read
 * again, diffed and validated when its batch is filled, so the latest copy is sent: an edit made
 * after the sync started, before its batch was filled, goes out with it (one that made an asset
 * pending after the plan was begun waits for the next sync). Greedy packing in queue order gives
 * the fewest requests the per-field limit allows.
 */
export class BatchPlanner {
  /** Pending assets held back by their conflicts. */
  readonly conflicted: number;
  /** Pending deletes the analyst did not confirm (they stay pending). */
  readonly unconfirmedDeletes: number;
  private readonly queues: Record<Queue, string[]> = { creates: [], updates: [], deletes: [] };
  private readonly cursor: Record<Queue, number> = { creates: 0, updates: 0, deletes: 0 };
  /** Each queue's length once every slice is planned, as its candidates' columns tell. */
  private readonly expected: Record<Queue, number>;
  private readonly conflictedIds: ReadonlySet<string>;
  private blocked: PushSummary['blocked'] = [];
  /**
   * What the plan parsed and diffed of each queued asset, with the texts it parsed: a batch takes
   * them while the row holds those texts still (the usual case), rather than parsing and diffing
   * every document twice in one click. Each entry is let go as its batch is filled (nothing else
   * reads it, and a batch without its entry parses the row itself).
   */
  private readonly planned = new Map<string, PlannedDocs>();
  /**
   * The rows of the slices planned inside the batch being filled, as read then (a create's and an
   * update's current text, a delete's none): read in the batch's own transaction, they are the rows
   * as they are now, so the batch takes them instead of reading them again (a fifth of filling a
   * batch). Emptied as each batch begins; rows planned before it (a review's) are read again.
   */
  private readonly fresh = new Map<string, { record: AssetRecord; currentJson: string | null }>();

  /**
   * `plan`: the click's plan (pending-plan.ts `takePlan`), the one the review and the dry run read:
   * it says which assets go in which queue; their documents are read again when their batch is filled.
   */
  constructor(
    private readonly store: LedgerPort,
    private readonly opts: PlanOptions,
    private readonly plan: SlicedPlan,
  ) {
    this.conflictedIds = store.conflictedIds();
    const work = plan.handOver();
    this.conflicted = work.conflicted.length;
    const confirmed = plan.queued.delete.filter(({ serviceAssetId: id }) => this.confirmed(id)).length;
    this.unconfirmedDeletes = plan.queued.delete.length - confirmed;
    this.expected = {
      creates: plan.queued.create.length,
      // At most: an update whose copies turn out equal in substance sends nothing.
      updates: plan.queued.update.length,
      deletes: confirmed,
    };
    this.absorb(work);
  }

  private confirmed(id: number | null): boolean {
    return !this.opts.deletes || (id !== null && this.opts.deletes.has(id));
  }

  /**
   * A slice of the plan joins the queues (a delete only if confirmed). `fresh`: planned inside the
   * batch being filled (see `fresh`).
   */
  private absorb(work: PendingWork, fresh = false): void {
    for (const record of work.creates) this.queues.creates.push(record.localId);
    for (const { record } of work.updates) this.queues.updates.push(record.localId);
    for (const record of work.deletes)
      if (this.confirmed(record.serviceAssetId)) {
        this.queues.deletes.push(record.localId);
        if (fresh) this.fresh.set(record.localId, { record, currentJson: null });
      }
    for (const [localId, docs] of work.parsed) {
      this.planned.set(localId, docs);
      if (fresh) this.fresh.set(localId, { record: docs.record, currentJson: docs.current });
    }
  }

  /** Plans up to `count` more of the plan's `queue` now: false when the plan has none left. */
  private planMore(queue: Queue, count: number): boolean {
    const slice = this.plan.more(planQueue[queue], count);
    if (slice) this.absorb(slice, true);
    return slice !== undefined;
  }

  /**
   * The rows of `localIds` as they are now: those planned inside this batch as the plan read them,
   * the others read in one statement (their documents parsed again only if their texts changed).
   */
  private rowsNow(
    localIds: readonly string[],
  ): Map<string, { record: AssetRecord; currentJson: string | null }> {
    const stale = localIds.filter((localId) => !this.fresh.has(localId));
    const read = stale.length > 0 ? this.store.assetDocs(stale, this.parsed) : new Map();
    for (const localId of localIds) {
      const row = this.fresh.get(localId);
      if (row) read.set(localId, row);
    }
    return read;
  }

  /** The documents the plan parsed of this row, if it holds the very texts they were parsed from. */
  private readonly parsed = (row: AssetRow): ParsedDocs | undefined => {
    const known = this.planned.get(row.local_id);
    if (!known || known.base !== row.base || known.current !== row.current) return undefined;
    return { base: known.record.base, current: known.record.current };
  };

  /** Batches needed if nothing is blocked: the progress total, by the click's plan. */
  estimate(): number {
    const { creates, updates, deletes } = this.expected;
    return Math.ceil(Math.max(creates, updates, deletes) / this.opts.size);
  }

  /**
   * The next batch, its documents read now; undefined when nothing is left. Run it in the same
   * transaction as the batch's outbox entry, so no edit slips between reading and marking in flight.
   */
  next(): PlannedBatch | undefined {
    this.fresh.clear();
    const batch: PlannedBatch = {
      creates: this.take('creates', (record) => this.createItem(record)),
      updates: this.take('updates', (record, known) => this.updateItem(record, known)),
      deletes: this.take('deletes', (record) => ({
        record,
        payload: { service_asset_id: record.serviceAssetId },
      })),
    };
    this.fresh.clear();
    return batch.creates.length + batch.updates.length + batch.deletes.length > 0 ? batch : undefined;
  }

  /** What strict mode held back since the last call. */
  takeBlocked(): PushSummary['blocked'] {
    const out = this.blocked;
    this.blocked = [];
    return out;
  }

  private take(
    queue: Queue,
    toItem: (
      record: AssetRecord,
      known?: { record: AssetRecord; patch?: AssetDoc },
    ) => PlannedItem | undefined,
  ): PlannedItem[] {
    const items: PlannedItem[] = [];
    const ids = this.queues[queue];
    while (items.length < this.opts.size) {
      // The queue's planned part is used up: the plan's next slice, as much as the batch has room for.
      if (this.cursor[queue] >= ids.length && !this.planMore(queue, this.opts.size - items.length)) break;
      if (this.cursor[queue] >= ids.length) continue;
      // As many as the batch still has room for, read in one statement; more if some drop out.
      const chunk = ids.slice(this.cursor[queue], this.cursor[queue] + this.opts.size - items.length);
      this.cursor[queue] += chunk.length;
      const read = this.rowsNow(chunk);
      for (const localId of chunk) {
        const found = read.get(localId);
        const known = this.planned.get(localId);
        this.planned.delete(localId);
        // Changed since the queues were built (reverted, deleted, restored): the next sync sees it.
        if (!found || this.kindOf(found.record) !== queue) continue;
        const item = toItem(found.record, known);
        if (item) {
          item.sent = found.currentJson;
          items.push(item);
        }
      }
    }
    return items;
  }

  private kindOf(record: AssetRecord): Queue | undefined {
    if (record.inStep && !record.remoteDeleted) return undefined;
    const kind = candidateKind(candidateOf(record), this.conflictedIds);
    return kind === 'conflicted' || kind === undefined ? undefined : `${kind}s`;
  }

  private createItem(record: AssetRecord): PlannedItem | undefined {
    const payload = this.store.createPayloadOf(record);
    return this.checked(record, payload, payload, this.opts.createCtx);
  }

  private updateItem(
    record: AssetRecord,
    known?: { record: AssetRecord; patch?: AssetDoc },
  ): PlannedItem | undefined {
    if (record.serviceAssetId === null || !record.base || !record.current) return undefined;
    // The plan's diff of these very documents (taken from it above) and the same id: still the patch.
    const same =
      known?.patch !== undefined &&
      known.record.base === record.base &&
      known.record.current === record.current &&
      known.record.serviceAssetId === record.serviceAssetId;
    const patch = same ? known.patch : updatePayload(record.serviceAssetId, record.base, record.current);
    // Only a removed field changed (see asset-id-name.ts): it stays local, nothing is sent.
    if (!patch || !changesAnything(patch, this.opts.idName)) return undefined;
    return this.checked(record, record.current, patch, this.opts.updateCtx);
  }

  /** Strict mode holds back what the shared rules reject: the service would refuse it anyway. */
  private checked(record: AssetRecord, whole: AssetInput, payload: AssetInput, ctx: ValidationContext) {
    if (this.opts.mode === 'strict') {
      const errors = heldBackErrors(whole, ctx);
      if (errors) {
        if (this.opts.sendAnyway?.has(record.localId)) return { record, payload, anyway: true };
        this.blocked.push({ localId: record.localId, errors });
        return undefined;
      }
    }
    return { record, payload };
  }
}

/** Why an asset is held back from a strict push (the shared rules' errors), or undefined. */
export function heldBackErrors(whole: AssetInput, ctx: ValidationContext): Validations['errors'] | undefined {
  const result = validateAsset(whole, ctx);
  return hasErrors(result) ? flattenErrors(result) : undefined;
}

/** Of the pending creates and updates, those a strict push would hold back, and why. */
export function heldBackOf(
  work: PendingWork,
  store: LedgerPort,
  createCtx: ValidationContext,
  updateCtx: ValidationContext,
): Array<{ localId: string; errors: Validations['errors'] }> {
  const out: Array<{ localId: string; errors: Validations['errors'] }> = [];
  for (const record of work.creates) {
    const errors = heldBackErrors(store.createPayloadOf(record), createCtx);
    if (errors) out.push({ localId: record.localId, errors });
  }
  for (const { record } of work.updates) {
    const errors = heldBackErrors(record.current ?? {}, updateCtx);
    if (errors) out.push({ localId: record.localId, errors });
  }
  return out;
}

/** The rules' errors keyed by path, as the service keys its own (`annual_data[0].field`). */
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
