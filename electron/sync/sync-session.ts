/**
 * The sync's local part for one run, behind one table of operations (`SessionOps`): what the
 * engine on main asks of it, whether it runs in the worker thread (sync-worker.ts, the usual case)
 * or, for a workspace without a file to share, in main itself (sync-local.ts). Every argument and
 * result is plain data, so it crosses a thread as it is.
 */
import { countNames, type Asset, type PageMeta, type ValidationContext } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { PendingReview, PullSummary, PushMode, PushSummary, SyncChanges } from '../../shared/sync/types';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import { settledViewsOf } from '../workspace/asset-views';
import type { LedgerPort } from '../workspace/ledger-port';
import type { SentAsset } from './batch-answer';
import { pendingPlan } from './pending-plan';
import { PullRun, type PulledPage } from './pull-run';
import {
  PushRun,
  type OutgoingBatch,
  type PushStart,
  type SettledBatch,
  type SettledCounts,
} from './push-run';
import { reviewPending } from './review';

export type { OutgoingBatch, PushStart, SettledCounts };

/** The rules' context as data: a function (the name check) cannot cross a thread. */
export type ContextData = Omit<ValidationContext, 'isNameTaken'>;

/** The rules' contexts as the engine sends them (see `withNames`). */
export interface ContextsData {
  createCtx: ContextData;
  updateCtx: ContextData;
  /**
   * The context the engine was given checks names against the workspace's: the same check is
   * rebuilt here from the names the workspace holds now (the rule WorkspaceService applies).
   */
  checkNames: boolean;
}

/** What the dry run sends the service's validation endpoint, from the click's plan. */
export interface DryRunWork {
  creates: AssetDoc[];
  updates: AssetDoc[];
  /** How each answered asset is traced back (the same order as `creates` and `updates`). */
  createRecords: SentAsset[];
  updateRecords: SentAsset[];
}

export interface PushStartOptions extends ContextsData {
  mode: PushMode;
  size: number;
  deletes?: number[] | undefined;
  sendAnyway?: string[] | undefined;
  /** The name the connection's service reads the asset id under (see asset-id-name.ts). */
  idName: AssetIdName;
}

/** Each operation: [its argument, its result]. */
export interface SessionOps {
  pushStart: [PushStartOptions, PushStart];
  pushNext: [null, { batch: OutgoingBatch | null; blocked: PushSummary['blocked'] }];
  /**
   * `depthChecked`: the answer's nesting was read as it arrived (the service client's
   * `postBatchBytes` does), so it is not scanned again.
   */
  pushSettle: [
    { batchId: string; bytes: Uint8Array; status: number; depthChecked?: boolean },
    SettledBatch | { lost: true },
  ];
  pushDrop: [{ batchId: string; ambiguous: boolean }, null];
  /** The views of every asset this session's pushes settled, and whether its pulls changed any. */
  changes: [{ idName: AssetIdName }, SyncChanges];
  /** The review of the click's plan (review.ts). */
  review: [ContextsData & { idName: AssetIdName }, PendingReview];
  dryRunWork: [{ idName: AssetIdName }, DryRunWork];
  pullStart: [null, null];
  pullPage: [
    { bytes: Uint8Array; status: number; page: number; meta: PageMeta; lastPage: number },
    PulledPage,
  ];
  pullLacking: [{ seen: number[] }, number[]];
  pullFinish: [{ found: Asset[]; gone: number[]; realNames: boolean }, PullSummary];
}

export type SessionOp = keyof SessionOps;

export class SyncSession {
  private push: PushRun | undefined;
  private pull: PullRun | undefined;
  /** Every asset a batch answer of this session settled: the window is sent their views. */
  private readonly settled = new Map<string, boolean>();
  /** Whether a pull of this session changed the workspace (the window then reads it again). */
  private pulled = false;

  constructor(readonly store: LedgerPort) {}

