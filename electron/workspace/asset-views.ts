import { changedPaths, flattenDoc, type AssetDoc } from '../../shared/sync/asset-doc';
import type { AssetStatus, AssetView, PendingReview } from '../../shared/sync/types';
import type { AssetRecord } from './asset-record';
import type { PendingWork } from './pending-work';
import type { WorkspaceStore } from './workspace-store';

/** An asset as the grids show it: the copy, its staged changes, conflicts and the service's word. */
export function toAssetView(record: AssetRecord, store: WorkspaceStore): AssetView {
  const doc = record.current ?? record.base ?? {};
  const changed =
    record.inStep === true || record.current === null ? [] : changedPaths(record.base, record.current);
  return {
    localId: record.localId,
    serviceAssetId: record.serviceAssetId,
    partnersId: record.partnersId,
    doc,
    status: statusOf(record, changed),
    changedPaths: changed,
    conflicts: store
      .conflicts(record.localId)
      .map(({ path, base, mine, theirs }) => ({ path, base, mine, theirs })),
    remoteDeleted: record.remoteDeleted,
    notFound: record.notFound,
    serverValidations: record.serverValidations,
    outliers: record.outliers,
  };
}

function statusOf(record: AssetRecord, changed: string[]): AssetStatus {
  if (record.current === null) return 'deleted';
  if (record.serviceAssetId === null) return 'new';
  return changed.length > 0 ? 'modified' : 'clean';
}

const nameOf = (record: AssetRecord): string => {
  const name = (record.current ?? record.base)?.['name'];
  return typeof name === 'string' && name !== '' ? name : '(unnamed asset)';
};

/** What the next push would send, grouped for the "what will be sent" review. */
export function toReview(work: PendingWork): PendingReview {
  return {
    creates: work.creates.map((record) => ({ localId: record.localId, name: nameOf(record) })),
    updates: work.updates.map(({ record }) => ({
      localId: record.localId,
      name: nameOf(record),
      changedPaths: changedPaths(record.base, record.current),
      changes: fieldChanges(record.base, record.current),
    })),
    deletes: work.deletes.map((record) => ({
      localId: record.localId,
      name: nameOf(record),
      serviceAssetId: record.serviceAssetId,
    })),
    conflicted: work.conflicted.map((record) => ({ localId: record.localId, name: nameOf(record) })),
  };
}

/** Each changed cell of an asset, old -> new, as text (an entry added or removed shows as one line). */
function fieldChanges(
  base: AssetDoc | null,
  current: AssetDoc | null,
): Array<{ path: string; before: string; after: string }> {
  const before = flattenDoc(base);
  const after = flattenDoc(current);
  const out: Array<{ path: string; before: string; after: string }> = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const from = before.get(path) ?? null;
    const to = after.get(path) ?? null;
    if (from !== to)
      out.push({
        path,
        before: from === null ? '(empty)' : String(from),
        after: to === null ? '(empty)' : String(to),
      });
  }
  return out;
}
