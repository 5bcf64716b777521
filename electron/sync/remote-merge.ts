import { randomUUID } from 'node:crypto';
import type { Asset } from '../../shared/domain';
import type { ChangeSource } from '../../shared/history/change-source';
import { changedPaths, mergeThreeWay, type AssetDoc } from '../../shared/sync/asset-doc';
import { listedOf, type ListedAsset } from '../../shared/sync/listed-asset';
import { verdictOf } from '../../shared/sync/server-verdict';
import { mergeAnswer } from './answer-merge';
import type { RemoteCopy, ServiceColumns } from '../workspace/asset-document';
import { parseDoc, type AssetRecord } from '../workspace/asset-record';
import type { LedgerPort } from '../workspace/ledger-port';
import type { KnownRow } from '../workspace/ledger-reads';
import { localColumns } from '../workspace/store-access';
import { WorkspaceEditError } from '../workspace/workspace-edit-error';

/** A pull's copy without the service's `updated_at` (a listing that gave none, a gone asset). */
const pulled = { kind: 'service', updatedAt: null } as const;

/**
 * The service's verdict as a row stores it: null when the asset gives none (the stored one stays),
 * the verdict when it has a message somewhere, and '' when it has none (most assets of a pull): that
 * reads as no verdict, as it shows nothing, yet it replaces an older verdict that had messages.
 * Building and writing a silent verdict in full was a fifth of a 20,000-asset pull's local work.
 */
function verdictText(listed: ListedAsset): string | null {
  if (listed.verdict === 'none') return null;
  return listed.verdict === 'silent' ? '' : JSON.stringify(verdictOf(listed.asset()));
}

/**
 * The row's ids as a batch was filled (see `RemoteMerge.acknowledge`), and the copy sent as it was
 * parsed then (`doc`: the very text `sent`), if kept.
 */
export type SentIds = {
  serviceAssetId: number | null;
  partnersId: number | null;
  doc?: AssetDoc | undefined;
};

/** What a batch answer writes over the copy sent (see `acknowledgeAsSent`). */
interface SentAnswer {
  theirs: AssetDoc;
  prior: AssetDoc | undefined;
  same: boolean;
  columns: ServiceColumns;
  keepOutliers: boolean;
  source: Extract<ChangeSource, { kind: 'service' | 'send-anyway' }>;
}

/** The condition of writing an answer over the copy sent: the row's analyst's copy is still it. */
const asSentOnly = ' AND sent IS NULL AND current = ?';

/** The service's copy as an `assets` row stores it: its document (and that as text), outliers, verdict. */
interface ServiceCopy {
  theirs: AssetDoc;
  theirsJson: string;
  outliers: string;
  verdict: string | null;
}

/** The texts an `assets` row stores of the service's copy. */
function rowTexts(listed: ListedAsset): Omit<ServiceCopy, 'theirs'> {
  return {
    theirsJson: JSON.stringify(listed.doc),
    outliers: JSON.stringify(listed.outliers),
    verdict: verdictText(listed),
  };
}

/** The columns an answer writes: the service's copy, the analyst's on it (`currentJson`), its verdict. */
function serviceColumns(
  theirsJson: string,
  currentJson: string | null,
  outliers: string,
  verdict: string | null,
): ServiceColumns {
  return { base: theirsJson, ...localColumns(currentJson, theirsJson), outliers, verdict };
}

// The row a listed asset writes, defined beside the statement that inserts it; the row it is weighed against.
export type { RemoteCopy, KnownRow };

/** The listed asset's copy to write, or null for one without an id (nothing can hold it). */
export function remoteCopy(listed: ListedAsset): RemoteCopy | null {
  if (listed.id === null) return null;
  const partnersId = typeof listed.partnersId === 'number' ? listed.partnersId : null;
  return { id: listed.id, partnersId, ...rowTexts(listed), updatedAt: listed.updatedAt };
}

