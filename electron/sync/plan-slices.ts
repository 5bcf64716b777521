/**
 * The click's one pending-work plan (pending-plan.ts), made in slices (issue 33). Begun from the
 * candidates, the rows not in step told from their columns alone (no document read), sorted into
 * the queue each would join; each queue is then planned a slice at a time, in the push's batch
 * order: a slice's rows are read and sorted by `pendingWork`, the same rules as ever, which parse
 * and diff an update's two copies. A push asks for a batch's worth at a time, so its first batch
 * leaves after one slice and the later slices are planned while earlier batches are out (with the
 * service, or waiting on its rate limit); the review and the dry run drain every slice.
 *
 * What the plan covers is fixed when it is begun: an asset that becomes pending after that waits for
 * the next sync, as it did when the plan was read whole. A candidate is read when its slice is
 * planned, so an edit made before that is planned as it now is; one made after is found by the batch
 * planner, which reads each document again when its batch is filled (batch-planner.ts). The plan's
 * conflicts are those open when it was begun.
 */
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { LedgerPort } from '../workspace/ledger-port';
import {
  candidateKind,
  emptyWork,
  pendingWork,
  type PendingCandidate,
  type PendingWork,
} from './pending-work';

export type PlanQueue = 'create' | 'update' | 'delete' | 'conflicted';

/** Rows per slice when the plan is drained whole (a push asks for a batch's worth instead). */
const drainSlice = 5_000;

/** What the plans read: tests see how far a plan was made when a push's first batch left. */
export const sliceStats = { rowsPlanned: 0 };

export class SlicedPlan {
  /** The candidates by the queue their columns say they join, in stored order. */
  readonly queued: Readonly<Record<PlanQueue, readonly PendingCandidate[]>>;
  private readonly cursor: Record<PlanQueue, number> = { create: 0, update: 0, delete: 0, conflicted: 0 };
  private readonly conflictedIds: ReadonlySet<string>;
  /** The slices planned so far, merged; a push takes it over (`handOver`) and keeps none after. */
  private work: PendingWork = emptyWork();
  private kept = true;

  constructor(
    private readonly store: Pick<LedgerPort, 'pendingCandidates' | 'pendingRows' | 'conflictedIds'>,
    private readonly idName: AssetIdName,
  ) {
    this.conflictedIds = store.conflictedIds();
    const queued: Record<PlanQueue, PendingCandidate[]> = {
      create: [],
      update: [],
      delete: [],
      conflicted: [],
    };
    for (const candidate of store.pendingCandidates()) {
      const kind = candidateKind(candidate, this.conflictedIds);
      if (kind) queued[kind].push(candidate);
    }
    this.queued = queued;
    // Few, and a push reports their count before its first batch: planned now.
    while (this.more('conflicted', drainSlice));
  }

  /** Plans up to `count` more of `queue`'s candidates: the slice, or undefined when none is left. */
  more(queue: PlanQueue, count: number): PendingWork | undefined {
    const from = this.cursor[queue];
    const slice = this.queued[queue].slice(from, from + Math.max(1, count));
    if (slice.length === 0) return undefined;
    this.cursor[queue] += slice.length;
    sliceStats.rowsPlanned += slice.length;
    const ids = slice.map((candidate) => candidate.localId);
    const rowids = slice.flatMap((candidate) => (candidate.rowid === undefined ? [] : [candidate.rowid]));
    const work = pendingWork(this.store.pendingRows(ids, rowids), this.conflictedIds, this.idName);
    if (this.kept) merge(this.work, work);
    return work;
  }

  /** The whole plan, every slice planned: what the review and the dry run read. */
  drain(): PendingWork {
    if (!this.kept) throw new Error('This plan was handed to a push');
    for (const queue of ['create', 'update', 'delete'] as const) while (this.more(queue, drainSlice));
    return this.work;
  }

  /**
   * What is planned so far, for a push, which takes the later slices from `more` as it fills its
   * batches: the plan keeps none of them (a 20,000-asset plan is not held to the push's end; the
   * push's own writes make it stale anyway, see pending-plan.ts `takePlan`).
   */
  handOver(): PendingWork {
    const work = this.work;
    this.work = emptyWork();
    this.kept = false;
    return work;
  }
}

function merge(into: PendingWork, slice: PendingWork): void {
  for (const key of ['creates', 'deletes', 'conflicted', 'localOnly'] as const)
    for (const record of slice[key]) into[key].push(record);
  for (const update of slice.updates) into.updates.push(update);
  for (const [localId, docs] of slice.parsed) into.parsed.set(localId, docs);
}
