import { changedPaths, updatePayload, type FieldConflict } from '../../shared/sync/asset-doc';
import type { AssetStatus, AssetView, SettledView, SyncChanges } from '../../shared/sync/types';
import type { AssetRecord } from './asset-record';
import {
  changesAnything,
  isRemovedFieldPath,
  specIdName,
  type AssetIdName,
} from '../../shared/sync/asset-id-name';
import type { LedgerPort } from './ledger-port';
import type { WorkspaceStore } from './workspace-store';

/**
 * An asset as the grids show it: the copy, its staged changes, conflicts and the service's word.
 * A new asset's changes are all of its values: they are not listed (the renderer derives them from
 * the copy, `shared/sync/asset-doc.ts` `changedPaths(null, doc)`), which keeps a snapshot of a
 * workspace of new assets a third of the size. `idName`: the name the connection's service reads the
 * asset id under: the changed paths that service no longer takes are `keptHere`, and an asset
 * changed only in those is `clean`, not `modified` (nothing of it is pending there, as
 * `pendingWork` and the batch planner agree).
 */
export function toAssetView(
  record: AssetRecord,
  conflicts: readonly FieldConflict[],
  idName: AssetIdName = specIdName,
): AssetView {
  const doc = record.current ?? record.base ?? {};
  const unsent = record.current !== null && record.serviceAssetId === null;
  const changed =
    record.inStep === true || record.current === null || unsent
      ? []
      : changedPaths(record.base, record.current);
  // Only an asset the service has is sent updates (a new one's create leaves them out the same way).
  const keptHere =
    idName === specIdName || record.serviceAssetId === null ? [] : changed.filter(isRemovedFieldPath);
  const status = keptHere.length > 0 && changedOnlyHere(record, idName) ? 'clean' : statusOf(record, changed);
  return {
    localId: record.localId,
    serviceAssetId: record.serviceAssetId,
    partnersId: record.partnersId,
    doc,
    status,
    changedPaths: changed,
    conflicts: conflicts.map(({ path, base, mine, theirs }) => ({ path, base, mine, theirs })),
    remoteDeleted: record.remoteDeleted,
    notFound: record.notFound,
    serverValidations: record.serverValidations,
    outliers: record.outliers,
    ...(keptHere.length > 0 ? { keptHere } : {}),
  };
}

/** One asset's view, read now. */
export function assetView(store: WorkspaceStore, localId: string, idName?: AssetIdName): AssetView | null {
  const record = store.asset(localId);
  return record ? toAssetView(record, store.conflicts(localId), idName) : null;
}

/**
 * The assets' views after the row `after`, at most `limit` (all: -1), for a snapshot and its pages:
 * one read of the assets, one of the conflicts. `next`: where the following page starts, or null.
 */
export function assetViewPage(
  store: WorkspaceStore,
  after = 0,
  limit = -1,
  idName?: AssetIdName,
): { assets: AssetView[]; next: number | null } {
  const conflicts = store.conflictsByAsset();
  const { records, last } = store.listForViews(after, limit);
  const assets = records.map((record) => toAssetView(record, conflicts.get(record.localId) ?? [], idName));
  return { assets, next: limit > 0 && records.length === limit ? last : null };
}

/**
 * The views of the assets `localIds` as they are now, read in one statement (a push's settled
 * assets, issue 35); `removed`: those no longer in the workspace. `sameAsSent`: the assets whose
 * settlement found their copy, in substance, the one sent, which the window shows: while still in
 * step, their views go without the document, which is then neither parsed nor sent.
 */
export function assetViewsOf(
  store: LedgerPort,
  localIds: Iterable<string>,
  idName?: AssetIdName,
  sameAsSent: ReadonlySet<string> = new Set(),
): { views: SettledView[]; removed: string[] } {
  const wanted = [...localIds];
  if (wanted.length === 0) return { views: [], removed: [] };
  const conflicts = store.conflictsByAsset();
  const views = store.recordsOf(wanted, sameAsSent).map((record): SettledView => {
    const view = toAssetView(record, conflicts.get(record.localId) ?? [], idName);
    if (!record.asSent) return view;
    const { doc: _shown, ...lean } = view;
    return lean;
  });
  const found = new Set(views.map((view) => view.localId));
  return { views, removed: wanted.filter((id) => !found.has(id)) };
}

/**
 * What a push's settlement changed, for the window (issue 35): the assets in step whose copy is the
 * one sent (`sameAsSent`) and nothing else to show, by their service ids alone; the others' views
 * (see `assetViewsOf`); those gone.
 */
export function settledViewsOf(
  store: LedgerPort,
  localIds: Iterable<string>,
  sameAsSent: ReadonlySet<string>,
  idName?: AssetIdName,
): Pick<SyncChanges, 'views' | 'inStep' | 'removed'> {
  const wanted = [...localIds];
  const plain = store.plainlyInStep(wanted.filter((id) => sameAsSent.has(id)));
  const { views, removed } = assetViewsOf(
    store,
    wanted.filter((id) => !plain.has(id)),
    idName,
    sameAsSent,
  );
  return { views, removed, inStep: { localIds: [...plain.keys()], serviceAssetIds: [...plain.values()] } };
}

function statusOf(record: AssetRecord, changed: string[]): AssetStatus {
  if (record.current === null) return 'deleted';
  if (record.serviceAssetId === null) return 'new';
  return changed.length > 0 ? 'modified' : 'clean';
}

/**
 * Whether an edited asset the service has differs from its copy only in fields a service reading
 * the id as `idName` no longer takes: kept here, nothing pending for that service (the sync's
 * planner, electron/sync/pending-work.ts, leaves such an asset out by the same payload).
 */
export function changedOnlyHere(record: AssetRecord, idName: AssetIdName): boolean {
  if (idName === specIdName || record.serviceAssetId === null || !record.base || !record.current)
    return false;
  const patch = updatePayload(record.serviceAssetId, record.base, record.current);
  return patch !== null && !changesAnything(patch, idName);
}