/**
 * The service's copy taken into the workspace: pulled assets merged three ways (conflicts kept for
 * the user), answers to what we sent acknowledged under the edits made meanwhile, and assets the
 * service no longer has marked. The sync's (issue 35): it reaches the workspace only through the
 * ledger port, and every document it changes goes through the workspace's one write path (its
 * `service` entry). Runs inside the store's transactions.
 */
export class RemoteMerge {
  constructor(private readonly store: LedgerPort) {}

  private get path(): LedgerPort['serviceWrites'] {
    return this.store.serviceWrites;
  }

  /**
   * Brings one remote asset in: a new asset is added; a known one is merged three ways, with
   * conflicts kept for the user. Returns what happened, for the pull's summary. `known`: its row as
   * `knownRows` read it beforehand (null: none), or undefined to read it now.
   */
  applyRemote(asset: Asset, known?: KnownRow | null): 'added' | 'updated' | 'unchanged' | 'conflict' {
    const copy = remoteCopy(listedOf(asset));
    return copy === null ? 'unchanged' : this.applyCopy(copy, known);
  }

  /** `applyRemote` for a copy prepared beforehand (see `remoteCopy`). */
  applyCopy(copy: RemoteCopy, known?: KnownRow | null): 'added' | 'updated' | 'unchanged' | 'conflict' {
    const { id, theirsJson, outliers, verdict } = copy;
    const source = copy.updatedAt ? ({ kind: 'service', updatedAt: copy.updatedAt } as const) : pulled;
    if (known === undefined) known = this.knownRow(id);
    if (!known) {
      const localId = timeOrderedId();
      this.path.service('asset', localId, { source, before: null }, (w) => {
        // The local copy is the base: stored once (see localColumns).
        w.insertFromService(localId, copy);
        return undefined;
      });
      return 'added';
    }
    // Exactly the copy already taken in (most assets of most pulls): nothing to merge or write.
    const same =
      known.base === theirsJson &&
      known.outliers === outliers &&
      (verdict === null || verdict === known.server_validations) &&
      known.remote_deleted === 0 &&
      known.not_found === 0;
    if (same) return 'unchanged';
    // The document is read back from its text: only the few assets that changed need it.
    const theirs = parseDoc(theirsJson) ?? {};
    const merged = { theirs, theirsJson, outliers, verdict };
    return this.mergeInto(this.store.mustGet(known.local_id), merged, source);
  }

  private knownRow(id: number): KnownRow | null {
    return this.store.knownRow(id);
  }

  /**
   * The rows of these service ids that `applyRemote` weighs the service's copies against, read in
   * one statement (a pull takes its pages in groups: one query per group, not one per asset).
   */
  knownRows(ids: readonly number[]): Map<number, KnownRow> {
    return this.store.knownRows(ids);
  }