  run<K extends SessionOp>(op: K, arg: SessionOps[K][0]): SessionOps[K][1] {
    return (this.handlers[op] as (arg: SessionOps[K][0]) => SessionOps[K][1])(arg);
  }

  private readonly handlers: { [K in SessionOp]: (arg: SessionOps[K][0]) => SessionOps[K][1] } = {
    pushStart: (opts) => {
      const { createCtx, updateCtx } = withNames(this.store, opts);
      this.push = new PushRun(
        this.store,
        {
          mode: opts.mode,
          size: opts.size,
          createCtx,
          updateCtx,
          deletes: opts.deletes ? new Set(opts.deletes) : undefined,
          sendAnyway: opts.sendAnyway ? new Set(opts.sendAnyway) : undefined,
          idName: opts.idName,
        },
        this.settled,
      );
      return this.push.start();
    },
    changes: ({ idName }) => {
      // The journal's last entry first, then the views: an edit committed after that entry may or
      // may not show in them, and main reads its asset again (a write lock here would hold edits).
      const journalSeq = this.store.lastJournalSeq();
      const sameAsSent = new Set([...this.settled].flatMap(([localId, same]) => (same ? [localId] : [])));
      const views = settledViewsOf(this.store, this.settled.keys(), sameAsSent, idName);
      return { ...views, pulled: this.pulled, journalSeq };
    },
    pushNext: () => this.pushRun().next(),
    pushSettle: ({ batchId, bytes, status, depthChecked }) =>
      this.pushRun().settle(batchId, bytes, status, depthChecked),
    pushDrop: ({ batchId, ambiguous }) => {
      this.pushRun().drop(batchId, ambiguous);
      return null;
    },
    review: ({ idName, ...contexts }) =>
      reviewPending(this.store, idName, {
        ...withNames(this.store, contexts),
        key: JSON.stringify(contexts),
      }),
    dryRunWork: ({ idName }) => {
      const work = pendingPlan(this.store, idName);
      const lean = ({ localId, partnersId, serviceAssetId }: SentAsset) => ({
        localId,
        partnersId,
        serviceAssetId,
      });
      return {
        creates: work.creates.map((record) => this.store.createPayloadOf(record)),
        updates: work.updates.map((entry) => entry.patch),
        createRecords: work.creates.map(lean),
        updateRecords: work.updates.map((entry) => lean(entry.record)),
      };
    },
    pullStart: () => {
      this.pull = new PullRun(this.store);
      return null;
    },
    pullPage: ({ bytes, status, page, meta, lastPage }) =>
      this.pullRun().page(bytes, status, page, meta, lastPage),
    pullLacking: ({ seen }) => this.pullRun().lacking(seen),
    pullFinish: ({ found, gone, realNames }) => {
      const summary = this.pullRun().finish(found, gone, realNames);
      this.pull = undefined;
      const { added, updated, conflicts, removed, remoteDeletedConflicts, adopted } = summary;
      if (added + updated + conflicts + removed + remoteDeletedConflicts + adopted > 0) this.pulled = true;
      return summary;
    },
  };

  private pushRun(): PushRun {
    if (!this.push) throw new Error('No push under way in this sync session');
    return this.push;
  }

  private pullRun(): PullRun {
    if (!this.pull) throw new Error('No pull under way in this sync session');
    return this.pull;
  }
}

/** The contexts with the name check rebuilt from the names the workspace holds now. */
function withNames(
  store: LedgerPort,
  { createCtx, updateCtx, checkNames }: ContextsData,
): { createCtx: ValidationContext; updateCtx: ValidationContext } {
  const names = checkNames ? countNames(store.currentNames()) : undefined;
  const named = (ctx: ContextData): ValidationContext =>
    names ? { ...ctx, isNameTaken: (name) => (names.get(name.trim()) ?? 0) > 1 } : ctx;
  return { createCtx: named(createCtx), updateCtx: named(updateCtx) };
}
