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
    if (record.remoteDeleted || conflicted.has(record.localId)) {
      if (record.remoteDeleted || changedPaths(record.base, record.current).length > 0)
        work.conflicted.push(record);
      continue;
    }
    if (record.serviceAssetId === null) {
      if (record.current) work.creates.push(record);
      continue;
    }
    if (record.current === null) {
      work.deletes.push(record);
      continue;
    }
    if (record.base && !record.notFound) {
      const patch = updatePayload(record.serviceAssetId, record.base, record.current);
      if (patch) work.updates.push({ record, patch });
    }
  }
  return work;
}
