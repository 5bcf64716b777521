import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { SyncChanges } from '../../shared/sync/types';
import { assetViewsOf } from '../workspace/asset-views';
import type { LedgerPort } from '../workspace/ledger-port';

/**
 * The push's views were read in the worker: an asset the analyst edited after that read (its
 * journal entry is later) is read again here, on main, where the edit's own answer was made, so
 * the window, which took that answer first, is not sent an older view.
 */
export function freshen(store: LedgerPort, changes: SyncChanges, idName: AssetIdName): void {
  const edited = store.journalledSince(changes.journalSeq);
  if (edited.size === 0) return;
  const settled = new Set([
    ...changes.views.map((view) => view.localId),
    ...changes.inStep.localIds,
    ...changes.removed,
  ]);
  const again = assetViewsOf(
    store,
    [...edited].filter((id) => settled.has(id)),
    idName,
  );
  const fresh = new Map(again.views.map((view) => [view.localId, view]));
  const gone = new Set(again.removed);
  changes.views = [
    ...changes.views.filter((view) => !fresh.has(view.localId) && !gone.has(view.localId)),
    ...fresh.values(),
  ];
  changes.removed = [...changes.removed.filter((id) => !fresh.has(id)), ...gone].filter(
    (id, i, all) => all.indexOf(id) === i,
  );
  const { localIds, serviceAssetIds } = changes.inStep;
  const kept = localIds.flatMap((id, i) => (fresh.has(id) || gone.has(id) ? [] : [i]));
  changes.inStep = {
    localIds: kept.map((i) => localIds[i]!),
    serviceAssetIds: kept.map((i) => serviceAssetIds[i]!),
  };
}