  /**
   * Takes the service's answer for an asset it created or updated from what we sent: the answer
   * becomes the base, and edits the analyst made while the batch was in flight stay pending, rebased
   * on the copy that was sent (`sent`, as the push kept it, or the row's own `sent` column). The
   * asset's batch is done with it: it leaves the batch in the same write (one row rewrite, not two).
   * True when the copy is now, in substance, the one sent (`changedPaths` finds nothing between
   * them): what the window shows of it needs no new document (see `assetViewsOf`).
   */
  acknowledge(
    localId: string,
    asset: Asset,
    sent?: string,
    carried?: Record<string, unknown>,
    anyway = false,
    ids?: SentIds,
  ): boolean {
    const listed = listedOf(asset);
    const outliers = JSON.stringify(listed.outliers);
    const verdict = verdictText(listed);
    let theirs = listed.doc;
    let keepOutliers = false;
    let prior: AssetDoc | undefined;
    if (carried) {
      // A batch answer may carry only part of the asset: merged into the copy sent, not taken whole.
      prior = (sent !== undefined ? ids?.doc : undefined) ?? parseDoc(sent ?? this.sentOrBase(localId)) ?? {};
      theirs = mergeAnswer(prior, theirs, carried);
      keepOutliers = !Object.hasOwn(carried, '_outliers');
    }
    // Stringified once, after the merge (the answer's own text is never stored when it was merged).
    const theirsJson = JSON.stringify(theirs);
    const source = anyway
      ? ({ kind: 'send-anyway' } as const)
      : ({ kind: 'service', updatedAt: asset.updated_at } as const);
    // The local copy is still the one sent (nothing edited while the batch was out): the service's
    // copy is the new local copy too, written without reading the row (the common case: a batch).
    if (sent !== undefined) {
      // The very text sent (an update's answer, the usual case): the same without a walk of both.
      const same = theirsJson === sent || (prior !== undefined && changedPaths(prior, theirs).length === 0);
      const columns = serviceColumns(theirsJson, theirsJson, outliers, verdict);
      const answer = { theirs, prior, same, columns, keepOutliers, source };
      if (this.acknowledgeAsSent(localId, asset, sent, answer, ids)) return same;
    }
    const row = this.store.copiesOf(localId);
    if (!row) throw new WorkspaceEditError(`No asset ${localId} in the workspace`);
    // Deleted or edited while the batch was out: the edits stay on top of the answer.
    const sentJson = row.sent ?? sent ?? null;
    let currentJson: string | null;
    if (row.current === null) currentJson = null;
    else if (sentJson === null || row.current === sentJson) currentJson = theirsJson;
    else {
      const base = parseDoc(sentJson) ?? theirs;
      currentJson = JSON.stringify(mergeThreeWay(base, parseDoc(row.current) ?? {}, theirs).merged);
    }
    this.path.service('asset', localId, { source }, (w) => {
      w.acknowledge(
        localId,
        asset.service_asset_id,
        serviceColumns(theirsJson, currentJson, outliers, verdict),
        keepOutliers,
      );
      return undefined;
    });
    return false;
  }

  /**
   * The answer written over a row whose analyst's copy is still the text sent (`sent`), else
   * nothing (false). Given the row's ids as its batch was filled (`ids`), its images before and
   * after are known without reading the row back and parsing it twice (a fifth of settling a
   * 5,000-asset batch): before, the copy sent; after, the service's, or the copy sent itself when
   * no cell of it changed (`same`), so the recorder finds nothing to record without walking both.
   */
  private acknowledgeAsSent(
    localId: string,
    asset: Asset,
    sent: string,
    answer: SentAnswer,
    ids?: SentIds,
  ): boolean {
    const { theirs, prior, same, columns, keepOutliers, source } = answer;
    const before = ids
      ? {
          current: prior ?? ids.doc ?? parseDoc(sent),
          serviceAssetId: ids.serviceAssetId,
          partnersId: ids.partnersId,
        }
      : undefined;
    let written = false;
    this.path.service('asset', localId, { source, before }, (w) => {
      written = w.acknowledge(localId, asset.service_asset_id, columns, keepOutliers, asSentOnly, sent);
      if (!before) return undefined;
      // Not written: the row is as it was, so the image after is the one before (nothing to record).
      if (!written) return before;
      return {
        current: same ? before.current : theirs,
        serviceAssetId: asset.service_asset_id ?? null,
        partnersId: before.partnersId,
      };
    });
    return written;
  }

  /** The copy a batch carried of an asset (its `sent` column), else its analyst's copy, else its base. */
  private sentOrBase(localId: string): string | null {
    const row = this.store.copiesOf(localId);
    return row?.sent ?? row?.current ?? row?.base ?? null;
  }

  /**
   * Of `records`, those whose absence the service confirmed (a 404 on the asset itself, never a
   * listing that merely lacked it) were deleted on the service: an unedited one goes, an edited one
   * becomes a conflict for the user. A pending delete of an asset that is gone is done, not lost.
   */
  markMissing(
    records: readonly AssetRecord[],
    confirmedGone: ReadonlySet<number>,
  ): { removed: number; conflicts: number } {
    let removed = 0;
    let conflicts = 0;
    for (const record of records) {
      if (record.serviceAssetId === null || !confirmedGone.has(record.serviceAssetId)) continue;
      const edited = record.current !== null && changedPaths(record.base, record.current).length > 0;
      if (edited) {
        this.store.markRemoteDeleted(record.localId);
        conflicts++;
      } else {
        this.removeGone(record.localId);
        removed++;
      }
    }
    return { removed, conflicts };
  }

