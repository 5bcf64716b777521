import { changedPaths, updatePayload, type AssetDoc } from '../../shared/sync/asset-doc';
import { toRecord, type AssetRecord, type AssetRow } from './asset-record';

/**
 * What the sync sends: the difference between each asset's two copies, so nothing is queued twice.
 */
export interface PendingWork {
  creates: AssetRecord[];
  updates: Array<{ record: AssetRecord; patch: AssetDoc }>;
  deletes: AssetRecord[];
  /** Held back until the user resolves them. */
  conflicted: AssetRecord[];
}

/** Sorts the workspace's rows (in their stored order) into creates, updates, deletes and conflicts. */
export function pendingWork(rows: Iterable<AssetRow>, conflicted: ReadonlySet<string>): PendingWork {
  const work: PendingWork = { creates: [], updates: [], deletes: [], conflicted: [] };
  for (const row of rows) {
    // Most rows are in step with the service: same text, nothing to parse or compare.
    if (row.base !== null && row.base === row.current && row.remote_deleted === 0) continue;
    const record = toRecord(row);
    const kind = candidateKind(candidateOf(record), conflicted);
    if (kind === 'conflicted') {
      if (record.remoteDeleted || changedPaths(record.base, record.current).length > 0)
        work.conflicted.push(record);
    } else if (kind === 'create') work.creates.push(record);
    else if (kind === 'delete') work.deletes.push(record);
    else if (kind === 'update' && record.serviceAssetId !== null && record.base && record.current) {
      const patch = updatePayload(record.serviceAssetId, record.base, record.current);
      if (patch) work.updates.push({ record, patch });
    }
  }
  return work;
}

/**
 * A row that may be pending, described without its documents (`WorkspaceStore.pendingCandidates`):
 * enough to queue it, so a push reads and diffs each document only when its batch is filled.
 */
export interface PendingCandidate {
  localId: string;
  serviceAssetId: number | null;
  remoteDeleted: boolean;
  notFound: boolean;
  hasBase: boolean;
  hasCurrent: boolean;
}

export function candidateOf(record: AssetRecord): PendingCandidate {
  return {
    localId: record.localId,
    serviceAssetId: record.serviceAssetId,
    remoteDeleted: record.remoteDeleted,
    notFound: record.notFound,
    hasBase: record.base !== null,
    hasCurrent: record.current !== null,
  };
}

/**
 * The queue a row that is not in step belongs to, by the same rules as `pendingWork`: `conflicted`
 * still needs its documents compared (a conflict resolved back to the base is no longer pending);
 * `update`, its diff (a copy equal in substance to the base sends nothing).
 */
export function candidateKind(
  row: PendingCandidate,
  conflicted: ReadonlySet<string>,
): 'create' | 'update' | 'delete' | 'conflicted' | undefined {
  if (row.remoteDeleted || conflicted.has(row.localId)) return 'conflicted';
  if (row.serviceAssetId === null) return row.hasCurrent ? 'create' : undefined;
  if (!row.hasCurrent) return 'delete';
  return row.hasBase && !row.notFound ? 'update' : undefined;
}
