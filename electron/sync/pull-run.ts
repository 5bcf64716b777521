import type { Asset, PageMeta } from '../../shared/domain';
import type { PullSummary } from '../../shared/sync/types';
import {
  mayHoldRemovedFields,
  serviceIdName,
  withRemovedFieldsKept,
  type AssetIdName,
} from '../../shared/sync/asset-id-name';
import { readListedPage } from '../service-client/fast-asset';
import { listedOf, type ListedAsset } from '../../shared/sync/listed-asset';
import { RemoteMerge, remoteCopy, type KnownRow, type RemoteCopy } from './remote-merge';
import type { LedgerPort } from '../workspace/ledger-port';
import { forgetPlan } from './pending-plan';
import { checkedIds } from './remote-listing';
import { emptyPull } from './sync-report';

/** A page taken in: its ids, and the name its assets carry their id under (see asset-id-name.ts). */
export interface PulledPage {
  ids: number[];
  idName: AssetIdName | undefined;
}

/** Assets merged in one transaction at most: a commit per page would cost more than the merge. */
const maxPerTransaction = 1_000;
/** Pages waiting are merged once this long passes without another (or when the listing ends). */
const quietMs = 20;
/**
 * The listing's last pages are merged each as it comes: what waits when the last page is in is
 * merged after the listing, where nothing overlaps it (a group of 1,000 was 10-25 ms of a 0.7 s
 * pull's tail), while a page merged alone costs only its own commit, overlapped with the fetching.
 */
const closingPages = 10;

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
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  /** Pages taken so far (they come a few at a time, in any order). */
  private pagesTaken = 0;

  constructor(private readonly store: LedgerPort) {
    this.newByPartner = store.createsByPartner();
  }

  /**
   * One page's bytes: parsed, its ids checked (an id-less asset or an empty page that should have
   * had assets is an error, and nothing of the page is merged), made ready to write and queued for
   * merging. The ids, and the name they came under. The bytes are main's `listAssetsPageBytes`,
   * which refused a page nested too deep as it arrived: not scanned a second time here (about a
   * fourteenth of the worker's part of a 20,000-asset pull).
   */
  page(bytes: Uint8Array, status: number, page: number, meta: PageMeta, lastPage: number): PulledPage {
    this.rethrow();
    const { listed, idName } = readListedPage(bytes, page, status, true);
    const ids = checkedIds(page, listed, meta, lastPage);
    this.pagesTaken++;
    this.queue(listed, idName === serviceIdName, this.pagesTaken > lastPage - closingPages);
    return { ids, idName };
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
   * `realNames`: the service that answered speaks the real names, so what was found keeps the
   * removed fields the workspace holds, as the listing's assets do.
   */
  finish(found: readonly Asset[], gone: readonly number[], realNames = false): PullSummary {
    this.queue(found.map(listedOf), realNames);
    this.flush();
    let abandoned = 0;
    this.store.transaction(() => {
      for (const { batchId } of this.store.unsettledBatches()) {
        this.store.abandonBatch(batchId);
        abandoned++;
      }
      const marked = new RemoteMerge(this.store).markMissingRemote(new Set(gone));
      this.summary.removed = marked.removed;
      this.summary.remoteDeletedConflicts = marked.conflicts;
    });
    // The pull changed what is pending: the click's plan is not what is pending now. A pull that
    // brought nothing new keeps it, so the push of the same click sends by the plan the review showed
    // (an analyst's edit meanwhile moves the workspace's mark: pending-plan.ts computes it again).
    if (abandoned > 0 || Object.values(this.summary).some((count) => count > 0)) forgetPlan(this.store);
    return this.summary;
  }

  /**
   * Prepared now (see `remoteCopy`), written with the group. `realNames`: the service speaks the
   * real names, so the fields it removed are kept from the workspace's copy (see asset-id-name.ts).
   */
  private queue(assets: readonly ListedAsset[], realNames = false, closing = false): void {
    for (const listed of assets) {
      const copy = remoteCopy(listed);
      if (copy === null) continue;
      // The asset itself is kept only where a create of ours may be adopted from it.
      const adoptable = copy.partnersId !== null && this.newByPartner.has(copy.partnersId);
      const item: Waiting = adoptable ? { copy, listed } : { copy };
      if (realNames) item.realNames = true;
      this.waiting.push(item);
    }
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
      closing || this.waiting.length >= maxPerTransaction ? 0 : quietMs,
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

/** A listed asset waiting for its group: its copy to write, and the asset where it may be adopted. */
interface Waiting {
  copy: RemoteCopy;
  listed?: ListedAsset;
  /** From a service that speaks the real names (it never sends the fields it removed). */
  realNames?: true;
}

/** The copy with the removed fields the workspace's base holds, when the service never sends them. */
function keepingRemoved(copy: RemoteCopy, row: KnownRow | null | undefined): RemoteCopy {
  if (!row?.base || !mayHoldRemovedFields(row.base)) return copy;
  const kept = withRemovedFieldsKept(
    JSON.parse(copy.theirsJson) as Record<string, unknown>,
    JSON.parse(row.base) as Record<string, unknown>,
  );
  return kept ? { ...copy, theirsJson: JSON.stringify(kept) } : copy;
}

/**
 * Merges remote assets; a new asset whose create answer was lost is adopted, not added. The rows
 * they are weighed against are read in one statement for the group.
 */
function applyPage(
  store: LedgerPort,
  remote: Waiting[],
  newByPartner: Map<number, string>,
  summary: PullSummary,
): void {
  const merge = new RemoteMerge(store);
  const known = merge.knownRows(remote.map(({ copy }) => copy.id));
  /** Ids taken in this group: one listed twice is weighed, the second time, against the first. */
  const taken = new Set<number>();
  for (const { copy: listedCopy, listed, realNames } of remote) {
    const id = listedCopy.id;
    const row = taken.has(id) ? undefined : (known.get(id) ?? null);
    const copy = realNames ? keepingRemoved(listedCopy, row) : listedCopy;
    taken.add(id);
    const pending = copy.partnersId === null ? undefined : newByPartner.get(copy.partnersId);
    if (pending !== undefined && listed && !(row === undefined ? store.assetByServiceId(id) : row)) {
      // A create whose answer was lost: the service has it, so it is not sent again.
      merge.acknowledge(pending, listed.asset());
      newByPartner.delete(copy.partnersId as number);
      summary.adopted++;
      continue;
    }
    const outcome = merge.applyCopy(copy, row);
    if (outcome === 'added') summary.added++;
    else if (outcome === 'updated') summary.updated++;
    else if (outcome === 'conflict') summary.conflicts++;
  }
}