  /** Marks the assets the service confirmed gone (by a 404 on each, see `confirmGone`), in one transaction. */
  markMissingRemote(confirmedGone: ReadonlySet<number>): { removed: number; conflicts: number } {
    if (confirmedGone.size === 0) return { removed: 0, conflicts: 0 };
    return this.store.transaction(() => this.markMissing(this.store.listAssets(), confirmedGone));
  }

  /** An asset the service no longer has (its delete acknowledged, or confirmed gone): its row goes. */
  removeGone(localId: string): void {
    this.path.service('asset', localId, { source: pulled }, (w) => {
      w.remove(localId);
      return null;
    });
  }

  private mergeInto(
    existing: AssetRecord,
    { theirs, theirsJson, outliers, verdict }: ServiceCopy,
    source: Extract<ChangeSource, { kind: 'service' }> = pulled,
  ): 'updated' | 'unchanged' | 'conflict' {
    const base = existing.base ?? theirs;
    const changedRemotely = changedPaths(base, theirs).length > 0;
    let current = existing.current;
    let result: 'updated' | 'unchanged' | 'conflict' = changedRemotely ? 'updated' : 'unchanged';
    if (current !== null && changedRemotely) {
      const { merged, conflicts } = mergeThreeWay(base, current, theirs);
      current = merged;
      this.store.keepConflicts(existing.localId, conflicts);
      if (conflicts.length > 0) result = 'conflict';
    }
    const { local, deleted } = localColumns(current === null ? null : JSON.stringify(current), theirsJson);
    const before = {
      current: existing.current,
      serviceAssetId: existing.serviceAssetId,
      partnersId: existing.partnersId,
    };
    this.path.service('asset', existing.localId, { source, before }, (w) => {
      w.mergeFromService(existing.localId, { base: theirsJson, local, deleted, outliers, verdict });
      return { ...before, current };
    });
    return result;
  }
}

/**
 * A local id for an asset a pull brings in: a UUID (version 7) whose first 48 bits are the time, so
 * the 20,000 ids of a first pull land at the end of the local-id index instead of all over it (a
 * quarter of each insert's cost). As RFC 9562 (6.2, method 1) allows, the next 12 bits count the ids
 * of one millisecond, so ids stay unique and in order without fresh random bytes for each (a random
 * UUID per id was a twentieth of a pull's merging); the last 62 bits are random, drawn once per
 * thread, so ids made by two threads (or two runs of the app) are as unlikely to meet as UUIDs.
 */
function timeOrderedId(): string {
  const now = Date.now();
  if (now > idClock.ms) {
    idClock.ms = now;
    idClock.count = 0;
    idClock.head = '';
  } else if (++idClock.count > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next one, as the RFC's counter method does.
    idClock.ms++;
    idClock.count = 0;
    idClock.head = '';
  }
  // The time's part is written once per millisecond, not once per id (a pull makes hundreds per
  // millisecond): with the count's text looked up, an id cost a sixth of what it did.
  if (idClock.head === '') {
    const time = idClock.ms.toString(16).padStart(12, '0');
    idClock.head = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
  }
  return `${idClock.head}${countText[idClock.count]}${idClock.tail}`;
}

/** The last id's millisecond, its count and its time's text; this thread's tail (a random UUID's, with its variant). */
const idClock = { ms: 0, count: 0, head: '', tail: randomUUID().slice(19) };

/** Each count's three hex digits and the dash after them. */
const countText = Array.from({ length: 0x1000 }, (_, n) => `${n.toString(16).padStart(3, '0')}-`);
