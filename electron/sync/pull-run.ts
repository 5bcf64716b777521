import type { Asset, PageMeta } from '../../shared/domain';
import type { PullSummary } from '../../shared/sync/types';
import { readAssetPage } from '../service-client/fast-asset';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { checkedIds } from './remote-listing';
import { emptyPull } from './sync-report';

/** Assets merged in one transaction at most: a commit per page would cost more than the merge. */
const maxPerTransaction = 1_000;
/** Pages waiting are merged once this long passes without another (or when the listing ends). */
const quietMs = 20;

/**
 * The local part of one pull: pages parsed and checked as they arrive, merged three ways into the
 * workspace, then lost batches settled and what the service confirmed gone marked. It runs in the
 * sync's worker thread (see sync-worker.ts), so main only fetches.
 *
 * Pages are merged a few at a time (`maxPerTransaction` assets, or what arrived before a pause):
 * each merge is idempotent, so grouping loses nothing a re-pull would not bring back, and it spares
 * a commit (an fsync) per page.
 */
export class PullRun {
  readonly summary = emptyPull();
  /** Pending creates by partners_id: one whose answer was lost is adopted, not added twice. */
  private readonly newByPartner: Map<number, string>;
  private waiting: Asset[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(private readonly store: WorkspaceStore) {
    this.newByPartner = store.createsByPartner();
  }

  /**
   * One page's bytes: parsed, its ids checked (an id-less asset or an empty page that should have
   * had assets is an error, and nothing of the page is merged), queued for merging. The ids.
   */
  page(bytes: Uint8Array, status: number, page: number, meta: PageMeta, lastPage: number): number[] {
    this.rethrow();
    const assets = readAssetPage(bytes, page, status);
    const ids = checkedIds(page, assets, meta, lastPage);
    this.queue(assets);
    return ids;
  }

  /** The ids the workspace knows that `seen` lacks, once every page is merged. */
  lacking(seen: readonly number[]): number[] {
    this.flush();
    const listed = new Set(seen);
    return this.store.serviceIds().filter((id) => !listed.has(id));
  }

  /**
   * Merges what was `found` after the listing lacked it, forgets batches whose answers were lost
   * (the pull has adopted or merged what they carried), marks what the service confirmed `gone`.
   */
  finish(found: readonly Asset[], gone: readonly number[]): PullSummary {
    this.queue(found);
    this.flush();
    this.store.transaction(() => {
      for (const { batchId } of this.store.unsettledBatches()) this.store.abandonBatch(batchId);
      const marked = this.store.markMissingRemote(new Set(gone));
      this.summary.removed = marked.removed;
      this.summary.remoteDeletedConflicts = marked.conflicts;
    });
    return this.summary;
  }

  private queue(assets: readonly Asset[]): void {
    this.waiting.push(...assets);
    clearTimeout(this.timer);
    if (this.waiting.length === 0) return;
    // Merged once enough are waiting (after this page's ids are answered), or after a pause.
    this.timer = setTimeout(
      () => {
        try {
          this.flush();
        } catch (error) {
          this.failure ??= error;
        }
      },
      this.waiting.length >= maxPerTransaction ? 0 : quietMs,
    );
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.rethrow();
    if (this.waiting.length === 0) return;
    const assets = this.waiting;
    this.waiting = [];
    this.store.transaction(() => applyPage(this.store, assets, this.newByPartner, this.summary));
  }

  private rethrow(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * Merges remote assets; a new asset whose create answer was lost is adopted, not added. The rows
 * they are weighed against are read in one statement for the group.
 */
function applyPage(
  store: WorkspaceStore,
  remote: Asset[],
  newByPartner: Map<number, string>,
  summary: PullSummary,
): void {
  const ids = remote.flatMap((asset) => (asset.service_asset_id === null ? [] : [asset.service_asset_id]));
  const known = store.knownRemoteRows(ids);
  /** Ids taken in this group: one listed twice is weighed, the second time, against the first. */
  const taken = new Set<number>();
  for (const asset of remote) {
    const id = asset.service_asset_id;
    if (id === null) continue;
    const row = taken.has(id) ? undefined : (known.get(id) ?? null);
    taken.add(id);
    // Our creates carry integer partners ids; a string one (older answers) is someone else's.
    const pending = typeof asset.partners_id === 'number' ? newByPartner.get(asset.partners_id) : undefined;
    if (pending !== undefined && !(row === undefined ? store.assetByServiceId(id) : row)) {
      // A create whose answer was lost: the service has it, so it is not sent again.
      store.acknowledge(pending, asset);
      newByPartner.delete(asset.partners_id as number);
      summary.adopted++;
      continue;
    }
    const outcome = store.applyRemote(asset, row);
    if (outcome === 'added') summary.added++;
    else if (outcome === 'updated') summary.updated++;
    else if (outcome === 'conflict') summary.conflicts++;
  }
}
